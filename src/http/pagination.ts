import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, invalid } from '../domain/errors.js';
import type { PageRequest } from '../model/records.js';

export const DEFAULT_LIMIT = 30;

/** Everything needed to continue a list: which list, whose, with which filters, after which item. */
interface CursorState<F> {
  /** The list route, so a cursor of one list is refused by another. */
  r: string;
  w: string;
  f: F;
  a: string;
  l: number;
}

/**
 * Opaque, tamper-evident continuation tokens: base64url(JSON) + "." + HMAC. They carry every
 * filter, so later pages keep them whatever else the client sends.
 */
export class Cursors {
  constructor(private readonly secret: Buffer) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 18).toString('base64url');
  }

  encode<F>(state: CursorState<F>): string {
    const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode<F>(token: string, route: string, workspaceId: string): CursorState<F> {
    const [payload, mac, rest] = token.split('.');
    if (!payload || !mac || rest !== undefined) throw invalid('The cursor is malformed.');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('The cursor is invalid: it was changed or belongs to another server.');
    }
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorState<F>;
    if (state.r !== route) throw invalid('The cursor belongs to a different list.');
    // A cursor of another workspace reveals nothing: it answers like an unknown id.
    if (state.w !== workspaceId) throw new DomainError('not-found', 'The cursor was not found in this workspace.');
    return state;
  }

  /**
   * The filter and page to read: from the cursor when there is one (its filters win over the query),
   * else from the query.
   */
  resolve<F>(
    query: { cursor?: string; limit?: number },
    route: string,
    workspaceId: string,
    filterFromQuery: () => F,
  ): { filter: F; page: PageRequest } {
    if (query.cursor) {
      const state = this.decode<F>(query.cursor, route, workspaceId);
      return { filter: state.f, page: { after: state.a, limit: query.limit ?? state.l } };
    }
    return { filter: filterFromQuery(), page: { limit: query.limit ?? DEFAULT_LIMIT } };
  }

  /** The absolute URL of the next page, carrying the cursor and, readably, every filter; or null. */
  nextUrl<F>(opts: {
    base: string;
    path: string;
    route: string;
    workspaceId: string;
    filter: F;
    filterQuery: Record<string, string>;
    limit: number;
    nextAfter: string | null;
  }): string | null {
    if (opts.nextAfter === null) return null;
    const cursor = this.encode({ r: opts.route, w: opts.workspaceId, f: opts.filter, a: opts.nextAfter, l: opts.limit });
    const params = new URLSearchParams({ ...opts.filterQuery, limit: String(opts.limit), cursor });
    return `${opts.base}${opts.path}?${params.toString()}`;
  }
}
