import fs from 'node:fs';
import path from 'node:path';
import { intFlag, parse } from './args.js';
import { resolveDocset } from './docsets.js';
import { CliFailure, CliUsageError } from './errors.js';
import { details, emit, humanBytes, note, table } from './output.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const USAGE = 'docs ls [--name N] [--prefix P] [--status S] [--docset NAME|ID] [--min-pages N] [--max-pages N] [--limit N | --all] [--json] | docs get ID | docs rm ID | docs download ID [--out FILE]';

export const docRow = (d: Doc) => ({
  id: d.id,
  name: d.name,
  status: d.status,
  pages: d.pageCount ?? '',
  size: humanBytes(d.size),
  docset: d.docset?.id ?? '',
  created: d.createdAt,
});

export async function docs(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'ls':
    case 'list': {
      const p = parse(
        rest,
        {
          name: { type: 'string' },
          prefix: { type: 'string' },
          status: { type: 'string' },
          docset: { type: 'string' },
          'min-pages': { type: 'string' },
          'max-pages': { type: 'string' },
          limit: { type: 'string' },
          all: { type: 'boolean' },
          samples: { type: 'boolean' },
        },
        'docs ls [--name N] [--prefix P] [--status S] [--docset NAME|ID] [--min-pages N] [--max-pages N] [--limit N | --all] [--json]',
      );
      const limit = intFlag('limit', p.values.limit, 1);
      if (limit !== undefined && p.values.all) throw new CliUsageError('--limit and --all exclude each other');
      const c = p.client();
      const docsetId = p.values.docset ? (await resolveDocset(c, p.values.docset)).id : undefined;
      const query = {
        name: p.values.name,
        prefix: p.values.prefix,
        status: p.values.status,
        'docset.id': docsetId,
        minPages: intFlag('min-pages', p.values['min-pages']),
        maxPages: intFlag('max-pages', p.values['max-pages']),
        samples: p.values.samples ? true : undefined,
        limit: Math.min(limit ?? 100, 100),
      };
      const max = p.values.all ? Infinity : (limit ?? 30);
      const { items, more } = await c.all<Doc>('/documents', 'documents', query, max);
      emit(p.json, items, () => table(items.map(docRow)));
      if (more && !p.json) note(`(more documents: --all lists every one, --limit N up to N)`);
      return 0;
    }
    case 'get': {
      const p = parse(rest, {}, 'docs get ID [--json]', 1);
      const d = await p.client().get(`/documents/${encodeURIComponent(p.positionals[0]!)}`);
      emit(p.json, d, () =>
        details({
          ...docRow(d),
          size: `${d.size} bytes`,
          contentType: d.contentType,
          sha256: d.sha256,
          processedAt: d.processedAt,
          progress: d.progress ? `${d.progress.stage} ${d.progress.pagesDone ?? 0}/${d.progress.pagesTotal ?? '?'}` : undefined,
          error: d.error ? [d.error.title, d.error.detail].filter(Boolean).join(': ') : undefined,
          url: d.url,
        }),
      );
      return 0;
    }
    case 'rm':
    case 'delete': {
      const p = parse(rest, {}, 'docs rm ID', 1);
      const id = p.positionals[0]!;
      await (await p.client().raw('DELETE', `/documents/${encodeURIComponent(id)}`)).arrayBuffer();
      emit(p.json, { id, deleted: true }, () => `deleted document ${id}`);
      return 0;
    }
    case 'download': {
      const p = parse(rest, { out: { type: 'string', short: 'o' } }, 'docs download ID [--out FILE|-] [--json]', 1);
      const c = p.client();
      const id = p.positionals[0]!;
      const route = `/documents/${encodeURIComponent(id)}/content`;
      if (p.values.out === '-') {
        if (p.json) throw new CliUsageError('--json needs --out FILE: the file itself goes to stdout with --out -');
        await c.toStdout(route);
        return 0;
      }
      // The document's own name, without any folder it was uploaded under, in the current folder.
      const file = (p.values.out as string | undefined) ?? safeFileName((await c.get(`/documents/${encodeURIComponent(id)}`)).name, id);
      const size = await c.download(route, file);
      emit(p.json, { document: id, file: path.resolve(file), size }, () => `wrote ${file} (${humanBytes(size)})`);
      return 0;
    }
    default:
      throw new CliUsageError(`usage: quire ${USAGE}`);
  }
}

