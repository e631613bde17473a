/**
 * The sample catalogue: documents generated deterministically, rendered to real PDF and DOCX files
 * that Quire's own readers read back with the expected text, and the truth of every suggested
 * property written in each document.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { SAMPLE_CATALOG, findSampleSet, renderSampleDocument, sampleTruth, type SampleDocument } from '../../src/samples/index.js';
import { crc32, writeZip as zip } from '../../src/ingest/readers/write/zip.js';
import { expandZip, readDocument } from '../../src/ingest/readers/index.js';
import { leaves, normalizeSpace, type StructureNode } from '../../src/document/structure.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { extractProperties } from '../../src/ingest/stages/properties.js';
import { LEARN_FROM_CONFIDENCE } from '../../src/ingest/jobs/extract.js';
import type { DocsetKnowledge } from '../../src/document/properties.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function renderAll(): Map<string, string> {
  const out = new Map<string, string>();
  for (const set of SAMPLE_CATALOG) for (const d of set.generate()) out.set(`${set.id}/${d.fileName}`, sha(renderSampleDocument(d)));
  return out;
}

/** Every text a document description writes, as its reader should give it back. */
function expectedTexts(d: SampleDocument): string[] {
  const texts = [d.content.title];
  for (const b of d.content.blocks) {
    if (b.kind === 'heading' || b.kind === 'paragraph') texts.push(b.text);
    else if (b.kind === 'field') texts.push(`${b.key}: ${b.value}`);
    else texts.push(...b.rows.flat().filter(Boolean));
  }
  return texts.map(normalizeSpace);
}

function sections(nodes: readonly StructureNode[]): { level: number; heading: string }[] {
  return nodes.flatMap((n) => (n.type === 'section' ? [{ level: n.level, heading: n.heading.text }, ...sections(n.children)] : []));
}

function tables(nodes: readonly StructureNode[]): string[][][] {
  return nodes.flatMap((n) =>
    n.type === 'table' ? [n.rows.map((r) => r.cells.map((c) => c.leaf.text))] : n.type === 'section' ? tables(n.children) : [],
  );
}

