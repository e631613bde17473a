import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Config } from '../../src/runtime/config.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { ClassificationService, nameTerms, termWeights, type ClassificationCandidate } from '../../src/domain/classification.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { classificationFeatures, MAX_HEADING_TERMS, MAX_TERMS, termsOf, type ClassificationFeatures } from '../../src/document/classification.js';
import { wordsOf, type StructureModel } from '../../src/document/structure.js';
import { Store } from '../../src/store/db/index.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { CORPUS } from '../helpers/quire.js';

const KGRAG = path.join(CORPUS, 'kgrag');

interface CorpusDocument {
  id: string;
  /** The folder it is in: its docset. */
  docset: string;
  features: ClassificationFeatures;
}

/** The 16 PDFs, analysed once per run (one NIH protocol has a scanned page: OCR, ~2 s). */
let corpus: Promise<CorpusDocument[]> | undefined;
function kgrag(): Promise<CorpusDocument[]> {
  corpus ??= (async () => {
    const out: CorpusDocument[] = [];
    for (const docset of fs.readdirSync(KGRAG).sort()) {
      for (const file of fs.readdirSync(path.join(KGRAG, docset)).sort()) {
        const model = await readDocument(fs.readFileSync(path.join(KGRAG, docset, file)), 'pdf');
        const { structure } = await analyzeDocument(model, { ocrBudgetMs: 30_000 });
        out.push({ id: `${docset}/${file}`, docset, features: classificationFeatures(structure) });
      }
    }
    return out;
  })();
  return corpus;
}

/**
 * The corpus as one workspace sees it: document and docset ids are unique across workspaces (as
 * `newId()` makes them), so each test's workspace gets its own; a docset is named after its folder.
 */
function inWorkspace(ws: string, docs: readonly CorpusDocument[]): CorpusDocument[] {
  return docs.map((d) => ({ ...d, id: `${ws}/${d.id}`, docset: `${ws}/${d.docset}` }));
}
/** A document as the membership listeners see it (they use its workspace and id). */
function documentRecord(workspaceId: string, id: string): DocumentRecord {
  return { id, workspaceId, docsetId: null, docsetCandidates: [], name: id, format: 'pdf', contentType: 'application/pdf', size: 1, sha256: '', blobKey: '', status: 'Ready', pageCount: 1, isSample: false, error: null, createdAt: 0, updatedAt: 0, processedAt: 0 };
}

const candidatesOf = (docs: readonly CorpusDocument[]): ClassificationCandidate[] =>
  [...new Set(docs.map((d) => d.docset))].map((id) => ({ id, name: id.slice(id.indexOf('/') + 1) }));

