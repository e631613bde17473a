import { sql, type Kysely } from 'kysely';

/** Documents backfilled per statement: one UPDATE … CASE per batch instead of one per row. */
const BATCH = 500;

// Every Document response carries its metadata (`metadata: [{key, value}]`). The entries stay rows of
// `document_metadata` (what the `metadata.{key}` filters search), and the same list is kept on the
// document's row as JSON, written with them in one transaction: a document is still one row to read
// (and to keep in memory for point reads), never a second query. Null means no entries.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('metadata', 'text').execute();
  let after = '';
  for (;;) {
    const ids: { document_id: string }[] = await db
      .selectFrom('document_metadata')
      .select('document_id')
      .distinct()
      .where('document_id', '>', after)
      .orderBy('document_id')
      .limit(BATCH)
      .execute();
    if (ids.length === 0) break;
    const rows: { document_id: string; key: string; value: string }[] = await db
      .selectFrom('document_metadata')
      .select(['document_id', 'key', 'value'])
      .where(
        'document_id',
        'in',
        ids.map((r) => r.document_id),
      )
      .orderBy('document_id')
      .orderBy('position')
      .execute();
    const byDocument = new Map<string, { key: string; value: string }[]>();
    for (const r of rows) {
      let list = byDocument.get(r.document_id);
      if (!list) byDocument.set(r.document_id, (list = []));
      list.push({ key: r.key, value: r.value });
    }
    await db
      .updateTable('documents')
      .set({ metadata: sql`case ${sql.join([...byDocument].map(([id, list]) => sql`when id = ${id} then cast(${JSON.stringify(list)} as text)`), sql` `)} end` })
      .where('id', 'in', [...byDocument.keys()])
      .execute();
    after = ids[ids.length - 1]!.document_id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('metadata').execute();
}
