import type { Repos, Store } from '../store/db/index.js';
import { exampleKey, type DocsetLabelCount } from '../store/db/semantic-labels.js';
import { humaniseLabelName, isLabelName, MAX_LABEL_NAME_LENGTH, summariseLabels, type LabelKind, type LabelSummaryEntry } from '../document/label-summary.js';
import type { StructureModel } from '../document/structure.js';
import type { DocumentRecord, PageRequest, PropertyRecord } from '../model/records.js';
import { DomainError, invalid, notFound } from './errors.js';
import { labelIdOf, validateLabel } from './labels.js';
import type { PropertyService } from './properties.js';

/** A name found in a docset's documents (`docset:{name}` in their DGML), as the labels list shows it. */
export interface FoundLabel {
  /** What it names: a value (a date, party, amount…) or a clause (a section, paragraph, list or table). */
  kind: LabelKind;
  name: string;
  /** The name as a property label ("Tenant Name"): what turning it into a property creates. */
  label: string;
  /** Ready documents of the docset with at least one span of this name. */
  documentCount: number;
  /** Values or clauses of this name in those documents. */
  occurrences: number;
  /** A value of this name, or the opening of a clause of it. */
  example: { value: string; documentId: string };
  /** The docset property this label is (its label id is the name, or the humanised name's), or null; always null for a clause. */
  property: PropertyRecord | null;
}

export interface FoundLabelPage {
  items: FoundLabel[];
  /** The cursor position after the last item when more follow, else null. */
  nextAfter: string | null;
  /** Ready documents of the docset whose labels are not summarised yet (see SemanticLabelService). */
  pendingDocuments: number;
}

export interface SemanticLabelOptions {
  /** Documents without a summary read and summarised per call, at most. */
  backfillPerCall: number;
  /** Structures read at once while backfilling. */
  backfillConcurrency: number;
}

const DEFAULTS: SemanticLabelOptions = { backfillPerCall: 50, backfillConcurrency: 2 };

/** Which of the docset's properties a found label is: the one named exactly so, or the one its humanised label makes. */
function propertyOf(name: string, byLabelId: Map<string, PropertyRecord>): PropertyRecord | null {
  return byLabelId.get(name) ?? byLabelId.get(labelIdOf(humaniseLabelName(name))) ?? null;
}

const KIND_ORDER: Record<LabelKind, number> = { value: 0, clause: 1 };

