/** Rule violations the domain reports; the transport maps each kind to one HTTP status. */
export type DomainErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not-found' // 404
  | 'conflict' // 409
  | 'too-large' // 413
  | 'unsupported-type' // 415
  | 'unprocessable' // 422
  | 'too-many' // 429
  | 'unavailable' // 503: busy for now; `retry-after` says when to try again
  | 'range-not-satisfiable'; // 416

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers the transport adds, e.g. `retry-after` for a state that will pass. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new DomainError('invalid', message, extra);
export const notFound = (what: string, id: string) => new DomainError('not-found', `${what} ${JSON.stringify(id)} was not found in this workspace.`);
export const conflict = (message: string) => new DomainError('conflict', message);
