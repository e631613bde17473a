import { docs, dgml, pages, text } from './docs.js';
import { docsets } from './docsets.js';
import { ApiError, CliFailure, CliUsageError } from './errors.js';
import { exportProject, projects } from './projects.js';
import { ping } from './ping.js';
import { props } from './props.js';
import { upload } from './upload.js';
import { webhooks } from './webhooks.js';

/**
 * Client commands: they talk to a running Quire (or any /v1preview1 service) through its public REST
 * API only, with `QUIRE_URL` (default http://127.0.0.1:8080) and `QUIRE_API_KEY`, or `--url`/`--key`.
 * Their help texts are in help.ts.
 */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  ping,
  upload,
  docs,
  text,
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
