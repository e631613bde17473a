#!/usr/bin/env node
// Reads the command line and hands it on: client commands to src/cli/, the server's to src/app/.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './runtime/config.js';
import { DomainError } from './domain/errors.js';
import { blobsCommand, keysCommand, migrate, secretsCommand, UsageError, workspacesCommand } from './app/admin.js';
import { isClientCommand, runClient } from './cli/index.js';
import { asksForHelp, commandHelp, overview } from './cli/help.js';
import { tuneJit } from './runtime/jit.js';
import { QUIRE_VERSION } from './runtime/version.js';

async function run(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  // A bare `quire` explains itself rather than serving from whatever folder it was typed in.
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const text = sub === undefined ? overview(QUIRE_VERSION) : commandHelp(sub);
    if (text === undefined) throw new UsageError(`unknown command "${sub}"`);
    console.log(text);
    return;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(QUIRE_VERSION);
    return;
  }
  if (asksForHelp(argv.slice(1))) {
    const text = commandHelp(command);
    if (text === undefined) throw new UsageError(`unknown command "${command}"`);
    console.log(text);
    return;
  }
  // Client commands need no server configuration: only QUIRE_URL and QUIRE_API_KEY (or flags).
  if (isClientCommand(command)) {
    const code = await runClient(command, argv.slice(1));
    process.stdout.write('', () => process.exit(code));
    return;
  }
  const config = loadConfig();
  // Before any worker thread starts (they take the process's V8 flags as they are then).
  if (command === 'serve' || command === 'worker') tuneJit({ initialOldSpaceMb: config.ingest.initialOldSpaceMb });

  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: argv.slice(1), options: { 'no-worker': { type: 'boolean' } }, strict: true });
      // Loaded here, not at the top: client commands start without the server's modules.
      const { serve } = await import('./app/lifecycle.js');
      return serve(config, { worker: !values['no-worker'] });
    }
    case 'worker': {
      parseArgs({ args: argv.slice(1), options: {}, strict: true });
      const { worker } = await import('./app/lifecycle.js');
      return worker(config);
    }
    case 'migrate':
      return migrate(config);
    case 'workspaces':
      return workspacesCommand(config, sub, rest);
    case 'keys':
      return keysCommand(config, sub, rest);
    case 'secrets':
      return secretsCommand(config, sub, rest);
    case 'blobs':
      return blobsCommand(config, sub, rest);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) console.error(`quire: ${err.message}\n(quire help lists the commands; quire COMMAND --help describes one)`);
  else if (err instanceof ConfigError || err instanceof DomainError) console.error(`quire: ${err.message}`);
  else if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`quire: ${(err as Error).message}`);
  else console.error(`quire: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
});