/** Most documents first, then by name (code points, the same on every database), a value before a clause of the same name. */
function byCountThenName(a: Position, b: Position): number {
  return b.documents - a.documents || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

type Position = Pick<DocsetLabelCount, 'documents' | 'name' | 'kind'>;

function encodeAfter(c: Position): string {
  return JSON.stringify([c.documents, c.name, c.kind]);
}

function decodeAfter(after: string): Position {
  try {
    const [documents, name, kind = 'value'] = JSON.parse(after) as unknown[];
    if (typeof documents === 'number' && typeof name === 'string' && (kind === 'value' || kind === 'clause')) return { documents, name, kind };
  } catch {
    // below
  }
  throw invalid('The cursor is malformed.');
}

/**
 * The labels found in a docset's documents (spans of kind `label` in their structures: a value named
 * by the role its context gives it, with no property defined), and turning one into a property.
 *
 * Cheap by construction: each document's labels are summarised (name, first example, span count)
 * once, from the structure the analysing thread made, in the transaction that makes the document
 * Ready (`recordReady`); listing a docset's labels is then one aggregate over those rows, no
 * structure read. Documents made Ready before summaries existed (or by a worker of an older version)
 * are summarised on demand: a call reads at most `backfillPerCall` of their structures and says how
 * many remain (`pendingDocuments`), so later calls complete it.
 */
export class SemanticLabelService {
  private readonly opts: SemanticLabelOptions;

  constructor(
    private readonly store: Store,
    /** Reads a stored structure model (StructureService.structureAt). */
    private readonly structureAt: (blobKey: string) => Promise<StructureModel>,
    private readonly properties: PropertyService,
    opts: Partial<SemanticLabelOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /**
   * In the transaction that makes `doc` Ready: its labels, as the analysing thread summarised them
   * (undefined: a thread that does not summarise; the document is then summarised on demand).
   */
  async recordReady(s: Repos, doc: Pick<DocumentRecord, 'workspaceId' | 'id'>, labels: readonly LabelSummaryEntry[] | undefined): Promise<void> {
    if (!labels) return;
    // The row as this transaction made it: its processed_at is the processing the labels are of.
    const current = await s.documents.get(doc.workspaceId, doc.id);
    if (current?.processedAt == null) return;
    // A thread of a version before clause labels summarises values only, without a kind.
    const rows = labels.filter((l) => isLabelName(l.name)).map((l) => ({ ...l, kind: l.kind ?? 'value' }));
    await s.semanticLabels.replace(doc, current.processedAt, rows, Date.now());
  }

  /** Summarises up to `backfillPerCall` unsummarised Ready documents of the docset; returns how many remain. */
  private async backfill(workspaceId: string, docsetId: string): Promise<number> {
    const limit = this.opts.backfillPerCall;
    const todo = await this.store.semanticLabels.unscanned(workspaceId, docsetId, limit);
    if (todo.length === 0) return 0;
    let failed = 0;
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const d = todo[next++]!;
        try {
          const labels = summariseLabels(await this.structureAt(d.structureBlobKey)).map((l) => ({ ...l, kind: l.kind ?? 'value' }));
          await this.store.tx(async (s) => {
            // Processed again (or gone) meanwhile: its own Ready transaction records the new labels.
            const now = await s.documents.get(workspaceId, d.id);
            if (!now || now.status !== 'Ready' || now.processedAt !== d.processedAt) return;
            await s.semanticLabels.replace({ workspaceId, id: d.id }, d.processedAt, labels, Date.now());
          });
        } catch {
          // An unreadable structure stays pending (it is tried again on a later call) and costs this call nothing more.
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.backfillConcurrency, todo.length) }, worker));
    if (todo.length < limit && failed === 0) return 0;
    return this.store.semanticLabels.countUnscanned(workspaceId, docsetId);
  }

  private async docset(workspaceId: string, docsetId: string) {
    const d = await this.store.docsets.get(workspaceId, docsetId);
    if (!d) throw notFound('Docset', docsetId);
    return d;
  }

  /** The names found in the docset's Ready documents, most documents first, then by name. */
  async list(workspaceId: string, docsetId: string, page: PageRequest): Promise<FoundLabelPage> {
    await this.docset(workspaceId, docsetId);
    const after = page.after === undefined ? null : decodeAfter(page.after);
    const pendingDocuments = await this.backfill(workspaceId, docsetId);
    const [counts, properties] = await Promise.all([this.store.semanticLabels.docsetCounts(workspaceId, docsetId), this.store.properties.list(workspaceId, docsetId)]);
    counts.sort(byCountThenName);
    const start = after === null ? 0 : counts.findIndex((c) => byCountThenName(c, after) > 0);
    const rest = start < 0 ? [] : counts.slice(start);
    const shown = rest.slice(0, page.limit);
    const keys = shown.map((c) => ({ documentId: c.firstDocumentId, kind: c.kind, name: c.name }));
    const examples = await this.store.semanticLabels.examples(keys);
    const byLabelId = new Map(properties.map((p) => [p.labelId, p]));
    const items = shown.map((c, i) => ({
      kind: c.kind,
      name: c.name,
      label: humaniseLabelName(c.name),
      documentCount: c.documents,
      occurrences: c.occurrences,
      example: { value: examples.get(exampleKey(keys[i]!)) ?? '', documentId: c.firstDocumentId },
      property: c.kind === 'value' ? propertyOf(c.name, byLabelId) : null,
    }));
    return { items, nextAfter: rest.length > page.limit ? encodeAfter(shown[shown.length - 1]!) : null, pendingDocuments };
  }

  /**
   * The docset property for a found label: the existing one (its label id is the name, or the
   * humanised name's), else a new one labelled with the humanised name, whose values extraction then
   * finds in every Ready document. 404 when no Ready document of the docset has the label; 422 when
   * the docset has it as a clause's name only: a property's values are values (a date, a party, an
   * amount) that extraction finds, and a whole clause is none.
   */
  async toProperty(workspaceId: string, docsetId: string, rawName: string): Promise<{ property: PropertyRecord; created: boolean }> {
    const name = parseName(rawName);
    await this.docset(workspaceId, docsetId);
    await this.backfill(workspaceId, docsetId);
    const kinds = await this.store.semanticLabels.docsetKinds(workspaceId, docsetId, name);
    if (kinds.length === 0) {
      throw new DomainError('not-found', `Docset ${JSON.stringify(docsetId)} has no label ${JSON.stringify(name)}: no Ready document of it has a span of that name (GET …/labels lists them).`);
    }
    if (!kinds.includes('value')) {
      throw new DomainError(
        'unprocessable',
        `${JSON.stringify(name)} names clauses of docset ${JSON.stringify(docsetId)} (kind "clause"), not values: a property's values are values its documents state (a date, a party, an amount), so only a label of kind "value" becomes a property.`,
      );
    }
    const label = validateLabel(humaniseLabelName(name));
    const existing = async (s: Repos) => (await s.properties.byLabelId(docsetId, name)) ?? (await s.properties.byLabelId(docsetId, labelIdOf(label)));
    try {
      return await this.store.tx(async (s) => {
        if (!(await s.docsets.get(workspaceId, docsetId))) throw notFound('Docset', docsetId);
        const found = await existing(s);
        if (found) return { property: found, created: false };
        // insert, not ensure: a lookup that sees a row committed since ours would call theirs created.
        return { property: await this.properties.insert(s, workspaceId, docsetId, label), created: true };
      });
    } catch (err) {
      // Another request created it between our read and our insert: the insert's own check or the
      // unique label id refused ours, whichever saw the other's row first. Theirs is the label's.
      const found = await existing(this.store);
      if (found) return { property: found, created: false };
      throw err;
    }
  }
}

function parseName(raw: string): string {
  if (raw.length > MAX_LABEL_NAME_LENGTH) throw invalid(`Label names are at most ${MAX_LABEL_NAME_LENGTH} characters.`);
  if (!isLabelName(raw)) {
    throw invalid(`${JSON.stringify(raw)} is not a label name: names are XML element names as DGML writes them (a letter or "_" first, then letters, digits, ".", "-", "_"), as GET …/labels lists them.`);
  }
  return raw;
}
