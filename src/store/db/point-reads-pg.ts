import pg from 'pg';
import { KeptRows, deepFreeze } from './kept-rows.js';
import { pointKey, type PointQuery, type PointReads } from './point-reads.js';

/** The channel the `point_reads_changed` triggers (migration 0011) notify on. */
export const POINT_READS_CHANNEL = 'quire_point_reads';
/** The tables whose rows the point lookups read; a write to any of them drops every kept value. */
const WATCHED = /\b(documents|api_keys|workspaces)\b/;
const RELISTEN_MS = 1000;

/**
 * PostgreSQL: the lookups run on the pool; the values they read are kept while this process listens
 * on POINT_READS_CHANNEL, which a statement trigger on every watched table notifies when a
 * transaction that changed it commits (any process). Kept values are dropped:
 * - on every notification: another process (or this one) committed a change;
 * - at once when this process writes a watched table or ends a transaction that did
 *   (`watchWrites`), so its own writes are never answered from older values;
 * - and nothing is kept while the listening connection is down (it is re-established every second);
 * - and in any case once `maxAgeMs` old: a listener can stop hearing without noticing (a half-open
 *   connection, a pooler in transaction mode, a failover), and then this bounds how long another
 *   process's change (a revoked key) goes unseen.
 * A read that began before a drop is not kept (`generation`). What another process commits is seen
 * as soon as its notification is read, a fraction of a millisecond on one host.
 */
export class PgPointReads implements PointReads {
  private readonly kept: KeptRows;
  private listener: pg.Client | null = null;
  private closed = false;
  private generation = 0;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    maxBytes: number,
    maxAgeMs: number,
  ) {
    this.kept = new KeptRows(maxBytes, maxAgeMs);
    if (maxBytes > 0) void this.listen();
  }

  /**
   * Called by openDb for every client of the pool Kysely runs on: `onWrite` before and after every
   * statement that writes a watched table, and before and after the end of a transaction that did
   * (a read between the write and the commit may have kept the old row).
   */
  static watchWrites(client: pg.PoolClient, onWrite: () => void): void {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let dirty = false;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      const ends = /^\s*(commit|rollback|end)\b/i.test(text);
      const writes = !ends && !/^\s*(select|begin|start)\b/i.test(text) && WATCHED.test(text);
      if (/^\s*(begin|start)\b/i.test(text)) dirty = false;
      const drop = writes || (ends && dirty);
      if (writes) dirty = true;
      if (ends) dirty = false;
      if (!drop) return query(...args);
      onWrite();
      const result = query(...args);
      return result instanceof Promise ? result.finally(onWrite) : result;
    }) as typeof client.query;
  }

  invalidate(): void {
    this.generation++;
    this.kept.clear();
  }

  first<Row, T extends object>(query: PointQuery, args: readonly string[], convert: (row: Row) => T): Readonly<T> | undefined | Promise<Readonly<T> | undefined> {
    const key = pointKey(query, args);
    if (this.listener) {
      const hit = this.kept.get(key);
      if (hit) return hit as T;
    }
    return this.read(key, query, args, convert);
  }

  private async read<Row, T extends object>(key: string, query: PointQuery, args: readonly string[], convert: (row: Row) => T): Promise<Readonly<T> | undefined> {
    const generation = this.generation;
    const { rows } = await this.pool.query(query.sql, query.slots.map((s) => args[s]));
    const row = rows[0] as Row | undefined;
    if (row === undefined) return undefined;
    const value = deepFreeze(convert(row));
    if (this.listener && generation === this.generation) this.kept.set(key, row as object, value);
    return value;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.invalidate();
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    client.on('notification', () => this.invalidate());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${POINT_READS_CHANNEL}`);
    } catch {
      await client.end().catch(() => undefined);
      this.scheduleListen();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    // Whatever changed while nobody listened is unknown: start empty.
    this.invalidate();
    this.listener = client;
  }

  private lost(client: pg.Client) {
    if (this.listener !== client) return;
    this.listener = null;
    this.invalidate();
    client.end().catch(() => undefined);
    this.scheduleListen();
  }

  private scheduleListen() {
    if (this.closed) return;
    this.retry = setTimeout(() => void this.listen(), RELISTEN_MS);
    this.retry.unref();
  }
}
