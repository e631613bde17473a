import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection } from 'kysely';
// Kysely 0.29 moved the migrator to its own entry point.
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { DEFAULT_READ_CACHE_TTL_MS, type Config } from '../../runtime/config.js';
import type { Database as Schema } from './schema.js';
import { SqlitePointReads, type PointReads } from './point-reads.js';
import { PgPointReads } from './point-reads-pg.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_ingestion.js';
import * as m0003 from './migrations/0003_upload_sessions.js';
import * as m0004 from './migrations/0004_structure.js';
import * as m0005 from './migrations/0005_properties.js';
import * as m0006 from './migrations/0006_classification.js';
import * as m0007 from './migrations/0007_samples.js';
import * as m0009 from './migrations/0009_webhooks.js';
import * as m0008 from './migrations/0008_projects.js';
import * as m0010 from './migrations/0010_partition_keys.js';
import * as m0011 from './migrations/0011_point_reads.js';
import * as m0012 from './migrations/0012_document_metadata.js';
import * as m0013 from './migrations/0013_sample_versions.js';
import * as m0014 from './migrations/0014_artifact_versions.js';
import * as m0015 from './migrations/0015_semantic_labels.js';
import * as m0016 from './migrations/0016_label_kinds.js';
import * as m0017 from './migrations/0017_webhook_secret_keys.js';
import * as m0018 from './migrations/0018_workspace_usage.js';
import * as m0020 from './migrations/0020_page_images.js';
import * as m0021 from './migrations/0021_structure_files.js';

export type Db = Kysely<Schema>;
export type Dialect = 'sqlite' | 'postgres';

const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_ingestion': m0002,
  '0003_upload_sessions': m0003,
  '0004_structure': m0004,
  '0005_properties': m0005,
  '0006_classification': m0006,
  '0007_samples': m0007,
  '0009_webhooks': m0009,
  '0008_projects': m0008,
  '0010_partition_keys': m0010,
  '0011_point_reads': m0011,
  '0012_document_metadata': m0012,
  '0013_sample_versions': m0013,
  '0014_artifact_versions': m0014,
  '0015_semantic_labels': m0015,
  '0016_label_kinds': m0016,
  '0017_webhook_secret_keys': m0017,
  '0018_workspace_usage': m0018,
  '0020_page_images': m0020,
  '0021_structure_files': m0021,
};

// pg returns int8 and numeric as strings; every such value here is a count, a size or a timestamp in
// milliseconds, all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** The default bound of PointReads' kept rows when the configuration does not say. */
const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

export function openDb(database: Config['database']): { db: Db; dialect: Dialect; pointReads: PointReads } {
  const readCacheBytes = database.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES;
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: 10_000 });
    const pointReads = new PgPointReads(pool, database.url, readCacheBytes, database.readCacheTtlMs ?? DEFAULT_READ_CACHE_TTL_MS);
    pool.on('error', () => {
      // An idle client lost its connection (for example a database restart): the pool replaces it.
    });
    pool.on('connect', (client) => {
      // A client that loses its connection while checked out (a transaction between two statements,
      // as one holding a cluster lock for a sweep) emits 'error' on itself: unheard, that kills the
      // process. Heard, its next statement fails instead, and the pool discards it on release.
      client.on('error', () => undefined);
      PgPointReads.watchWrites(client, () => pointReads.invalidate());
    });
    return { db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', pointReads };
  }
  fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new Database(database.file);
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA busy_timeout = 10000');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  // LIKE is case-sensitive in PostgreSQL; make SQLite agree (this also lets prefix LIKE use an index).
  sqlite.exec('PRAGMA case_sensitive_like = ON');
  const pointReads = new SqlitePointReads(database.file, readCacheBytes);
  const statements = new StatementCache(sqlite, pointReads);
  return { db: new Kysely<Schema>({ dialect: new ImmediateSqliteDialect(statements) }), dialect: 'sqlite', pointReads };
}

