import type { Repos, Store } from '../store/db/index.js';
import type { Queue } from '../store/queue/queue.js';
import type { DocumentRecord, Extraction, PropertyRecord, PropertyValueRecord } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { newId } from '../model/ids.js';
import { labelIdOf, validateLabel } from './labels.js';
import type { MembershipListener } from './membership.js';
import { DGML_EVENT } from '../model/events.js';
import { EXTRACT_JOB } from '../model/jobs.js';

export interface ExtractPayload {
  docsetId: string;
  documentId?: string;
}

/** A document's value for one property, as the API shows it. */
export interface PropertyValue {
  value: string | null;
  /** `manual` (set by a person; wins), `extracted`, or null when there is no value. */
  source: 'manual' | 'extracted' | null;
  confidence: number | null;
  location: Extraction['location'];
  candidates: Extraction['candidates'];
  /** How an extracted value was found, for a person to check it; null for manual values and none. */
  evidence: ValueEvidence | null;
}

/** What the API tells of an extracted value's evidence. */
export interface ValueEvidence {
  /** The finder: `form-cell`, `label-line`, `section`, `defined-term`, `prose` (its role or the words around it), `learned`, `typed`. */
  method: string;
  /** The words that named the value: the label beside it, its defined term or role ("tenant"), the label's words around it. */
  cue: string | null;
  /** The sentence or line the value stands in. */
  text: string | null;
}

function evidenceOf(extraction: Extraction | null | undefined): ValueEvidence | null {
  const e = extraction?.evidence as { kind?: unknown; labelText?: unknown; context?: unknown } | null | undefined;
  if (!e || typeof e.kind !== 'string') return null;
  return { method: e.kind, cue: typeof e.labelText === 'string' ? e.labelText : null, text: typeof e.context === 'string' ? e.context : null };
}

/** Told, inside the transaction of the change, that values of a docset changed (documentId null: a property itself). */
export interface ValueListener {
  valuesChanged(s: Repos, workspaceId: string, docsetId: string, documentId: string | null): Promise<void>;
}

/** The longest value a person may set. */
export const MAX_VALUE_LENGTH = 10_000;

export function effectiveValue(v: PropertyValueRecord | undefined): PropertyValue {
  if (v?.manualValue !== null && v?.manualValue !== undefined) {
    return { value: v.manualValue, source: 'manual', confidence: 1, location: null, candidates: v.extraction?.candidates ?? [], evidence: null };
  }
  if (v?.extractedValue !== null && v?.extractedValue !== undefined) {
    return {
      value: v.extractedValue,
      source: 'extracted',
      confidence: v.extraction?.confidence ?? null,
      location: v.extraction?.location ?? null,
      candidates: v.extraction?.candidates ?? [],
      evidence: evidenceOf(v.extraction),
    };
  }
  return { value: null, source: null, confidence: null, location: null, candidates: v?.extraction?.candidates ?? [], evidence: null };
}

/**
 * Docset properties ("Effective Date") and each document's value: extracted by the `extract` job,
 * or set by hand (a manual value wins and survives re-extraction; setting null hands it back).
 */
export class PropertyService implements MembershipListener {
  private readonly valueListeners: ValueListener[] = [];

  constructor(
    private readonly store: Store,
    /** Where extraction jobs go; without one (CLI tools) nothing is extracted. */
    private readonly queue?: Queue,
    /** Where a manual value sits in its document (for learning); null when unknown. */
    private readonly locate: (doc: DocumentRecord, value: string) => Promise<unknown> = async () => null,
  ) {}

  /** Registers who else reacts to value changes (projects publish new versions). */
  onValuesChanged(listener: ValueListener): void {
    this.valueListeners.push(listener);
  }

  private async changed(s: Repos, workspaceId: string, docsetId: string, documentId: string | null): Promise<void> {
    if (documentId !== null) {
      await s.events.insert({ id: newId(), workspaceId, type: DGML_EVENT, payload: { documentId, docsetId }, createdAt: Date.now() });
    }
    for (const l of this.valueListeners) await l.valuesChanged(s, workspaceId, docsetId, documentId);
  }

