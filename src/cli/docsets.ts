import { parse } from './args.js';
import { CliFailure, CliUsageError } from './errors.js';
import type { Client } from './http.js';
import { details, emit, note, table } from './output.js';
import { isId } from '../model/ids.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Docset = any;

/**
 * A docset named by id or by name: an id-shaped argument is tried as an id first, then as a name.
 * With `create`, a name that does not exist yet is created (and said on stderr).
 */
export async function resolveDocset(client: Client, nameOrId: string, opts: { create?: boolean } = {}): Promise<Docset> {
  if (isId(nameOrId)) {
    const res = await client.raw('GET', `/docsets/${encodeURIComponent(nameOrId)}`, { accept: [404] });
    if (res.ok) return (await res.json()) as Docset;
    await res.arrayBuffer();
  }
  const { items } = await client.all<Docset>('/docsets', 'docsets', { name: nameOrId, samples: true, limit: 100 });
  const found = items.find((d) => d.name === nameOrId);
  if (found) return found;
  if (!opts.create) throw new CliFailure(`no docset with the id or name "${nameOrId}"`);
  const made = await client.json('POST', '/docsets', { json: { name: nameOrId } });
  note(`created docset ${made.name} (${made.id})`);
  return made;
}

const row = (d: Docset) => ({ id: d.id, name: d.name, documents: d.documentCount, sample: d.isSample ? 'yes' : '', created: d.createdAt });

const USAGE = 'docsets ls [--name NAME] [--samples] [--json] | docsets get NAME|ID | docsets create NAME | docsets rename NAME|ID NEW-NAME | docsets rm NAME|ID';

export async function docsets(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'ls':
    case 'list': {
      const p = parse(rest, { name: { type: 'string' }, samples: { type: 'boolean' } }, 'docsets ls [--name NAME] [--samples] [--json]');
      const { items } = await p.client().all<Docset>('/docsets', 'docsets', { name: p.values.name, samples: p.values.samples ? true : undefined, limit: 100 });
      emit(p.json, items, () => table(items.map(row)));
      return 0;
    }
    case 'get': {
      const p = parse(rest, {}, 'docsets get NAME|ID [--json]', 1);
      const d = await resolveDocset(p.client(), p.positionals[0]!);
      emit(p.json, d, () => details(row(d)));
      return 0;
    }
    case 'create': {
      const p = parse(rest, {}, 'docsets create NAME [--json]', 1);
      const d = await p.client().json('POST', '/docsets', { json: { name: p.positionals[0] } });
      emit(p.json, d, () => `created docset ${d.name} (${d.id})`);
      return 0;
    }
    case 'rename': {
      const p = parse(rest, {}, 'docsets rename NAME|ID NEW-NAME [--json]', 2);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      const renamed = await c.json('PATCH', `/docsets/${d.id}`, { json: { name: p.positionals[1] } });
      emit(p.json, renamed, () => `renamed docset ${d.name} to ${renamed.name} (${d.id})`);
      return 0;
    }
    case 'rm':
    case 'delete': {
      const p = parse(rest, {}, 'docsets rm NAME|ID', 1);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      await c.raw('DELETE', `/docsets/${d.id}`).then((r) => r.arrayBuffer());
      emit(p.json, { id: d.id, deleted: true }, () => `deleted docset ${d.name} (${d.id}); its documents are kept`);
      return 0;
    }
    default:
      throw new CliUsageError(`usage: quire ${USAGE}`);
  }
}