function safeFileName(name: unknown, id: string): string {
  const base = typeof name === 'string' ? path.basename(name.replace(/\\/g, '/')).replace(/[\x00-\x1f]/g, '') : '';
  return base && base !== '.' && base !== '..' ? base : id;
}

/** `quire text ID [--markdown] [--out FILE]`: the document as Quire read it. */
export async function text(args: string[]): Promise<number> {
  const p = parse(args, { markdown: { type: 'boolean' }, out: { type: 'string', short: 'o' } }, 'text ID [--markdown] [--out FILE]', 1);
  const c = p.client();
  const route = `/documents/${encodeURIComponent(p.positionals[0]!)}/content`;
  const query = { format: p.values.markdown ? 'markdown' : 'text' };
  if (p.values.out) {
    const size = await c.download(route, p.values.out, query);
    emit(p.json, { document: p.positionals[0], file: path.resolve(p.values.out), size }, () => `wrote ${p.values.out} (${humanBytes(size)})`);
  } else {
    if (p.json) throw new CliUsageError('text writes text: --json needs --out FILE');
    await c.toStdout(route, query);
  }
  return 0;
}

/** `quire dgml ID [--docset ID] [--out FILE]`: the DGML on stdout or into a file. */
export async function dgml(args: string[]): Promise<number> {
  const p = parse(args, { docset: { type: 'string' }, out: { type: 'string', short: 'o' } }, 'dgml ID [--docset NAME|ID] [--out FILE]', 1);
  const c = p.client();
  const id = encodeURIComponent(p.positionals[0]!);
  const route = p.values.docset ? `/docsets/${(await resolveDocset(c, p.values.docset)).id}/documents/${id}/dgml` : `/documents/${id}/dgml`;
  if (p.values.out) {
    const size = await c.download(route, p.values.out);
    emit(p.json, { document: p.positionals[0], file: path.resolve(p.values.out), size }, () => `wrote ${p.values.out} (${humanBytes(size)})`);
  } else {
    if (p.json) throw new CliUsageError('dgml writes XML: --json needs --out FILE');
    const res = await c.raw('GET', route);
    process.stdout.write(Buffer.from(await res.arrayBuffer()));
  }
  return 0;
}

/** `quire pages ID --out DIR [--dpi N]`: one PNG per page, `page-001.png`… */
export async function pages(args: string[]): Promise<number> {
  const p = parse(args, { out: { type: 'string', short: 'o' }, dpi: { type: 'string' } }, 'pages ID --out DIR [--dpi 36..300] [--json]', 1);
  if (!p.values.out) throw new CliUsageError('pages needs --out DIR');
  const dpi = intFlag('dpi', p.values.dpi, 36, 300);
  const c = p.client();
  const id = encodeURIComponent(p.positionals[0]!);
  const list = await c.get(`/documents/${id}/pages`);
  const dir = p.values.out as string;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new CliFailure(`cannot create ${dir}: ${(err as Error).message}`);
  }
  const width = Math.max(3, String(list.pages.length).length);
  const written: { page: number; file: string; size: number }[] = [];
  for (const page of list.pages as { number: number }[]) {
    const file = path.join(dir, `page-${String(page.number).padStart(width, '0')}.png`);
    const size = await c.download(`/documents/${id}/pages/${page.number}/content`, file, { dpi });
    written.push({ page: page.number, file, size });
    if (!p.json) note(`page ${page.number}/${list.pages.length} -> ${file}`);
  }
  emit(p.json, written, () => `wrote ${written.length} page image(s) to ${dir}`);
  return 0;
}
