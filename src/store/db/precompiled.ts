import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/**
 * A query built and compiled once per database handle, then run with new parameter values: for the
 * per-request lookups (API key, document by id), where building and compiling with Kysely costs more
 * than running the query. `build` receives placeholders and must use each exactly as a value.
 */
export function precompiled<DB, Args extends readonly string[], Row>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...args: { [K in keyof Args]: string }) => Compilable<Row>,
) {
  const compiledFor = new WeakMap<Kysely<DB>, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    let c = compiledFor.get(db);
    if (!c) {
      const sentinels = Array.from({ length: arity }, (_, i) => `\u0000quire-parameter-${i}\u0000`);
      const query = build(db, ...(sentinels as unknown as { [K in keyof Args]: string })).compile();
      const slots = query.parameters.map((p) => sentinels.indexOf(p as string));
      if (slots.some((s) => s < 0)) throw new Error('precompiled query with a constant parameter');
      c = { query, slots };
      compiledFor.set(db, c);
    }
    const parameters = c.slots.map((s) => args[s]);
    const result = await db.executeQuery(CompiledQuery.raw(c.query.sql, parameters) as CompiledQuery<Row>);
    return result.rows;
  };
}
