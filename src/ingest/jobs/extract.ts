import type { Logger } from 'pino';
import type { Store } from '../../store/db/index.js';
import type { Job, JobHandler } from '../../store/queue/queue.js';
import type { DocumentRecord, Extraction, PropertyRecord, PropertyValueRecord } from '../../model/records.js';
import type { ExtractPayload, PropertyService } from '../../domain/properties.js';
import type { StructureService } from '../../domain/structure.js';
import { extractProperties } from '../stages/properties.js';
import type { Candidate, DocsetKnowledge, Evidence, PropertyDef } from '../../document/properties.js';
import { EXTRACT_JOB } from '../../model/jobs.js';

/** Values at least this sure (or set by hand) teach the docset where its values sit. */
export const LEARN_FROM_CONFIDENCE = 0.8;

/**
 * What the docset's known values teach about where each property's values sit. A value extracted
 * before the property was last relabelled was found for the old label: it teaches nothing (else a
 * relabelled property would find its old values again); manual values teach whatever the label.
 */
function knowledgeOf(values: PropertyValueRecord[], properties: PropertyRecord[]): DocsetKnowledge {
  const byProperty: DocsetKnowledge['byProperty'] = new Map();
  const labelledAt = new Map(properties.map((p) => [p.id, p.updatedAt]));
  for (const v of values) {
    const manual = v.manualValue !== null;
    const current = (v.extractedAt ?? 0) >= (labelledAt.get(v.propertyId) ?? 0);
    const confident = v.extractedValue !== null && current && (v.extraction?.confidence ?? 0) >= LEARN_FROM_CONFIDENCE;
    if (!manual && !confident) continue;
    const list = byProperty.get(v.propertyId) ?? [];
    const evidence = manual ? v.manualEvidence : v.extraction?.evidence;
    list.push({ value: manual ? v.manualValue! : v.extractedValue!, source: manual ? 'manual' : 'extracted', evidence: (evidence as Evidence | null | undefined) ?? null });
    byProperty.set(v.propertyId, list);
  }
  return { byProperty };
}

function toExtraction(best: Candidate | null, others: Candidate[]): Extraction | null {
  if (!best && others.length === 0) return null;
  return {
    confidence: best?.confidence ?? 0,
    location: best?.location ?? null,
    candidates: others.slice(0, 5).map((c) => ({ value: c.value, confidence: c.confidence, location: c.location })),
    anchor: best?.anchor ?? null,
    evidence: best?.evidence ?? null,
  };
}

/**
 * The `extract` job: finds the values of a docset's properties in its Ready documents (one, or all),
 * learning from the values the docset already knows, and records them (manual values stay).
 */
export class ExtractionJob implements JobHandler<ExtractPayload> {
  /** The queue it serves. */
  static readonly queue = EXTRACT_JOB;

  constructor(
    private readonly store: Store,
    private readonly properties: PropertyService,
    private readonly structures: StructureService,
    private readonly logger: Logger,
  ) {}

  private async *readyDocuments(workspaceId: string, payload: ExtractPayload): AsyncGenerator<DocumentRecord> {
    if (payload.documentId) {
      const doc = await this.store.documents.get(workspaceId, payload.documentId);
      if (doc && doc.docsetId === payload.docsetId && doc.status === 'Ready') yield doc;
      return;
    }
    let after: string | undefined;
    for (;;) {
      const page = await this.store.documents.list(workspaceId, { docsetId: payload.docsetId, status: 'Ready', samples: true }, { after, limit: 100 });
      for (const d of page.items) yield d;
      if (!page.nextAfter) return;
      after = page.nextAfter;
    }
  }

  async run(job: Job<ExtractPayload>): Promise<void> {
    const { workspaceId, payload } = job;
    const state = await this.properties.docsetState(workspaceId, payload.docsetId);
    if (!state || state.properties.length === 0) return;
    const defs: PropertyDef[] = state.properties.map((p: PropertyRecord) => ({ id: p.id, label: p.label, labelId: p.labelId }));
    const knowledge = knowledgeOf(state.values, state.properties);
    const started = performance.now();
    let documents = 0;
    for await (const doc of this.readyDocuments(workspaceId, payload)) {
      if (!doc.structureBlobKey) continue;
      const structure = await this.structures.structureOf(doc);
      const results = extractProperties(structure, defs, knowledge);
      const recorded = await this.properties.recordExtraction(
        workspaceId,
        payload.docsetId,
        doc.id,
        results.map((r) => ({ propertyId: r.propertyId, value: r.best?.value ?? null, extraction: toExtraction(r.best, r.candidates) })),
      );
      if (!recorded) continue;
      documents++;
      // Its DGML tags the values: written again now when they changed, not at the next request.
      await this.structures.writeFiles(workspaceId, doc.id, ['dgml']).catch((err: unknown) => this.logger.warn({ err, document: doc.id }, 'DGML not written after extraction: the next request writes it'));
      // What this document taught is used for the next ones.
      for (const r of results) {
        if (!r.best || r.best.confidence < LEARN_FROM_CONFIDENCE) continue;
        const list = knowledge.byProperty.get(r.propertyId) ?? [];
        list.push({ value: r.best.value, source: 'extracted', evidence: r.best.evidence });
        knowledge.byProperty.set(r.propertyId, list);
      }
    }
    this.logger.info({ docset: payload.docsetId, documents, properties: defs.length, durationMs: Math.round(performance.now() - started) }, 'property values extracted');
  }
}