describe('sample catalogue', () => {
  test('at least three sets of at least six documents, PDF and DOCX mixed, with truth for every suggested property', () => {
    assert.ok(SAMPLE_CATALOG.length >= 3);
    assert.deepEqual(
      SAMPLE_CATALOG.map((s) => s.id),
      SAMPLE_CATALOG.map((s) => s.id).sort(),
      'the catalogue is in id order (its keyset order)',
    );
    for (const set of SAMPLE_CATALOG) {
      const docs = set.generate();
      assert.ok(docs.length >= 6, `${set.id} has ${docs.length} documents`);
      assert.ok(docs.some((d) => d.format === 'pdf') && docs.some((d) => d.format === 'docx'), `${set.id} mixes formats`);
      assert.equal(new Set(docs.map((d) => d.fileName)).size, docs.length, `${set.id} file names are unique`);
      for (const d of docs) {
        assert.ok(d.fileName.endsWith(`.${d.format}`) && !d.fileName.includes('..'), d.fileName);
        assert.deepEqual(Object.keys(d.truth).sort(), [...set.suggestedProperties].sort(), `${d.fileName}: one truth per suggested property`);
      }
      // Values vary from document to document: the set is worth extracting from.
      for (const label of set.suggestedProperties) {
        assert.ok(new Set(docs.map((d) => d.truth[label])).size >= 3, `${set.id}: "${label}" varies`);
      }
    }
    assert.equal(findSampleSet('nope'), undefined);
    const truth = sampleTruth('nda')!;
    assert.equal(truth.size, findSampleSet('nda')!.generate().length);
    for (const values of truth.values()) assert.match(values['Effective Date']!, /^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  });

  test('generation is deterministic: the same bytes every time', () => {
    const first = renderAll();
    const second = renderAll();
    assert.deepEqual(second, first);
    assert.equal(new Set(first.values()).size, first.size, 'no two documents are the same file');
  });

  test('PDFs read back with every text, every truth value, and a page count', async () => {
    for (const set of SAMPLE_CATALOG) {
      for (const d of set.generate().filter((x) => x.format === 'pdf')) {
        const bytes = renderSampleDocument(d);
        assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
        const model = await readDocument(bytes, 'pdf');
        assert.ok(model.pages.length >= 1);
        for (const p of model.pages) assert.deepEqual([p.width, p.height], [2550, 3300], 'US Letter at 300 DPI');
        const text = normalizeSpace(model.pages.flatMap((p) => p.items.map((i) => i.text)).join(' '));
        for (const t of expectedTexts(d)) assert.ok(text.includes(t), `${d.fileName}: "${t}" missing`);
        for (const v of Object.values(d.truth)) assert.ok(text.includes(v), `${d.fileName}: truth "${v}" missing`);
        assert.ok(text.includes(`Page ${model.pages.length} of ${model.pages.length}`), `${d.fileName}: footer`);
      }
    }
  });

  test('DOCX files read back through the DOCX reader: title, headings with levels, paragraphs, tables', async () => {
    for (const set of SAMPLE_CATALOG) {
      for (const d of set.generate().filter((x) => x.format === 'docx')) {
        const bytes = renderSampleDocument(d);
        const model = await readDocument(bytes, 'docx', { libreoffice: false });
        const native = model.native!;
        const text = normalizeSpace([...leaves(native)].map((l) => l.text).join(' '));
        for (const t of expectedTexts(d)) assert.ok(text.includes(t), `${d.fileName}: "${t}" missing`);
        for (const v of Object.values(d.truth)) assert.ok(text.includes(v), `${d.fileName}: truth "${v}" missing`);

        const headings = d.content.blocks.flatMap((b) => (b.kind === 'heading' ? [b] : []));
        const found = sections(native);
        assert.deepEqual(found[0], { level: 1, heading: d.content.title }, 'the Title style reads as a first-level heading');
        assert.deepEqual(found.slice(1), headings.map((h) => ({ level: h.level, heading: h.text })), `${d.fileName}: Heading 1/2 styles keep their levels`);
        const expectedTables = d.content.blocks.flatMap((b) => (b.kind === 'table' ? [b.rows] : []));
        assert.deepEqual(tables(native), expectedTables, `${d.fileName}: tables cell for cell`);
      }
    }
  });

  test('the ZIP writer: CRC-32 check value, and archives the ZIP reader expands', async () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    const pdf = renderSampleDocument(SAMPLE_CATALOG[0]!.generate()[0]!);
    const archive = zip([
      { name: 'notes/readme.txt', data: 'plain text, ünïcode' },
      { name: 'a.pdf', data: pdf },
    ]);
    const { members, skipped } = await expandZip(archive);
    assert.deepEqual(skipped, []);
    const inflated = await Promise.all(members.map(async (m) => Buffer.concat(await m.open().toArray())));
    assert.deepEqual(
      members.map((m, i) => [m.name, inflated[i]!.toString('base64')]),
      [
        ['notes/readme.txt', Buffer.from('plain text, ünïcode').toString('base64')],
        ['a.pdf', pdf.toString('base64')],
      ],
    );
    assert.ok(zip([{ name: 'x.txt', data: 'x' }]).equals(zip([{ name: 'x.txt', data: 'x' }])), 'no timestamps: same input, same bytes');
  });

  test("every suggested property's value is extracted from every document, each learning from the ones before as the extract job does", async () => {
    const wrong: string[] = [];
    for (const set of SAMPLE_CATALOG) {
      const truth = sampleTruth(set.id)!;
      const defs = set.suggestedProperties.map((label, i) => ({ id: `p${i}`, label, labelId: label.replace(/[^A-Za-z0-9]/g, '') }));
      const knowledge: DocsetKnowledge = { byProperty: new Map() };
      for (const d of set.generate()) {
        const { structure } = await analyzeDocument(await readDocument(renderSampleDocument(d), d.format), { ocrBudgetMs: 0 });
        const found = extractProperties(structure, defs, knowledge);
        for (const [i, label] of set.suggestedProperties.entries()) {
          const want = truth.get(d.fileName)![label];
          const best = found[i]!.best;
          if (normalizeSpace(best?.value ?? '').toLowerCase() !== normalizeSpace(want ?? '').toLowerCase()) wrong.push(`${set.id}/${d.fileName} ${label}: ${JSON.stringify(best?.value)}, expected ${JSON.stringify(want)}`);
          if (best && best.confidence >= LEARN_FROM_CONFIDENCE) {
            knowledge.byProperty.set(`p${i}`, [...(knowledge.byProperty.get(`p${i}`) ?? []), { value: best.value, source: 'extracted', evidence: best.evidence }]);
          }
        }
      }
    }
    // (The "Receiving Party" of a mutual NDA was its disclosing party while a role sharing only "Party" counted.)
    assert.deepEqual(wrong, []);
  });
});
