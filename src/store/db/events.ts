import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface EventRecord {
  id: string;
  workspaceId: string;
  type: string;
  payload: unknown;
  createdAt: number;
}

/** Domain events (`Documents.Create`, …), written in the transaction of the change they record. */
export class EventsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: EventRecord): Promise<void> {
    await this.db
      .insertInto('events')
      .values({ id: e.id, workspace_id: e.workspaceId, type: e.type, payload: JSON.stringify(e.payload), created_at: e.createdAt })
      .execute();
  }

  /**
   * Deletes up to `batch` events made before `beforeId` (an id floor) that the webhook fan-out has
   * taken; returns how many. One short statement: the oldest ids first, found by the primary key.
   */
  async purgeDispatched(beforeId: string, batch: number): Promise<number> {
    const r = await this.db
      .deleteFrom('events')
      .where('id', 'in', (eb) => eb.selectFrom('events').select('id').where('id', '<', beforeId).where('webhooks_done', '=', 1).orderBy('id').limit(batch))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Events of a workspace in id (creation) order, after `after`. */
  async list(workspaceId: string, after: string | undefined, limit: number): Promise<EventRecord[]> {
    let q = this.db.selectFrom('events').selectAll().where('workspace_id', '=', workspaceId);
    if (after !== undefined) q = q.where('id', '>', after);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, type: r.type, payload: JSON.parse(r.payload), createdAt: Number(r.created_at) }));
  }
}
