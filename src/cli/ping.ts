import { parse } from './args.js';
import { details, emit } from './output.js';

/** `quire ping`: whether the URL answers and the key opens a workspace; prints the workspace. */
export async function ping(args: string[]): Promise<number> {
  const p = parse(args, {}, 'ping [--json]');
  const c = p.client();
  const started = performance.now();
  const w = await c.get('/workspace');
  const ms = Math.round(performance.now() - started);
  emit(p.json, { url: c.conn.url, workspace: w, milliseconds: ms }, () =>
    details({ url: c.conn.url, workspace: w.name, id: w.id, type: w.type, pages: `${w.quota.page.used} of ${w.quota.page.max}`, answered: `${ms} ms` }),
  );
  return 0;
}