function storeSuite(label: string, database: () => Promise<Config['database']>, cleanup: () => Promise<void>) {
  describe(`classification statistics (${label})`, () => {
    let store: Store;
    before(async () => {
      store = await Store.open(await database());
    });
    after(async () => {
      await store?.close();
      await cleanup();
    });

    test('leave-one-out over the 16 kgrag documents: ≥ 95 % classified into their folder', async () => {
      const ws = 'ws-loo';
      const docs = inWorkspace(ws, await kgrag());
      const service = new ClassificationService(store);
      for (const d of docs) await service.addDocument(ws, d.docset, d.id, d.features);
      const wrong: string[] = [];
      for (const d of docs) {
        await service.removeDocument(ws, d.id);
        const result = await service.classify(ws, candidatesOf(docs), d.features);
        if (result.chosen !== d.docset) wrong.push(`${d.id} → ${result.chosen} (${JSON.stringify(result.candidates)})`);
        assert.ok(result.candidates.every((c) => c.basis === 'documents'));
        await service.addDocument(ws, d.docset, d.id, d.features);
      }
      const accuracy = (docs.length - wrong.length) / docs.length;
      assert.equal(docs.length, 16);
      assert.ok(accuracy >= 0.95, `accuracy ${accuracy}; misclassified:\n${wrong.join('\n')}`);
    });

    test('adding and removing documents gives the statistics and scores of building from scratch', async () => {
      const corpus = await kgrag();
      const service = new ClassificationService(store);
      const grown = inWorkspace('ws-grown', corpus);
      const scratch = inWorkspace('ws-scratch', corpus);
      // Grown: everything; two deletions; a document deleted and added twice (a retried job); one
      // moved to another docset; one processed while in no docset, then joining; one docset deleted
      // and its documents joining it again.
      const g = 'ws-grown';
      for (const d of grown) await service.addDocument(g, d.docset, d.id, d.features);
      const [moved, readded, late, rejoined, ...gone] = [1, 5, 9, 12, 6, 14].map((i) => grown[i]!);
      for (const d of [readded!, late!, ...gone]) await service.removeDocument(g, d.id);
      await service.addDocument(g, readded!.docset, readded!.id, readded!.features);
      await service.addDocument(g, readded!.docset, readded!.id, readded!.features);
      const target = `${g}/${corpus.find((d) => d.docset !== corpus[1]!.docset)!.docset}`;
      await store.tx(async (s) => {
        await service.left(s, documentRecord(g, moved!.id), moved!.docset);
        await service.joined(s, documentRecord(g, moved!.id), target);
      });
      await service.addDocument(g, null, late!.id, late!.features);
      await store.tx((s) => service.joined(s, documentRecord(g, late!.id), late!.docset));
      await store.tx((s) => service.docsetDeleted(s, g, rejoined!.docset));
      for (const d of grown.filter((x) => x.docset === rejoined!.docset)) await store.tx((s) => service.joined(s, documentRecord(g, d.id), d.docset));

      // Scratch: only the final membership, each document added once.
      const deleted = new Set(gone.map((d) => grown.indexOf(d)));
      for (const [i, d] of scratch.entries()) {
        if (deleted.has(i)) continue;
        await service.addDocument('ws-scratch', i === 1 ? target.replace(g, 'ws-scratch') : d.docset, d.id, d.features);
      }
      // The grown sums went through other additions and subtractions: only exact (integer) sums make these equal.
      const snapshot = async (ws: string, docs: CorpusDocument[]) => {
        const ids = candidatesOf(docs).map((c) => c.id);
        const unprefix = (id: string) => id.slice(ws.length + 1);
        const stats = (await store.classification.docsetStats(ws, ids)).map((s) => ({ ...s, docsetId: unprefix(s.docsetId) }));
        const query = termWeights(docs[0]!.features);
        const counts = [...(await store.classification.termDocumentCounts(ids, query.map((t) => t.term)))].sort();
        const dots = [...(await store.classification.dotProducts(ids, query))].map(([id, dot]) => [unprefix(id), dot]).sort();
        const scores = [];
        for (const d of docs) {
          const result = await service.classify(ws, candidatesOf(docs), d.features);
          scores.push(result.candidates.map((c) => ({ ...c, docsetId: unprefix(c.docsetId) })));
        }
        const order = (a: { docsetId: string }, b: { docsetId: string }) => a.docsetId.localeCompare(b.docsetId);
        return { stats: stats.sort(order), counts, dots, scores };
      };
      const a = await snapshot('ws-grown', grown);
      const b = await snapshot('ws-scratch', scratch);
      assert.equal(a.stats.length, 4);
      assert.ok(a.counts.length > 100);
      assert.equal(a.dots.length, 4);
      assert.deepEqual(a, b);
    });

    test('removing every document leaves no statistics behind', async () => {
      const ws = 'ws-emptied';
      const docs = inWorkspace(ws, (await kgrag()).slice(0, 4));
      const service = new ClassificationService(store);
      const docset = docs[0]!.docset;
      for (const d of docs) await service.addDocument(ws, docset, d.id, d.features);
      assert.equal((await store.classification.docsetStats(ws, [docset]))[0]?.documents, 4);
      for (const d of docs) await service.removeDocument(ws, d.id);
      assert.deepEqual(await store.classification.docsetStats(ws, [docset]), []);
      const query = termWeights(docs[0]!.features);
      assert.equal((await store.classification.termDocumentCounts([docset], query.map((t) => t.term))).size, 0);
      assert.equal((await store.classification.dotProducts([docset], query)).size, 0);
      assert.equal(await store.classification.documentTerms(ws, docs[0]!.id), undefined);
    });

    test('docsets without documents compete on their names, also against docsets with documents', async () => {
      const ws = 'ws-names';
      const docs = inWorkspace(ws, await kgrag());
      const service = new ClassificationService(store);
      let right = 0;
      for (const d of docs) {
        const result = await service.classify(ws, candidatesOf(docs), d.features);
        assert.ok(result.candidates.every((c) => c.basis === 'name'));
        // Right and strictly ahead: a tie (no name word in the document) goes to the first listed.
        if (result.chosen === d.docset && result.candidates[0]!.score > result.candidates[1]!.score) right++;
      }
      // Folder names only ("sec-10-q", "us-fed-agency-reports"): most documents still find theirs.
      assert.ok(right >= 13, `${right}/16 by names alone`);

      // Mixed: the NTSB docset is empty, the three others have their documents.
      const isNtsb = (d: CorpusDocument) => d.docset.includes('/ntsb-');
      for (const d of docs) if (!isNtsb(d)) await service.addDocument(ws, d.docset, d.id, d.features);
      for (const d of docs.filter(isNtsb)) {
        const result = await service.classify(ws, candidatesOf(docs), d.features);
        assert.equal(result.chosen, d.docset, JSON.stringify(result.candidates));
        assert.equal(result.candidates[0]!.basis, 'name');
      }
    });

    test('the decision is recorded on the document; ties go to the docset named first', async () => {
      const now = Date.now();
      const ws = 'ws-record';
      await store.workspaces.insert({ id: ws, name: ws, type: 'test', createdAt: now, expiresAt: null, pageQuotaMax: 1000, pageQuotaPerDocument: 100, userQuotaMax: 1 });
      await store.documents.insert({
        id: 'doc-blank', workspaceId: ws, docsetId: null, docsetCandidates: ['ds-b', 'ds-a'], name: 'blank.pdf', format: 'pdf', contentType: 'application/pdf',
        size: 1, sha256: '0', blobKey: 'k', status: 'Processing', pageCount: 1, isSample: false, error: null, createdAt: now, updatedAt: now, processedAt: null,
      });
      const service = new ClassificationService(store);
      const blank: ClassificationFeatures = { terms: [], layout: { words: 0, form: 0, table: 0, prose: 0, list: 0, heading: 0 } };
      const result = await service.classify(ws, [{ id: 'ds-b', name: 'Leases' }, { id: 'ds-a', name: 'Invoices' }], blank);
      assert.equal(result.chosen, 'ds-b');
      assert.deepEqual(result.candidates.map((c) => c.score), [0, 0]);
      await store.tx((s) => service.record(ws, 'doc-blank', result, s));
      assert.deepEqual(await store.classification.documentClassification(ws, 'doc-blank'), {
        candidates: [
          { docset: { id: 'ds-b' }, score: 0, basis: 'name' },
          { docset: { id: 'ds-a' }, score: 0, basis: 'name' },
        ],
        chosen: { id: 'ds-b' },
      });
      // A document without words adds nothing to its docset.
      await service.addDocument(ws, 'ds-a', 'doc-blank', blank);
      assert.deepEqual(await store.classification.docsetStats(ws, ['ds-a']), []);
    });
  });
}

