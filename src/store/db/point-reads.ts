import Database from 'libsql';
import { KeptRows, deepFreeze } from './kept-rows.js';

/** One row of a point lookup: a statement and how its parameters fill its placeholders. */
export interface PointQuery {
  /** Distinguishes the queries' kept rows (their SQL would make every key long). */
  tag: number;
  sql: string;
  /** For each placeholder of `sql`, which argument fills it. */
  slots: number[];
}

/**
 * Point lookups answered from committed data, the values they read kept in memory until anything
 * they depend on changes: the API key behind every request and a document by id. Used only outside
 * transactions (a transaction must see its own uncommitted writes). Two implementations: SQLite
 * (below) and PostgreSQL (point-reads-pg.ts).
 */
export interface PointReads {
  /**
   * The first row of `query` with `args` as committed now, made into a `T` by `convert`; undefined
   * when there is none. What `convert` returns may be kept and shared by later calls: it is frozen, deeply.
   * A kept value is answered synchronously.
   */
  first<Row, T extends object>(query: PointQuery, args: readonly string[], convert: (row: Row) => T): Readonly<T> | undefined | Promise<Readonly<T> | undefined>;
  /** Drops every kept value: this process wrote (or ended a transaction). */
  invalidate(): void;
  close(): Promise<void>;
}

export const pointKey = (query: PointQuery, args: readonly string[]) =>
  args.length === 1 ? `${query.tag}\u0000${args[0]}` : `${query.tag}\u0000${args.join('\u0000')}`;

/**
 * SQLite: the lookups run on a connection of their own, so they neither wait for the connection that
 * writes (a long ingestion transaction holds it) nor pay for Kysely's per-query machinery, and they
 * see only committed rows.
 *
 * Kept values are dropped when this process writes or commits (`invalidate`, called by the writing
 * connection before every statement that is not a SELECT) and when another connection or process
 * commits (SQLite's `PRAGMA data_version` on this connection changes; asked at most once per
 * millisecond, see `checkVersion`). A kept value is therefore what the database holds now, or held
 * less than a millisecond ago when another process wrote it.
 */
export class SqlitePointReads implements PointReads {
  /** How long a commit by another connection may go unseen (ms). */
  static readonly STALE_MS = 1;
  private readonly conn: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly dataVersion: Database.Statement;
  private readonly kept: KeptRows;
  private seenVersion: unknown = undefined;
  private versionChecked = false;
  private checkedAt = -Infinity;

  constructor(file: string, maxBytes: number) {
    this.kept = new KeptRows(maxBytes);
    this.conn = new Database(file);
    this.conn.exec('PRAGMA busy_timeout = 10000');
    // Only SELECTs run here; make any other statement an error rather than a second writer.
    this.conn.exec('PRAGMA query_only = ON');
    this.dataVersion = this.conn.prepare('PRAGMA data_version').raw(true);
  }

  invalidate(): void {
    this.kept.clear();
  }

  first<Row, T extends object>(query: PointQuery, args: readonly string[], convert: (row: Row) => T): Readonly<T> | undefined {
    this.checkVersion();
    const key = pointKey(query, args);
    const hit = this.kept.get(key);
    if (hit) return hit as T;
    let stmt = this.statements.get(query.sql);
    if (!stmt) {
      stmt = this.conn.prepare(query.sql);
      this.statements.set(query.sql, stmt);
    }
    const row = stmt.get(query.slots.map((s) => args[s])) as Row | undefined;
    if (row === undefined) return undefined;
    const value = deepFreeze(convert(row));
    this.kept.set(key, row as object, value);
    return value;
  }

  async close(): Promise<void> {
    this.kept.clear();
    this.statements.clear();
    this.conn.close();
  }

  /**
   * `PRAGMA data_version` through libsql costs ~5 µs, more than a kept read: it is asked at most once
   * per turn of the event loop and per STALE_MS.
   */
  private checkVersion() {
    if (this.versionChecked) return;
    const now = performance.now();
    if (now - this.checkedAt < SqlitePointReads.STALE_MS) return;
    this.versionChecked = true;
    this.checkedAt = now;
    setImmediate(() => (this.versionChecked = false));
    const version = (this.dataVersion.get() as unknown[])[0];
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.invalidate();
    }
  }
}