  /** The evidence of a manual value, read before the transaction that records it. */
  private async evidenceOf(workspaceId: string, documentId: string, value: string | null): Promise<unknown> {
    if (value === null) return null;
    const doc = await this.store.documents.get(workspaceId, documentId);
    if (!doc?.structureBlobKey) return null;
    return this.locate(doc, value).catch(() => null);
  }

  private async docset(s: Repos, workspaceId: string, docsetId: string) {
    const d = await s.docsets.get(workspaceId, docsetId);
    if (!d) throw notFound('Docset', docsetId);
    return d;
  }

  private async property(s: Repos, workspaceId: string, docsetId: string, id: string): Promise<PropertyRecord> {
    await this.docset(s, workspaceId, docsetId);
    const p = await s.properties.get(workspaceId, docsetId, id);
    if (!p) throw notFound('Property', id);
    return p;
  }

  private async member(s: Repos, workspaceId: string, docsetId: string, documentId: string): Promise<DocumentRecord> {
    const doc = await s.documents.get(workspaceId, documentId);
    if (!doc || doc.docsetId !== docsetId) throw new DomainError('not-found', `Document ${JSON.stringify(documentId)} is not in docset ${JSON.stringify(docsetId)}.`);
    return doc;
  }

  /** Extraction jobs queued per open transaction: one transaction creating several properties needs one job. */
  private readonly queuedIn = new WeakMap<Repos, Set<string>>();

  /** Queues extraction (in the caller's transaction, so the job exists iff the change committed). */
  private async queueExtraction(s: Repos, workspaceId: string, payload: ExtractPayload) {
    if (!this.queue) return;
    const key = `${payload.docsetId}/${payload.documentId ?? '*'}`;
    const queued = this.queuedIn.get(s) ?? new Set<string>();
    if (queued.has(key) || queued.has(`${payload.docsetId}/*`)) return;
    queued.add(key);
    this.queuedIn.set(s, queued);
    await this.queue.enqueue(EXTRACT_JOB, payload, { workspaceId }, s);
  }

  async list(workspaceId: string, docsetId: string): Promise<PropertyRecord[]> {
    await this.docset(this.store, workspaceId, docsetId);
    return this.store.properties.list(workspaceId, docsetId);
  }

  async get(workspaceId: string, docsetId: string, id: string): Promise<PropertyRecord> {
    return this.property(this.store, workspaceId, docsetId, id);
  }

  /** A new property in the caller's transaction; a conflict when the docset has its label id already. */
  async insert(s: Repos, workspaceId: string, docsetId: string, label: string): Promise<PropertyRecord> {
    const labelId = labelIdOf(label);
    const clash = await s.properties.byLabelId(docsetId, labelId);
    if (clash) throw new DomainError('conflict', `The docset already has the property "${clash.label}", whose label id is also "${labelId}".`);
    const now = Date.now();
    const p: PropertyRecord = { id: newId(), workspaceId, docsetId, label, labelId, createdAt: now, updatedAt: now };
    await s.properties.insert(p);
    await this.queueExtraction(s, workspaceId, { docsetId });
    await this.changed(s, workspaceId, docsetId, null);
    return p;
  }

  /** The docset's property with this label's id, created when missing (in the caller's transaction). */
  async ensure(s: Repos, workspaceId: string, docsetId: string, label: string): Promise<PropertyRecord> {
    return (await s.properties.byLabelId(docsetId, labelIdOf(label))) ?? this.insert(s, workspaceId, docsetId, label);
  }

  async create(workspaceId: string, docsetId: string, input: { label?: unknown }): Promise<PropertyRecord> {
    const label = validateLabel(input.label);
    return this.store.tx(async (s) => {
      await this.docset(s, workspaceId, docsetId);
      return this.insert(s, workspaceId, docsetId, label);
    });
  }