onBothDatabases('classification statistics', 'quire_classify', storeSuite);

function structureOf(nodes: StructureModel['nodes']): StructureModel {
  return { version: 1, pages: [{ number: 1, width: 2550, height: 3300 }], paginated: true, nodes, ocrPages: [] };
}
const leaf = (text: string) => ({ text, boxes: [] });

describe('classification features', () => {
  test('words and bigrams, stop words and numbers out, plural folded; heading words and layout shares', () => {
    const features = classificationFeatures(
      structureOf([
        {
          type: 'section',
          level: 1,
          heading: leaf('Accident Reports'),
          children: [
            { type: 'paragraph', structure: 'p', role: 'body', leaf: leaf('The pilot reported 2 engine failures; the engine failure was the cause.') },
            {
              type: 'table',
              source: 'form',
              boxes: [],
              rows: [{ boxes: [], cells: [{ leaf: leaf('Aircraft:'), colspan: 1, rowspan: 1, role: 'label', boxes: [] }, { leaf: leaf('Cessna 172'), colspan: 1, rowspan: 1, role: 'value', boxes: [] }] }],
            },
          ],
        },
      ]),
    );
    const counts = Object.fromEntries(features.terms.map((t) => [t.term, t.count]));
    assert.equal(counts['engine'], 2);
    assert.equal(counts['failure'], 2);
    assert.equal(counts['engine failure'], 2);
    assert.equal(counts['accident report'], 1);
    assert.equal(counts['#accident'], 1);
    assert.equal(counts['the'], undefined);
    assert.equal(counts['2'], undefined);
    // "2" stood between "reported" and "engine": no bigram across it.
    assert.equal(counts['reported engine'], undefined);
    assert.equal(features.layout.words, 2 + 12 + 3);
    assert.equal(features.layout.form, 3 / 17);
    assert.equal(features.layout.prose, 12 / 17);
    assert.equal(features.layout.heading, 2 / 17);
  });

  test('words are counted between any whitespace, Unicode spaces included; apostrophes and non-ASCII letters kept', () => {
    const text = 'a\u00a0b\u2003c\ufeffd\u3000e  f\tg\u202fh';
    const features = classificationFeatures(structureOf([{ type: 'paragraph', structure: 'p', role: 'body', leaf: leaf(text) }]));
    assert.equal(features.layout.words, wordsOf(text).length);
    assert.equal(features.layout.words, 8);
    const more = classificationFeatures(structureOf([{ type: 'paragraph', structure: 'p', role: 'body', leaf: leaf("The Lessee’s rights; l'été, the Lessee's éléments") }]));
    const counts = Object.fromEntries(more.terms.map((t) => [t.term, t.count]));
    assert.equal(counts['lessee'], 2);
    assert.equal(counts['lessee right'], 1);
    assert.equal(counts['lété'], 1);
    assert.equal(counts['élément'], 1);
  });

  test('terms are runs of letters and digits joined by single hyphens or apostrophes, astral letters included', () => {
    const text = 'Follow-up rock’n’roll well- -known a--b x\uD800y 𝐀𝐁𝐂 ab-12 İstanbul';
    // "İ" lower-cases to "i" and a combining dot, which is not a letter: the token breaks there.
    assert.deepEqual(termsOf(text), ['follow-up', 'rocknroll', 'well', 'known', null, null, null, null, '𝐀𝐁𝐂', 'ab-12', null, 'stanbul']);
  });

  test('ties at the cut are broken by term, whatever the order the terms came in', () => {
    // 300 distinct words once each, then "zeta" and "alpha" twice: the 256 kept are the two, then the
    // 254 first of the rest in term order.
    const once = Array.from({ length: 300 }, (_, i) => `w${String(i).padStart(3, '0')}x`).reverse();
    const text = [...once, 'zeta', 'zeta', 'alpha', 'alpha'].join('. ');
    const { terms } = classificationFeatures(structureOf([{ type: 'paragraph', structure: 'p', role: 'body', leaf: leaf(text) }]));
    const words = terms.filter((t) => !t.term.startsWith('#'));
    assert.equal(words.length, MAX_TERMS);
    assert.deepEqual(words.slice(0, 2).map((t) => t.term), ['alpha', 'zeta']);
    const rest = words.slice(2).map((t) => t.term);
    assert.deepEqual(rest, [...rest].sort());
    assert.equal(rest[0], 'alpha alpha');
  });

  test('capped to the most frequent terms; the same structure gives the same features', async () => {
    const docs = await kgrag();
    const big = docs.find((d) => d.id.includes('DOSAID'))!;
    const words = big.features.terms.filter((t) => !t.term.startsWith('#'));
    assert.equal(words.length, MAX_TERMS);
    assert.ok(big.features.terms.length <= MAX_TERMS + MAX_HEADING_TERMS);
    for (let i = 1; i < words.length; i++) assert.ok(words[i - 1]!.count >= words[i]!.count);
    const weights = termWeights(big.features);
    const norm = Math.sqrt(weights.reduce((s, t) => s + t.weight * t.weight, 0));
    assert.ok(Math.abs(norm - 10_000) < 50, `unit length in fixed point: ${norm}`);
  });

  test('docset names as terms', () => {
    assert.deepEqual(nameTerms('sec-10-q'), ['10-q', 'sec', 'sec-10']);
    assert.deepEqual(nameTerms('NTSB Accident Reports'), ['accident', 'accident report', 'ntsb', 'ntsb accident', 'report']);
  });
});
