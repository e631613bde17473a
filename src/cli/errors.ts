/** A command line the client cannot act on: exit 2 with one line. */
export class CliUsageError extends Error {}

/** A refusal from the server (its Problem JSON) or a failure to reach it: exit 1 with one line. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly body?: unknown,
  ) {
    super(detail ? `${status} ${title}: ${detail}` : `${status} ${title}`);
  }
}

/** Any other failure the client reports in one line (exit 1): unreachable server, unwritable file. */
export class CliFailure extends Error {}