/**
 * Kysely's SQLite dialect, except that a transaction begins IMMEDIATE (takes the write lock at once).
 * A deferred transaction reads from a snapshot and asks for the lock at its first write; if another
 * connection (a worker process, a CLI command, ANALYZE in another Store) committed in between, that
 * write fails at once with SQLITE_BUSY_SNAPSHOT, which busy_timeout does not retry. Begun IMMEDIATE,
 * a transaction waits its turn under busy_timeout instead. Connections of one process already take
 * turns (Kysely runs one query at a time on the single connection), so nothing is lost by it.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly statements: StatementCache) {
    super({ database: statements as never });
  }
  override createDriver() {
    return new ImmediateSqliteDriver({ database: this.statements as never });
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely prepares every query anew; preparing costs libsql more than running a small query does.
 * Queries of one shape compile to the same SQL text, so their prepared statements are kept (LRU).
 * Kysely runs one query at a time on this connection, so a statement is never used twice at once.
 *
 * SELECT results are also kept (ReadCache) until anything is written: by this connection (any
 * statement that is not a SELECT, transaction boundaries included) or by another connection or
 * process (SQLite's `PRAGMA data_version` changes when another connection commits). A cached read
 * is therefore exactly what the database would answer now.
 */
class StatementCache {
  private readonly statements = new Map<string, ReturnType<ReadCache['wrap']>>();
  private readonly reads: ReadCache;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly pointReads: PointReads,
    private readonly capacity = 500,
  ) {
    this.reads = new ReadCache(sqlite, () => pointReads.invalidate());
  }

  prepare(sql: string) {
    let stmt = this.statements.get(sql);
    if (stmt) {
      this.statements.delete(sql);
    } else {
      stmt = this.reads.wrap(sql, this.sqlite.prepare(sql));
      if (this.statements.size >= this.capacity) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  close() {
    this.statements.clear();
    this.sqlite.close();
  }
}

/** Results of SELECTs, valid while the database is unchanged; see StatementCache. */
class ReadCache {
  private static readonly MAX_ENTRIES = 4096;
  /** Larger results are not kept (lists are paged; their pages are cheap to read again). */
  private static readonly MAX_ROWS = 128;
  private readonly entries = new Map<string, unknown[]>();
  private readonly dataVersion: Database.Statement;
  private seenVersion: unknown = undefined;
  private versionChecked = false;

  constructor(
    sqlite: Database.Database,
    /** Told of every write of this connection (PointReads keep rows of their own). */
    private readonly onWrite: () => void,
  ) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').raw(true);
  }

  /** The statement as Kysely's driver uses it (`reader`, `all`, `run`, `iterate`), reads served from the cache. */
  wrap(sql: string, stmt: Database.Statement) {
    const cacheable = /^\s*select\b/i.test(sql);
    // `reader` is a call into libsql: asked once per statement, not per execution.
    return {
      reader: stmt.reader,
      // INSERT/UPDATE … RETURNING come through `all` too: they are writes.
      all: (params: unknown[]) => {
        if (cacheable) return this.all(sql, stmt, params);
        this.written();
        return stmt.all(params);
      },
      run: (params: unknown[]) => {
        this.written();
        return stmt.run(params);
      },
      iterate: (params: unknown[]) => stmt.iterate(params),
    };
  }

  private written() {
    this.entries.clear();
    this.onWrite();
  }

  /**
   * Asking SQLite for data_version costs about as much as a small query, so it is asked once per
   * turn of the event loop: reads within one turn are answered as of its start, which is what they
   * would be had they run a moment earlier.
   */
  private checkVersion() {
    if (this.versionChecked) return;
    this.versionChecked = true;
    setImmediate(() => (this.versionChecked = false));
    const version = (this.dataVersion.get() as unknown[])[0];
    if (version !== this.seenVersion) {
      this.entries.clear();
      this.seenVersion = version;
    }
  }

  private all(sql: string, stmt: Database.Statement, params: unknown[]): unknown[] {
    this.checkVersion();
    const key = `${sql}\u0000${JSON.stringify(params, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
    const hit = this.entries.get(key);
    // Callers may reorder the array they get (Kysely's migrator sorts in place); rows are shared.
    if (hit) return hit.slice();
    const rows = stmt.all(params) as unknown[];
    if (rows.length <= ReadCache.MAX_ROWS) {
      // Shared by every later hit: a caller that changed a row would change them all.
      for (const row of rows) Object.freeze(row);
      if (this.entries.size >= ReadCache.MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, rows.slice());
    }
    return rows;
  }
}

export async function migrateToLatest(db: Db): Promise<void> {
  await migrate(db, (m) => m.migrateToLatest());
}

/** Up (or down) to the named migration: the tests of a migration's backfill start before it. */
export async function migrateTo(db: Db, name: string): Promise<void> {
  await migrate(db, (m) => m.migrateTo(name));
}

async function migrate(db: Db, run: (m: Migrator) => ReturnType<Migrator['migrateToLatest']>): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await run(new Migrator({ db, provider }));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
