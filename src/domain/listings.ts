import type { Store } from '../store/db/index.js';
import type { DocsetFilter, DocsetRecord, DocumentFilter, DocumentRecord } from '../model/records.js';
import { PARTITION_KEYS, type KeyRange, type PartitionPage, type PartitionPageRequest } from '../model/partition.js';
import { notFound } from './errors.js';

/** Reads one page of one key range of a filtered listing (a repository's `listPartitioned`). */
export type PartitionFetch<T> = (req: PartitionPageRequest) => Promise<PartitionPage<T>>;

/** Where a listing goes on: a key range, and within its first key the id already passed. */
export interface Continuation {
  range: KeyRange;
  after?: { pkey: number; id: string };
}

export interface PartitionedPage<T> {
  items: T[];
  /** One entry per range still holding unreturned items; empty when the listing is done. */
  next: Continuation[];
}

export const WHOLE_KEY_SPACE: KeyRange = { min: 0, max: PARTITION_KEYS - 1 };
/** How many ranges a page hands on at most: enough to fan out, few enough to follow. */
const FAN_OUT = 4;

/**
 * One page of a partitioned listing: up to `limit` items of `range` in (pkey, id) order after
 * `after`, and what remains of the range split into at most FAN_OUT ranges, empty ones dropped.
 *
 * The first page (the whole key space, nothing passed yet) always splits what remains. A later page
 * splits when the keys it covered suggest that at least two more pages of items remain in its range:
 * keys are hashes, so items spread evenly and a page's density predicts the rest. Following every
 * continuation yields each item exactly once: the ranges partition the unread keys, and the first one
 * resumes after the last item returned.
 */
export async function partitionedPage<T>(
  fetch: PartitionFetch<T>,
  req: { range: KeyRange; after?: { pkey: number; id: string }; limit: number },
): Promise<PartitionedPage<T>> {
  const page = await fetch({ range: req.range, after: req.after, limit: req.limit });
  const from = page.nextAfter;
  if (!from) return { items: page.items, next: [] };

  const first = !req.after && req.range.min === WHOLE_KEY_SPACE.min && req.range.max === WHOLE_KEY_SPACE.max;
  const width = req.range.max - from.pkey + 1;
  const scanned = from.pkey - (req.after?.pkey ?? req.range.min) + 1;
  const expected = (page.items.length * width) / scanned;
  const pieces = Math.max(1, Math.min(FAN_OUT, width, first ? FAN_OUT : Math.floor(expected / req.limit)));

  const candidates: Continuation[] = [];
  for (let i = 0; i < pieces; i++) {
    const min = from.pkey + Math.floor((i * width) / pieces);
    const max = from.pkey + Math.floor(((i + 1) * width) / pieces) - 1;
    candidates.push(i === 0 ? { range: { min, max }, after: from } : { range: { min, max } });
  }
  if (candidates.length === 1) return { items: page.items, next: candidates };
  const probes = await Promise.all(candidates.map((c) => fetch({ range: c.range, after: c.after, limit: 1 })));
  return { items: page.items, next: candidates.filter((_, i) => probes[i]!.items.length > 0) };
}

/**
 * The partitioned listings of documents and docsets: the same filters, and the same rules, as the
 * REST lists (DocumentService.list, DocsetService.list and listDocuments), over key ranges.
 */
export class PartitionedListings {
  constructor(private readonly store: Store) {}

  documents(workspaceId: string, filter: DocumentFilter): PartitionFetch<DocumentRecord> {
    return (req) => this.store.documents.listPartitioned(workspaceId, filter, req);
  }

  docsets(workspaceId: string, filter: DocsetFilter): PartitionFetch<DocsetRecord> {
    return (req) => this.store.docsets.listPartitioned(workspaceId, filter, req);
  }

  /** 404 for an unknown docset; the documents of a sample docset are shown (they are samples). */
  async docsetDocuments(workspaceId: string, docsetId: string, filter: DocumentFilter): Promise<PartitionFetch<DocumentRecord>> {
    const docset = await this.store.docsets.get(workspaceId, docsetId);
    if (!docset) throw notFound('Docset', docsetId);
    return this.documents(workspaceId, { ...filter, docsetId, samples: filter.samples || docset.isSample });
  }
}
