import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './errors.js';
import { Client, connectionFrom } from './http.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags every client command takes. */
export const COMMON: Options = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export interface Parsed {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  values: Record<string, any>;
  positionals: string[];
  json: boolean;
  client: () => Client;
}

/**
 * parseArgs (strict: an unknown flag is a usage error) with the common flags, and the positional
 * count checked against `min`..`max` with `usage` as the reason.
 */
export function parse(args: string[], options: Options, usage: string, min = 0, max = min): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new CliUsageError(`usage: quire ${usage}`);
  if (positionals.length < min || positionals.length > max) throw new CliUsageError(`usage: quire ${usage}`);
  let client: Client | undefined;
  return {
    values,
    positionals,
    json: Boolean(values.json),
    client: () => (client ??= new Client(connectionFrom({ url: values.url as string | undefined, key: values.key as string | undefined }))),
  };
}

/** A non-negative integer flag (`--limit 10`), or undefined when absent. */
export function intFlag(name: string, raw: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new CliUsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** A byte count with an optional K/M/G suffix (binary): `65536`, `64K`, `8M`. */
export function bytesFlag(name: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const m = typeof raw === 'string' ? /^(\d{1,12})([KMG]i?B?)?$/i.exec(raw) : null;
  if (!m) throw new CliUsageError(`--${name} must be a byte count like 65536, 64K or 8M`);
  const unit = (m[2] ?? '').charAt(0).toUpperCase();
  return Number(m[1]) * (unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1);
}
