import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { PointQuery } from './point-reads.js';

/**
 * A query built and compiled once per database handle, then run with new parameter values: for the
 * per-request lookups (API key, document by id), where building and compiling with Kysely costs more
 * than running the query. `build` receives placeholders and must use each exactly as a value.
 * `compiledFor(db)` gives the SQL and parameter order, for running it outside Kysely (PointReads).
 */
let tags = 0;

export function precompiled<DB, Args extends readonly string[], Row>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...args: { [K in keyof Args]: string }) => Compilable<Row>,
) {
  const tag = ++tags;
  const compiled = new WeakMap<Kysely<DB>, PointQuery>();
  const compiledFor = (db: Kysely<DB>): PointQuery => {
    let c = compiled.get(db);
    if (!c) {
      const sentinels = Array.from({ length: arity }, (_, i) => `\u0000quire-parameter-${i}\u0000`);
      const query = build(db, ...(sentinels as unknown as { [K in keyof Args]: string })).compile();
      const slots = query.parameters.map((p) => sentinels.indexOf(p as string));
      if (slots.some((s) => s < 0)) throw new Error('precompiled query with a constant parameter');
      c = { tag, sql: query.sql, slots };
      compiled.set(db, c);
    }
    return c;
  };
  const run = async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    const c = compiledFor(db);
    const result = await db.executeQuery(CompiledQuery.raw(c.sql, c.slots.map((s) => args[s])) as CompiledQuery<Row>);
    return result.rows;
  };
  return Object.assign(run, { compiledFor });
}
