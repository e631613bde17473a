import { sql, type Kysely } from 'kysely';
import { partitionKeyOf } from '../../../model/partition.js';

const TABLES = ['documents', 'docsets'] as const;
/** Rows backfilled per statement: one UPDATE … CASE per batch instead of one per row. */
const BATCH = 500;

// The partition key of every document and docset (src/model/partition.ts), beside the id, so a key
// range of a partitioned listing is an index scan. The key is a hash of the id that SQL cannot compute
// portably, so existing rows are backfilled from here. Nullable only because SQLite cannot add a NOT
// NULL column without a default; every insert sets it.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('pkey', 'integer').execute();
    for (;;) {
      const rows: { id: string }[] = await db.selectFrom(table).select('id').where('pkey', 'is', null).orderBy('id').limit(BATCH).execute();
      if (rows.length === 0) break;
      await db
        .updateTable(table)
        // The cast keeps PostgreSQL from typing the parameters as text.
        .set({ pkey: sql`case ${sql.join(rows.map((r) => sql`when id = ${r.id} then cast(${partitionKeyOf(r.id)} as integer)`), sql` `)} end` })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    await db.schema.createIndex(`${table}_ws_pkey`).on(table).columns(['workspace_id', 'pkey', 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_ws_pkey`).ifExists().execute();
    await db.schema.alterTable(table).dropColumn('pkey').execute();
  }
}
