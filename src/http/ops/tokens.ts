import type { Cursors } from '../pagination.js';
import { invalid } from '../../domain/errors.js';
import type { Continuation } from '../../domain/listings.js';
import { PARTITION_KEYS, partitionHex, type KeyRange } from '../../model/partition.js';

/** What a continuation token carries besides the workspace and operation the cursor signs. */
interface TokenFilter<F> {
  /** The filters the listing reads with (pinned: see listOperation's `pin`). */
  f: F;
  /** The filters the body stated, when pinning changed them. */
  b?: F;
  /** The key range, bounds inclusive. */
  g: [number, number];
}

export interface TokenState<F> {
  /** What to read with. */
  filter: F;
  /** What the body must state to continue. */
  bound: F;
  range: KeyRange;
  after?: { pkey: number; id: string };
  limit: number;
}

/**
 * Continuation tokens of partitioned listings: REST cursors (HMAC-signed, bound to a workspace and a
 * list), here bound to the operation, with the filters, the key range and the resume point inside.
 */
export class PartitionTokens {
  constructor(private readonly cursors: Cursors) {}

  encode<F>(operationId: string, workspaceId: string, filters: { bound: F; read: F }, c: Continuation, limit: number): string {
    const f: TokenFilter<F> = { f: filters.read, g: [c.range.min, c.range.max] };
    if (JSON.stringify(filters.read) !== JSON.stringify(filters.bound)) f.b = filters.bound;
    const a = c.after ? `${c.after.pkey}:${c.after.id}` : '';
    return this.cursors.encode({ r: `ops:${operationId}`, w: workspaceId, f, a, l: limit });
  }

  /** 400 for a changed, malformed or foreign-operation token; 404 for another workspace's (as REST). */
  decode<F>(token: string, operationId: string, workspaceId: string): TokenState<F> {
    let state: ReturnType<Cursors['decode']>;
    try {
      state = this.cursors.decode<TokenFilter<F>>(token, `ops:${operationId}`, workspaceId);
    } catch (err) {
      if (err instanceof SyntaxError) throw invalid('body field "cursor": the token is malformed.');
      throw err;
    }
    const { f, b, g } = state.f as TokenFilter<F>;
    const [min, max] = Array.isArray(g) ? g : [];
    if (!isKey(min) || !isKey(max) || min > max) throw invalid('body field "cursor": the token is malformed.');
    let after: TokenState<F>['after'];
    if (state.a) {
      const colon = state.a.indexOf(':');
      const pkey = Number(state.a.slice(0, colon));
      if (colon < 1 || !isKey(pkey)) throw invalid('body field "cursor": the token is malformed.');
      after = { pkey, id: state.a.slice(colon + 1) };
    }
    return { filter: f, bound: b ?? f, range: { min, max }, after, limit: state.l };
  }
}

const isKey = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) < PARTITION_KEYS;

export const rangeJson = (r: KeyRange) => ({ min: partitionHex(r.min), max: partitionHex(r.max) });
