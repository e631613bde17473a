import type { DocumentModel } from '../document/pages.js';
import type { StructureModel } from '../document/structure.js';
import { pipelineOf, type PipelineName } from './readers/index.js';
import { alignBoxes } from './stages/align.js';
import { tagEntities } from './stages/entities.js';
import { tagSemanticLabels } from './stages/semantic-labels.js';
import { tagFormValues } from './stages/form-labels.js';
import { nameClauses } from './stages/clause-labels.js';
import { pdfStructure } from './stages/layout.js';
import { recognise, turnBack } from './stages/recognise.js';
import type { AnalysisState, AnalyzeOptions, AnalyzeTimings, Stage, StageTiming } from './stages/stage.js';
import { detectTables } from './stages/tables.js';
import { readText } from './stages/text.js';
import { withSidewaysTables } from './stages/upright.js';

export type { AnalyzeOptions, AnalyzeTimings } from './stages/stage.js';

/** A stage in a pipeline: its name, the figure of AnalyzeTimings its wall time counts in, and what it does. */
export interface PipelineStage {
  name: string;
  timing: StageTiming;
  run: Stage;
}

const stage = (name: string, timing: StageTiming, run: Stage): PipelineStage => ({ name, timing, run });

/** Entities are tagged last, on whichever structure came out; the labels name the values the entity pass found (counted with it). */
const TAGGING: PipelineStage[] = [
  stage('entities', 'entitiesMs', (doc) => tagEntities(doc.nodes)),
  stage('semantic-labels', 'entitiesMs', (doc) => tagSemanticLabels(doc.nodes)),
  // A form's values named by their labels (`Registration:` | `N3250B`).
  stage('form-labels', 'entitiesMs', (doc) => tagFormValues(doc.nodes)),
  // Clauses, lists and tables named for what they are (counted with the entities: the same kind of pass).
  stage('clause-labels', 'entitiesMs', nameClauses),
];

/** PDFs (and pages without a structure of their own): OCR → tables → layout (lines, blocks, reading order, headings, lists, sections). */
export const PAGINATED: readonly PipelineStage[] = [
  stage('text', 'textMs', readText),
  stage('ocr', 'ocrMs', recognise),
  stage('tables', 'layoutMs', (doc) => void (doc.tables = doc.pages.map((page) => withSidewaysTables(page, detectTables(page))))),
  stage('layout', 'layoutMs', (doc) => void (doc.nodes = pdfStructure(doc.pages, doc.tables))),
  stage('upright', 'layoutMs', turnBack),
  ...TAGGING,
];

/** Formats with a structure of their own (DOCX, DOC, HTML, TXT) keep it and take boxes from their rendition. */
export const DECLARATIVE: readonly PipelineStage[] = [
  stage('text', 'textMs', readText),
  stage('align', 'layoutMs', (doc) => {
    doc.nodes = doc.model.native ?? [];
    alignBoxes(doc.nodes, doc.pages);
  }),
  ...TAGGING,
];

/** Each pipeline's stages, by the name the format table (`FORMAT_OPTIONS`, ingest/readers/index.ts) gives a format. */
export const PIPELINES: Readonly<Record<PipelineName, readonly PipelineStage[]>> = { paginated: PAGINATED, declarative: DECLARATIVE };

/**
 * The `Processing` stage: the document's structure from the model its reader produced, by running
 * its format's pipeline's stages in order, each timed into the figure it names.
 */
export async function analyzeDocument(model: DocumentModel, options: AnalyzeOptions): Promise<{ structure: StructureModel; timings: AnalyzeTimings }> {
  const timings: AnalyzeTimings = { textMs: 0, ocrMs: 0, ocrPages: 0, ocrFailedPages: [], ocrTimedOutPages: [], layoutMs: 0, entitiesMs: 0 };
  const doc: AnalysisState = { model, pages: model.pages, turned: [], skewed: [], tables: [], nodes: [], ocrPages: [], timings };
  const ctx = { options };
  for (const { timing, run } of PIPELINES[pipelineOf(model.format)]) {
    const t = performance.now();
    await run(doc, ctx);
    timings[timing] += performance.now() - t;
  }
  const structure: StructureModel = {
    version: 1,
    pages: model.pages.map((p) => ({ number: p.number, width: p.width, height: p.height })),
    paginated: true,
    nodes: doc.nodes,
    ocrPages: doc.ocrPages,
    ...(doc.clause !== undefined ? { clause: doc.clause } : {}),
  };
  return { structure, timings };
}
