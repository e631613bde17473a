import { docs, dgml, pages } from './docs.js';
import { docsets } from './docsets.js';
import { ApiError, CliFailure, CliUsageError } from './errors.js';
import { exportProject, projects } from './projects.js';
import { props } from './props.js';
import { upload } from './upload.js';
import { webhooks } from './webhooks.js';

/**
 * Client commands: they talk to a running Quire (or any /v1preview1 service) through its public REST
 * API only, with `QUIRE_URL` (default http://127.0.0.1:8080) and `QUIRE_API_KEY`, or `--url`/`--key`.
 */
export const CLIENT_USAGE = `client commands (QUIRE_URL, QUIRE_API_KEY, or --url URL --key KEY; --json for scripts):
  upload PATH… [--docset NAME|ID | --classify A,B] [--metadata K=V]… [--wait]
               [--chunk-threshold BYTES] [--parallel N]
                                              upload files and folders (recursively); chunked and
                                              resumable above the threshold (default 8M)
  docs ls [--name N] [--prefix P] [--status S] [--docset NAME|ID] [--min-pages N] [--max-pages N]
          [--limit N | --all]                 list documents
  docs get ID | docs rm ID                    show / delete a document
  dgml ID [--docset NAME|ID] [--out FILE]     a document's DGML (stdout without --out)
  pages ID --out DIR [--dpi N]                one PNG per page
  docsets ls | get NAME|ID | create NAME | rename NAME|ID NEW-NAME | rm NAME|ID
  props ls DOCSET | add DOCSET LABEL | rm DOCSET PROPERTY | get DOCSET DOCUMENT
  props set DOCSET DOCUMENT LABEL VALUE | unset DOCSET DOCUMENT LABEL
  projects ls | get ID | publish ID | rm ID
  projects create --name N --type T --docset NAME|ID [--item LABEL]… [--no-auto-confirm]
  export PROJECT [--version latest|N] --out DIR [--wait SECONDS]
                                              every artifact of a version
  webhooks ls | get ID | rm ID | deliveries ID | retry ID DELIVERY | test ID
  webhooks create RECEIVER-URL --target Documents|Docset|Project [--target-id ID] [--event E]… [--secret S]`;

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  upload,
  docs,
  dgml,
  pages,
  docsets,
  props,
  projects,
  export: exportProject,
  webhooks,
};

export const isClientCommand = (command: string): boolean => Object.hasOwn(COMMANDS, command);

/**
 * Runs a client command and answers its exit code: 0 done, 1 refused by the server or failed
 * (one line `quire: 404 Not Found: …` on stderr), 2 a usage error.
 */
export async function runClient(command: string, args: string[]): Promise<number> {
  try {
    return await COMMANDS[command]!(args);
  } catch (err) {
    if (err instanceof CliUsageError) {
      process.stderr.write(`quire: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ApiError || err instanceof CliFailure) {
      process.stderr.write(`quire: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`quire: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}