  /** A new label (the id and the values stay); the values are extracted again for it. */
  async relabel(workspaceId: string, docsetId: string, id: string, input: { label?: unknown }): Promise<PropertyRecord> {
    const label = validateLabel(input.label);
    return this.store.tx(async (s) => {
      const p = await this.property(s, workspaceId, docsetId, id);
      const labelId = labelIdOf(label);
      const clash = await s.properties.byLabelId(docsetId, labelId);
      if (clash && clash.id !== id) throw new DomainError('conflict', `The docset already has the property "${clash.label}", whose label id is also "${labelId}".`);
      if (p.label === label) return p;
      const now = Date.now();
      await s.properties.relabel(id, label, labelId, now);
      await this.queueExtraction(s, workspaceId, { docsetId });
      await this.changed(s, workspaceId, docsetId, null);
      return { ...p, label, labelId, updatedAt: now };
    });
  }

  async delete(workspaceId: string, docsetId: string, id: string): Promise<void> {
    await this.store.tx(async (s) => {
      await this.property(s, workspaceId, docsetId, id);
      await s.properties.delete(id);
      await this.changed(s, workspaceId, docsetId, null);
    });
  }

  /** Every property of the docset with this document's value. */
  async documentProperties(workspaceId: string, docsetId: string, documentId: string): Promise<{ property: PropertyRecord; value: PropertyValue }[]> {
    await this.docset(this.store, workspaceId, docsetId);
    await this.member(this.store, workspaceId, docsetId, documentId);
    const [props, values] = await Promise.all([this.store.properties.list(workspaceId, docsetId), this.store.properties.valuesOf(docsetId, documentId)]);
    const byProperty = new Map(values.map((v) => [v.propertyId, v]));
    return props.map((property) => ({ property, value: effectiveValue(byProperty.get(property.id)) }));
  }

  async documentValue(workspaceId: string, docsetId: string, propertyId: string, documentId: string): Promise<{ property: PropertyRecord; value: PropertyValue }> {
    const property = await this.property(this.store, workspaceId, docsetId, propertyId);
    await this.member(this.store, workspaceId, docsetId, documentId);
    return { property, value: effectiveValue(await this.store.properties.value(propertyId, documentId)) };
  }

  /** Sets (or with null, clears) this document's manual value. */
  async setDocumentValue(workspaceId: string, docsetId: string, propertyId: string, documentId: string, input: { value?: unknown }): Promise<{ property: PropertyRecord; value: PropertyValue }> {
    const value = parseValue(input.value);
    const evidence = await this.evidenceOf(workspaceId, documentId, value);
    return this.store.tx(async (s) => {
      const property = await this.property(s, workspaceId, docsetId, propertyId);
      await this.member(s, workspaceId, docsetId, documentId);
      const before = effectiveValue(await s.properties.value(propertyId, documentId)).value;
      await s.properties.setManual({ workspaceId, docsetId, propertyId, documentId }, value, evidence, Date.now());
      const after = effectiveValue(await s.properties.value(propertyId, documentId));
      if (after.value !== before) await this.corrected(s, workspaceId, docsetId, documentId);
      return { property, value: effectiveValue(await s.properties.value(propertyId, documentId)) };
    });
  }

  /** `POST document-properties`: the property by label (created when the docset lacks it), and this document's manual value. */
  async setByLabel(workspaceId: string, docsetId: string, documentId: string, input: { label?: unknown; value?: unknown }): Promise<{ property: PropertyRecord; value: PropertyValue }> {
    const label = validateLabel(input.label);
    const value = parseValue(input.value);
    const evidence = await this.evidenceOf(workspaceId, documentId, value);
    return this.store.tx(async (s) => {
      await this.docset(s, workspaceId, docsetId);
      await this.member(s, workspaceId, docsetId, documentId);
      const property = (await s.properties.byLabelId(docsetId, labelIdOf(label))) ?? (await this.insert(s, workspaceId, docsetId, label));
      const before = effectiveValue(await s.properties.value(property.id, documentId)).value;
      await s.properties.setManual({ workspaceId, docsetId, propertyId: property.id, documentId }, value, evidence, Date.now());
      const after = effectiveValue(await s.properties.value(property.id, documentId));
      if (after.value !== before) await this.corrected(s, workspaceId, docsetId, documentId);
      return { property, value: effectiveValue(await s.properties.value(property.id, documentId)) };
    });
  }

