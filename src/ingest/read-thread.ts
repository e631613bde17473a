// The entry of a reading thread: a document's bytes in, its DocumentModel out ('read'); or a
// DocumentModel in, its StructureModel out as stored (gzip of its JSON) with its classification
// features ('analyze'). A failure comes back as a reason.
import v8 from 'node:v8';
import { gzipSync } from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeDocument, type AnalyzeTimings } from './pipeline.js';
import { readDocument } from './readers/index.js';
import type { PdfEngine } from './readers/pdf/pdf.js';
import { preloadPdfium, usePdfiumModule, type PdfiumModule } from './readers/pdf/pdfium.js';
import { reportOfficeTo, useOfficeRoot, type OfficeEvent } from './readers/office/office-dirs.js';
import { classificationFeatures, type ClassificationFeatures } from '../document/classification.js';
import { summariseLabels, type LabelSummaryEntry } from '../document/label-summary.js';
import { IngestError, type DocumentModel } from '../document/pages.js';
import { heapCrowded } from './thread-retire.js';
import { endChildrenAndExit, reportChildrenTo } from './child-processes.js';
import { warmUpAnalysis } from './warm-up.js';
import type { OcrSlots } from './stages/ocr/slots.js';

export type ThreadRequest =
  | { id: number; op: 'read'; bytes: Uint8Array; ext: string; pdfEngine: PdfEngine; officeIdleMs: number; officeRequireIsolation: boolean }
  | { id: number; op: 'analyze'; model: DocumentModel; ocrBudgetMs: number; ocrLanguages: string; ocrSlots: OcrSlots; pdfEngine: PdfEngine };

/** The pool stopping a thread that has child processes: it ends them (reaping them), then exits (child-processes.ts). */
export interface ThreadStop {
  op: 'stop';
}

export type ThreadResult =
  | { op: 'read'; model: DocumentModel }
  | { op: 'analyze'; stored: StoredStructure; timings: AnalyzeTimings; features: ClassificationFeatures; labels: LabelSummaryEntry[] };

/**
 * A structure model as the blob store keeps it (gzip of its JSON), made in the analysing thread: a
 * transferred buffer instead of a cloned object tree, and no serialising on the main thread.
 */
export interface StoredStructure {
  gz: Uint8Array;
  ocrPages: number[];
}

/** What a thread posts about a request: its progress (any number of times), then its answer. */
export type ThreadReply =
  | { id: number; progress: { pagesDone: number; pagesTotal: number } }
  | { id: number; ok: true; result: ThreadResult; retire?: boolean }
  | { id: number; ok: false; ingestError?: { title: string; detail: string }; message: string };

/**
 * What a thread posts besides its replies: each LibreOffice working folder and process it makes and
 * ends, so that the pool can end those it leaves when it is stopped or crashes (office-orphans.ts);
 * and how many child processes it has running, so that the pool stops one with children gracefully.
 */
export type ThreadNotice = { office: OfficeEvent } | { children: number };

async function handle(req: ThreadRequest): Promise<{ result: ThreadResult; transfer: ArrayBuffer[] }> {
  const onProgress = (pagesDone: number, pagesTotal: number) => parentPort!.postMessage({ id: req.id, progress: { pagesDone, pagesTotal } } satisfies ThreadReply);
  if (req.op === 'read') {
    // Page sizes only: the text is extracted by 'analyze', after `Ingested`.
    const model = await readDocument(Buffer.from(req.bytes.buffer, req.bytes.byteOffset, req.bytes.byteLength), req.ext, { text: false, pdfEngine: req.pdfEngine, officeIdleMs: req.officeIdleMs, officeRequireIsolation: req.officeRequireIsolation });
    const pdf = model.pdf;
    const transfer = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : [];
    return { result: { op: 'read', model }, transfer };
  }
  const { structure, timings } = await analyzeDocument(req.model, { ocrBudgetMs: req.ocrBudgetMs, ocrLanguages: req.ocrLanguages, ocrSlots: req.ocrSlots, pdfEngine: req.pdfEngine, onProgress });
  const gz = gzipSync(JSON.stringify(structure), { level: 6 });
  const stored: StoredStructure = { gz, ocrPages: structure.ocrPages };
  const transfer = gz.byteOffset === 0 && gz.byteLength === gz.buffer.byteLength ? [gz.buffer as ArrayBuffer] : [];
  return { result: { op: 'analyze', stored, timings, features: classificationFeatures(structure), labels: summariseLabels(structure) }, transfer };
}

/** What a thread is started with (`workerData`). */
export interface ThreadData {
  /** PDFium compiled by the process, shared by its threads (`compiledPdfiumModule`). */
  pdfiumModule?: PdfiumModule;
  /** The folder LibreOffice's working folders go under (office-dirs.ts). */
  officeRoot?: string;
  /** An analysing thread started ahead of documents warms up this long, ms, or until its first request (warm-up.ts). */
  warmUpMs?: number;
}

/** How long a stopping thread waits for its children to exit once killed (the pool terminates it a little later anyway). */
const STOP_CHILDREN_MS = 1_500;

// Long-lived: PDFium and the readers load once (pdf.js only if a document needs it); the pool sends one request at a time.
const data = workerData as ThreadData | null;
if (data?.pdfiumModule) usePdfiumModule(data.pdfiumModule);
if (data?.officeRoot) useOfficeRoot(data.officeRoot);
reportOfficeTo((office) => parentPort!.postMessage({ office } satisfies ThreadNotice));
reportChildrenTo((children) => parentPort!.postMessage({ children } satisfies ThreadNotice));
preloadPdfium();
let requested = false;
const warming = data?.warmUpMs ? warmUpAnalysis(data.warmUpMs, () => requested) : Promise.resolve(0);
parentPort!.on('message', async (req: ThreadRequest | ThreadStop) => {
  if (req.op === 'stop') return endChildrenAndExit(STOP_CHILDREN_MS);
  requested = true;
  try {
    await warming;
    const { result, transfer } = await handle(req);
    parentPort!.postMessage({ id: req.id, ok: true, result, retire: heapCrowded(v8.getHeapStatistics()) } satisfies ThreadReply, transfer);
  } catch (err) {
    const reply: ThreadReply =
      err instanceof IngestError
        ? { id: req.id, ok: false, ingestError: { title: err.title, detail: err.detail }, message: err.message }
        : { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
});
