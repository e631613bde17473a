import { PostgresAdapter, sql, type Kysely } from 'kysely';

// PostgreSQL only: a transaction that changes a table the point lookups read (documents, api_keys,
// workspaces) notifies `quire_point_reads` when it commits, so every process drops the values it kept
// (src/store/db/point-reads-pg.ts). Notifications of one transaction are merged into one. SQLite needs
// nothing: its readers see commits through `PRAGMA data_version`.
const TABLES = ['documents', 'api_keys', 'workspaces'] as const;

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create or replace function quire_point_reads_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('quire_point_reads', '');
      return null;
    end
    $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_point_reads`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function quire_point_reads_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_point_reads`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists quire_point_reads_changed()`.execute(db);
}
