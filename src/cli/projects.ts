import fs from 'node:fs';
import path from 'node:path';
import { intFlag, parse } from './args.js';
import { resolveDocset } from './docsets.js';
import { CliFailure, CliUsageError } from './errors.js';
import type { Client } from './http.js';
import { details, emit, humanBytes, note, table } from './output.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const USAGE =
  'projects ls [--name N] [--type T] [--docset NAME|ID] | projects get ID | projects create --name N --type T --docset NAME|ID [--item LABEL]… [--no-auto-confirm] | projects publish ID | projects rm ID';

const row = (p: Json) => ({ id: p.id, name: p.name, type: p.type, docset: p.docset.id, version: p.artifacts.version ?? '', items: p.items.map((i: Json) => i.label).join(', ') });

export async function projects(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'ls':
    case 'list': {
      const p = parse(rest, { name: { type: 'string' }, type: { type: 'string' }, docset: { type: 'string' } }, 'projects ls [--name N] [--type T] [--docset NAME|ID] [--json]');
      const c = p.client();
      const docsetId = p.values.docset ? (await resolveDocset(c, p.values.docset)).id : undefined;
      const { items } = await c.all<Json>('/projects', 'projects', { name: p.values.name, type: p.values.type, 'docset.id': docsetId, limit: 100 });
      emit(p.json, items, () => table(items.map(row)));
      return 0;
    }
    case 'get': {
      const p = parse(rest, {}, 'projects get ID [--json]', 1);
      const pr = await p.client().get(`/projects/${encodeURIComponent(p.positionals[0]!)}`);
      emit(p.json, pr, () => details({ ...row(pr), autoConfirm: pr.autoConfirmDocuments, created: pr.createdAt, updated: pr.updatedAt, artifacts: pr.artifacts.url }));
      return 0;
    }
    case 'create': {
      const p = parse(
        rest,
        { name: { type: 'string' }, type: { type: 'string' }, docset: { type: 'string' }, item: { type: 'string', multiple: true }, 'no-auto-confirm': { type: 'boolean' } },
        'projects create --name N --type T --docset NAME|ID [--item LABEL]… [--no-auto-confirm] [--json]',
      );
      for (const f of ['name', 'type', 'docset']) if (!p.values[f]) throw new CliUsageError(`projects create needs --${f}`);
      const c = p.client();
      const d = await resolveDocset(c, p.values.docset);
      const body: Json = { name: p.values.name, type: p.values.type, 'docset.id': d.id, items: ((p.values.item as string[] | undefined) ?? []).map((label) => ({ label })) };
      if (p.values['no-auto-confirm']) body.autoConfirmDocuments = false;
      const pr = await c.json('POST', '/projects', { json: body });
      emit(p.json, pr, () => `created project ${pr.name} (${pr.id}), ${pr.type} of docset ${d.name}`);
      return 0;
    }
    case 'publish': {
      const p = parse(rest, {}, 'projects publish ID [--json]', 1);
      const r = await p.client().json('POST', `/projects/${encodeURIComponent(p.positionals[0]!)}/publish`);
      emit(p.json, r, () => `publishing project ${p.positionals[0]}`);
      return 0;
    }
    case 'rm':
    case 'delete': {
      const p = parse(rest, {}, 'projects rm ID', 1);
      const id = p.positionals[0]!;
      await (await p.client().raw('DELETE', `/projects/${encodeURIComponent(id)}`)).arrayBuffer();
      emit(p.json, { id, deleted: true }, () => `deleted project ${id} with every version`);
      return 0;
    }
    default:
      throw new CliUsageError(`usage: quire ${USAGE}`);
  }
}

/** A file name from an artifact name: no directories, nothing hidden. */
function safeName(name: string): string {
  const base = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_');
  return base || '_';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The latest version's number. A project has one from the start: "0", holding only what was uploaded
 * into it until the first version is published; `--wait` waits for a published one (1 or later).
 */
async function latestVersion(c: Client, project: string, wait: number | undefined): Promise<string> {
  const deadline = Date.now() + (wait ?? 0) * 1000;
  for (;;) {
    const pr = await c.get(`/projects/${encodeURIComponent(project)}`);
    const version = String(pr.artifacts.version ?? '0');
    if (version !== '0') return version;
    if (wait === undefined) {
      note(`project ${project} has published no version yet: exporting version 0 (its uploads; --wait SECONDS waits for a published one)`);
      return version;
    }
    if (Date.now() > deadline) throw new CliFailure(`project ${project} published no version within ${wait} s`);
    await sleep(1000);
  }
}

/**
 * `quire export PROJECT [--version latest|N] --out DIR`: every artifact of the version. Docset-wide
 * ones go to DIR/NAME, per-document ones to DIR/DOCUMENT-ID/NAME (several documents have a
 * `report-values.xml` each).
 */
export async function exportProject(args: string[]): Promise<number> {
  const p = parse(
    args,
    { version: { type: 'string' }, out: { type: 'string', short: 'o' }, wait: { type: 'string' } },
    'export PROJECT [--version latest|N] --out DIR [--wait SECONDS] [--json]',
    1,
  );
  if (!p.values.out) throw new CliUsageError('export needs --out DIR');
  let version = (p.values.version as string | undefined) ?? 'latest';
  if (version !== 'latest' && !/^\d{1,9}$/.test(version)) throw new CliUsageError('--version must be latest or a version number');
  const wait = intFlag('wait', p.values.wait, 1);
  const c = p.client();
  const project = p.positionals[0]!;
  if (version === 'latest') version = await latestVersion(c, project, wait);
  const { items } = await c.all<Json>(`/projects/${encodeURIComponent(project)}/artifacts/${version}`, 'artifacts', { limit: 100 });
  const dir = p.values.out as string;
  const written: Json[] = [];
  for (const a of items) {
    const sub = a.document ? path.join(dir, safeName(a.document.id)) : dir;
    try {
      fs.mkdirSync(sub, { recursive: true });
    } catch (err) {
      throw new CliFailure(`cannot create ${sub}: ${(err as Error).message}`);
    }
    const file = path.join(sub, safeName(a.name));
    const size = await c.download(a.downloadUrl ?? `${a.url}/content`, file);
    if (size !== a.size) throw new CliFailure(`${a.name}: received ${size} bytes, the server announced ${a.size}`);
    written.push({ artifact: a.id, name: a.name, document: a.document?.id ?? null, version: a.version, file, size });
    if (!p.json) note(`${a.name}${a.document ? ` (document ${a.document.id})` : ''} -> ${file}`);
  }
  emit(p.json, { project, version, artifacts: written }, () =>
    written.length ? `${table(written.map((w) => ({ file: w.file, size: humanBytes(w.size), document: w.document ?? '' })))}\nexported version ${version}: ${written.length} artifact(s) to ${dir}` : `version ${version} has no artifacts`,
  );
  return 0;
}
