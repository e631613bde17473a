import type { Store } from '../store/db/index.js';
import type { MetadataEntry } from '../model/records.js';
import { invalid, notFound } from './errors.js';

/** A document holds at most this many entries in all (the API's limit); a write cannot name more either. */
export const MAX_ENTRIES_PER_DOCUMENT = 10;
export const MAX_ENTRIES_PER_WRITE = MAX_ENTRIES_PER_DOCUMENT;
export const MAX_VALUE_LENGTH = 4096;
export const METADATA_KEY = /^\w{1,100}$/;
/**
 * A document list or search matches at most this many metadata filters (`metadata.{key}=value`, or
 * `/ops`' `metadata` pairs), as many as a document can hold entries: more could match no document.
 * Each is a condition of its own; 1,000 made SQLite refuse the query (its expression depth) and kept
 * PostgreSQL planning for minutes, 100 for seconds.
 */
export const MAX_METADATA_FILTERS = MAX_ENTRIES_PER_DOCUMENT;

/** 400 for a list asking for more metadata filters than MAX_METADATA_FILTERS. */
export function checkMetadataFilterCount(count: number): void {
  if (count > MAX_METADATA_FILTERS) throw invalid(`A list may filter by at most ${MAX_METADATA_FILTERS} metadata keys, as many as a document holds (got ${count}).`);
}

/**
 * Checks a metadata request body: `{metadata: [{key, value}]}` (a bare array is accepted too).
 * At most 10 entries (a document's whole allowance), keys of 1 to 100 word characters, string values.
 */
export function parseMetadataRequest(body: unknown): MetadataEntry[] {
  const list = Array.isArray(body) ? body : (body as { metadata?: unknown } | null)?.metadata;
  if (!Array.isArray(list)) throw invalid('Metadata must be an object {"metadata": [{"key": ..., "value": ...}]}.');
  if (list.length > MAX_ENTRIES_PER_WRITE) {
    throw invalid(`A document holds at most ${MAX_ENTRIES_PER_DOCUMENT} metadata entries (got ${list.length}).`);
  }
  const seen = new Set<string>();
  return list.map((item, i) => {
    const { key, value } = (item ?? {}) as { key?: unknown; value?: unknown };
    if (typeof key !== 'string' || !METADATA_KEY.test(key)) {
      throw invalid(`metadata[${i}].key must be 1 to 100 letters, digits or underscores.`);
    }
    if (typeof value !== 'string') throw invalid(`metadata[${i}].value must be a string.`);
    if (value.includes('\u0000')) throw invalid(`metadata[${i}].value contains a NUL character.`);
    if (value.length > MAX_VALUE_LENGTH) throw invalid(`metadata[${i}].value is longer than ${MAX_VALUE_LENGTH} characters.`);
    if (seen.has(key)) throw invalid(`metadata key "${key}" appears twice.`);
    seen.add(key);
    return { key, value };
  });
}

export class MetadataService {
  constructor(private readonly store: Store) {}

  private async requireDocument(workspaceId: string, documentId: string): Promise<void> {
    if (!(await this.store.documents.get(workspaceId, documentId))) throw notFound('Document', documentId);
  }

  async get(workspaceId: string, documentId: string): Promise<MetadataEntry[]> {
    await this.requireDocument(workspaceId, documentId);
    return this.store.metadata.get(documentId);
  }

  /** PUT: the document's metadata becomes exactly `entries`. */
  async replace(workspaceId: string, documentId: string, entries: MetadataEntry[]): Promise<MetadataEntry[]> {
    return this.store.tx(async (s) => {
      if (!(await s.documents.get(workspaceId, documentId))) throw notFound('Document', documentId);
      await s.metadata.replace(workspaceId, documentId, entries);
      return entries;
    });
  }

  /** POST: entries are added or overwrite the value of the same key; other keys stay. */
  async merge(workspaceId: string, documentId: string, entries: MetadataEntry[]): Promise<MetadataEntry[]> {
    return this.store.tx(async (s) => {
      if (!(await s.documents.get(workspaceId, documentId))) throw notFound('Document', documentId);
      const merged = await s.metadata.get(documentId);
      const before = new Set(merged.map((m) => m.key));
      for (const e of entries) {
        const at = merged.findIndex((m) => m.key === e.key);
        if (at >= 0) merged[at] = { key: e.key, value: e.value };
        else merged.push(e);
      }
      if (merged.length > MAX_ENTRIES_PER_DOCUMENT) {
        // Thrown before any write: the transaction changes nothing.
        const added = entries.filter((e) => !before.has(e.key)).length;
        throw invalid(
          `A document holds at most ${MAX_ENTRIES_PER_DOCUMENT} metadata entries: it has ${before.size} and this merge adds ${added} new key(s). Nothing was changed; remove entries first (PUT replaces them all).`,
        );
      }
      await s.metadata.replace(workspaceId, documentId, merged);
      return merged;
    });
  }
}