  /** A value set by hand changed: the document's DGML, and the docset's other documents learn from it (extraction runs again). */
  private async corrected(s: Repos, workspaceId: string, docsetId: string, documentId: string): Promise<void> {
    await this.changed(s, workspaceId, docsetId, documentId);
    await this.queueExtraction(s, workspaceId, { docsetId });
  }

  // ---- driven by the document lifecycle (inside the caller's transaction): a MembershipListener ----

  /** A Ready document joined a docset, or a document of a docset became Ready: extract its values if the docset has properties. */
  async joined(s: Repos, doc: { workspaceId: string; id: string; status: string }, docsetId: string): Promise<void> {
    if (doc.status !== 'Ready') return;
    if ((await s.properties.list(doc.workspaceId, docsetId)).length === 0) return;
    await this.queueExtraction(s, doc.workspaceId, { docsetId, documentId: doc.id });
  }

  /** A document left a docset (moved or removed): its values there go. */
  async left(s: Repos, doc: { id: string }, docsetId: string): Promise<void> {
    await s.properties.deleteValuesOf(doc.id, docsetId);
  }

  async docsetDeleted(s: Repos, _workspaceId: string, docsetId: string): Promise<void> {
    await s.properties.deleteForDocset(docsetId);
  }

  // ---- for the extraction job ----

  /** The docset's properties and every value known in it. */
  async docsetState(workspaceId: string, docsetId: string): Promise<{ properties: PropertyRecord[]; values: PropertyValueRecord[] } | null> {
    if (!(await this.store.docsets.get(workspaceId, docsetId))) return null;
    const [properties, values] = await Promise.all([this.store.properties.list(workspaceId, docsetId), this.store.properties.valuesOfDocset(docsetId)]);
    return { properties, values };
  }

  /** Records extraction results for one document, if it is still in the docset and the properties still exist. */
  async recordExtraction(workspaceId: string, docsetId: string, documentId: string, results: { propertyId: string; value: string | null; extraction: Extraction | null }[]): Promise<boolean> {
    return this.store.tx(async (s) => {
      const doc = await s.documents.get(workspaceId, documentId);
      if (!doc || doc.docsetId !== docsetId) return false;
      const live = new Set((await s.properties.list(workspaceId, docsetId)).map((p) => p.id));
      const now = Date.now();
      const before = new Map((await s.properties.valuesOf(docsetId, documentId)).map((v) => [v.propertyId, v]));
      let differs = false;
      for (const r of results) {
        if (!live.has(r.propertyId)) continue;
        const old = before.get(r.propertyId);
        if ((old?.extractedValue ?? null) !== r.value || (old?.extraction?.confidence ?? null) !== (r.extraction?.confidence ?? null)) differs = true;
        await s.properties.setExtracted({ workspaceId, docsetId, propertyId: r.propertyId, documentId }, r.value, r.extraction, now);
      }
      // Projects wait for extraction to settle, so they hear of every run; DGML changes only with the values.
      if (differs) await this.changed(s, workspaceId, docsetId, documentId);
      else for (const l of this.valueListeners) await l.valuesChanged(s, workspaceId, docsetId, documentId);
      return true;
    });
  }
}

function parseValue(raw: unknown): string | null {
  if (raw === null) return null;
  if (typeof raw !== 'string') throw invalid('"value" must be a string, or null to hand the value back to extraction.');
  if (raw.length > MAX_VALUE_LENGTH) throw invalid(`Values are limited to ${MAX_VALUE_LENGTH} characters.`);
  return raw;
}
