import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import { tagEntities } from '../../src/ingest/stages/entities.js';
import { BEST_THRESHOLD, evidenceOfManualValue, extractProperties } from '../../src/ingest/stages/properties.js';
import { tagProperties } from '../../src/document/tag.js';
import type { DocsetKnowledge, ExtractedValue, PropertyDef } from '../../src/document/properties.js';
import { makeQuery, labelScore } from '../../src/ingest/stages/properties/query.js';
import { cellsByLeafIndex, leaves, type Leaf, type StructureModel, type TableCell } from '../../src/document/structure.js';
import { CORPUS } from '../helpers/quire.js';

const NTSB_FINAL = path.join(CORPUS, 'reference-dgml/20071210X01921.pdf');
const NTSB_FINAL_2 = path.join(CORPUS, 'kgrag/ntsb-aviation-incident-accident-reports/20080117X00072.pdf');
const NTSB_FACTUAL = path.join(CORPUS, 'reference-dgml/20071204X01896.pdf');
const NDA = path.join(CORPUS, 'reference-dgml/Jane Doe NDA.pdf');

const structures = new Map<string, Promise<StructureModel>>();
/** The document's structure as the pipeline builds it (a fresh copy: tagging changes it). */
async function structureOf(file: string): Promise<StructureModel> {
  if (!structures.has(file)) {
    structures.set(file, (async () => (await analyzeDocument(await readDocument(fs.readFileSync(file), 'pdf'), { ocrBudgetMs: 30000 })).structure)());
  }
  return structuredClone(await structures.get(file)!);
}

const NONE: DocsetKnowledge = { byProperty: new Map() };
const prop = (label: string, id = label): PropertyDef => ({ id, label, labelId: label.replace(/[^A-Za-z0-9]/g, '') });

function extractOne(structure: StructureModel, label: string, knowledge = NONE): ExtractedValue {
  return extractProperties(structure, [prop(label)], knowledge)[0]!;
}

function leafAt(structure: StructureModel, index: number): Leaf {
  return [...leaves(structure.nodes)][index]!;
}

/** A one-page document of body paragraphs, entities tagged as the pipeline does. */
function paragraphs(...texts: string[]): StructureModel {
  const structure: StructureModel = {
    version: 1,
    pages: [{ number: 1, width: 2550, height: 3300 }],
    paginated: true,
    ocrPages: [],
    nodes: texts.map((text, i) => ({ type: 'paragraph', structure: 'p', role: 'body', leaf: { text, boxes: [{ page: 1, left: 300, top: 300 + 100 * i, width: 1800, height: 50 }] } })),
  };
  tagEntities(structure.nodes);
  return structure;
}

test('label matching tolerates case, punctuation, plurals, abbreviations and word order, not other labels', () => {
  const score = (label: string, text: string) => labelScore(makeQuery(prop(label), []), text);
  assert.equal(score('Accident Number', 'ACCIDENT NUMBER:'), 1);
  assert.equal(score('Model Series', 'Model/Series:'), 1);
  assert.equal(score('Seat', 'Seats:'), 1);
  assert.equal(score('Date and Time', 'Date & Time:'), 1);
  assert.equal(score('Investigator in charge', 'Investigator In Charge (IIC):'), 1);
  assert.equal(score('Certificate', 'Operating Certificate(s) Held:') < 0.6, true);
  assert.ok(score('Accident Number', 'Accident No.:') >= 0.9);
  assert.ok(score('Engine Manufacturer', 'Engine Mfr.') >= 0.9);
  assert.ok(score('Date of Birth', 'DOB:') >= 0.9);
  const reordered = score('Birth Date', 'Date of Birth');
  assert.ok(reordered >= 0.9 && reordered < 1, `reordered: ${reordered}`);
  assert.ok(score('Tenant', '1.2 Tenant.') === 1);
  // Sharing only a generic word, or part of the label, is no match or a weak one.
  assert.equal(score('Accident Number', 'Serial Number:'), 0);
  assert.ok(score('Certificate', 'Airworthiness Certificate:') < 0.6);
  assert.equal(score('Registration', 'Aircraft Damage:'), 0);
});

test('form cells of a real NTSB report: the value beside its label, blanks stay blank', async () => {
  const structure = await structureOf(NTSB_FINAL);
  const results = extractProperties(structure, ['Accident Number', 'Serial Number', 'Seats', 'Certificate', 'Year of Manufacture', 'Model/Series'].map((l) => prop(l)), NONE);
  const [accident, serial, seats, certificate, year, model] = results;
  assert.equal(accident!.best?.value, 'SEA08CA039');
  assert.equal(accident!.best?.evidence.kind, 'form-cell');
  assert.ok(accident!.best!.confidence >= 0.9);
  assert.equal(accident!.best?.location?.page, 1);
  assert.equal(leafAt(structure, accident!.best!.anchor!.labelLeaf!).text, 'Accident Number:');
  assert.equal(serial!.best?.value, '18-3265');
  assert.equal(seats!.best?.value, '2');
  // "Airworthiness Certificate: Normal" is another field.
  assert.equal(certificate!.best?.value, 'Private');
  assert.equal(year!.best, null, 'Year of Manufacture is blank on the form');
  assert.equal(model!.best?.value, 'PA-18A-135', 'not the Engine Model/Series');

  // The factual report leaves Serial Number blank (the narrative mentions one): no value rather than a guess.
  const factual = extractOne(await structureOf(NTSB_FACTUAL), 'Serial Number');
  assert.equal(factual.best, null);
});

test('`Label: value` lines, several on one line, a label whose value is on the next line, a run-in label', async () => {
  // "Occurrence #1: ON GROUND/WATER COLLISION WITH OBJECT Phase of Operation: LANDING - ROLL" in the report.
  const phase = extractOne(await structureOf(NTSB_FINAL), 'Phase of Operation');
  assert.equal(phase.best?.value, 'LANDING - ROLL');
  assert.equal(phase.best?.evidence.kind, 'label-line');

  const doc = paragraphs(
    'Invoice No.: INV-2024-001 Customer: Acme Inc.',
    'Deliver to Landlord: (a) a statement of account.',
    'Due Date:',
    'March 3, 2025',
    '1.9 Lease Term. A term commencing on the Commencement Date and continuing for 96 full calendar months.',
  );
  const [invoice, customer, landlord, due, term] = extractProperties(doc, ['Invoice Number', 'Customer', 'Landlord', 'Due Date', 'Lease Term'].map((l) => prop(l)), NONE);
  assert.equal(invoice!.best?.value, 'INV-2024-001');
  assert.equal(customer!.best?.value, 'Acme Inc.');
  assert.equal(landlord!.best, null, 'a label word in prose is not a label');
  assert.equal(due!.best?.value, 'March 3, 2025');
  // A run-in label; "Term" asks for a duration, found in the definition's first sentence.
  assert.equal(term!.best?.value, '96 full calendar months');
});

test('sections whose heading names the property, on a contract', async () => {
  const structure = await structureOf(NDA);
  const [severability, disclosing, governing] = extractProperties(structure, [prop('Severability'), prop('Disclosing Party'), prop('Governing Law')], NONE);
  assert.match(severability!.best?.value ?? '', /^If a court finds any provision of this Agreement invalid or unenforceable/);
  assert.equal(severability!.best?.evidence.kind, 'section');
  // "Disclosing Party:" heads "Widget Corp., a Delaware corporation …": the party is the name.
  assert.equal(disclosing!.best?.value, 'Widget Corp.');
  assert.equal(governing!.best, null, 'the NDA has no governing-law clause');
});

test('typed fallbacks: the defined term in quotes, and a value of the label\'s type beside its words', async () => {
  const effective = extractOne(await structureOf(NDA), 'Effective Date');
  assert.equal(effective.best?.value, 'November 4, 2023');
  // Named by its defined term, which the prose finder reads as the words around the date too.
  assert.ok(['defined-term', 'prose'].includes(effective.best!.evidence.kind), effective.best!.evidence.kind);

  const doc = paragraphs('The works described in the annex will start soon.', 'Following approval, commencement is set for March 3, 2025 at the latest.');
  const commencement = extractOne(doc, 'Commencement Date');
  assert.equal(commencement.best?.value, 'March 3, 2025');
  assert.equal(commencement.best?.evidence.kind, 'prose');
  // A date alone, without the label's words near it, is only a candidate.
  const signing = extractOne(doc, 'Signing Date');
  assert.equal(signing.best, null);
  assert.deepEqual(signing.candidates.map((c) => c.value), ['March 3, 2025']);
  assert.ok(signing.candidates[0]!.confidence < BEST_THRESHOLD);
});

test('learning: a value found beside a label (or at a place) in one document is preferred in the next', async () => {
  const a = await structureOf(NTSB_FINAL);
  const b = await structureOf(NTSB_FINAL_2);
  // Found in A as "Registration"; the docset calls it "Tail Number", which no document says.
  const inA = extractOne(a, 'Registration').best!;
  assert.equal(inA.value, 'N3250B');
  assert.equal(extractOne(b, 'Tail Number').best, null, 'nothing to go on without the docset');
  const byLabel: DocsetKnowledge = { byProperty: new Map([['Tail Number', [{ value: inA.value, source: 'manual', evidence: inA.evidence }]]]) };
  assert.equal(extractOne(b, 'Tail Number', byLabel).best?.value, 'N13974');

  // Known only by position and shape (no label): the value at the same place with the same shape.
  const { labelText: _, ...placeOnly } = inA.evidence;
  const byPlace: DocsetKnowledge = { byProperty: new Map([['Tail Number', [{ value: inA.value, source: 'manual', evidence: placeOnly }]]]) };
  const learned = extractOne(b, 'Tail Number', byPlace).best;
  assert.equal(learned?.value, 'N13974');
  assert.equal(learned?.evidence.kind, 'learned');

  // A value a user typed in A, with the evidence worked out from where it sits in A.
  const manual = evidenceOfManualValue(a, 'N3250B');
  assert.equal(manual?.labelText, 'registration');
  const byHand: DocsetKnowledge = { byProperty: new Map([['Tail Number', [{ value: 'N3250B', source: 'manual', evidence: manual }]]]) };
  assert.equal(extractOne(b, 'Tail Number', byHand).best?.value, 'N13974');
});

test('tagProperties: whole-word spans, entity spans give way, label cells returned; DGML shows them', async () => {
  const structure = await structureOf(NTSB_FACTUAL);
  const defs = [prop('Accident Number'), prop('Date & Time')];
  const [accident, dateTime] = extractProperties(structure, defs, NONE);
  assert.equal(accident!.best?.value, 'DEN08WA037');
  assert.equal(dateTime!.best?.value, '11/28/2007, 1800 UTC');
  const labelLeaves = tagProperties(structure, [
    { labelId: 'AccidentNumber', value: accident!.best!.value, anchor: accident!.best!.anchor },
    { labelId: 'DateTime', value: dateTime!.best!.value, anchor: dateTime!.best!.anchor },
    // Set by hand: no anchor, found by its text in the Registration value cell.
    { labelId: 'Registration', value: 'N141CD', anchor: null },
  ]);
  const all = [...leaves(structure.nodes)];
  assert.deepEqual([...labelLeaves.entries()].map(([i, id]) => [all[i]!.text, id]).sort(), [
    ['Accident Number:', 'AccidentNumber'],
    ['Date & Time:', 'DateTime'],
    ['Registration:', 'Registration'],
  ]);
  const tagged = all.flatMap((leaf) => (leaf.spans ?? []).filter((s) => s.tag.kind === 'property').map((s) => ({ leaf, s })));
  for (const { leaf, s } of tagged) {
    assert.ok(s.start === 0 || /\s/.test(leaf.text[s.start - 1]!), `span starts a word in ${leaf.text}`);
    assert.ok(s.end === leaf.text.length || /\s/.test(leaf.text[s.end]!), `span ends a word in ${leaf.text}`);
  }
  // The date inside "11/28/2007, 1800 UTC" may nest; nothing may cross the property's edges.
  for (const { leaf, s } of tagged) {
    for (const o of leaf.spans!) {
      if (o === s) continue;
      const crosses = o.start < s.end && o.end > s.start && !(o.start >= s.start && o.end <= s.end && (o.start > s.start || o.end < s.end));
      assert.ok(!crosses, `${leaf.text}: ${JSON.stringify(o)} crosses ${JSON.stringify(s)}`);
    }
  }

  const cells = cellsByLeafIndex(structure.nodes);
  const labelCells = new Map<TableCell, string>([...labelLeaves].map(([i, id]) => [cells.get(i)!, id]));
  const xml = renderDgml(structure, { workspace: 'w', docsetName: 'NTSB', version: 'test', labelCells });
  assert.match(xml, /<docset:AccidentNumber>DEN08WA037<\/docset:AccidentNumber>/);
  assert.match(xml, /<docset:AccidentNumber-cell>Accident Number:<\/docset:AccidentNumber-cell>/);
  assert.match(xml, /<docset:Registration>N141CD<\/docset:Registration>/);
});

test('tagProperties: an entity span crossing the value gives way, one inside it stays', () => {
  const doc = paragraphs('Paid to Acme Corp on 5 May 2024 by wire.');
  const leaf = (doc.nodes[0] as { leaf: Leaf }).leaf;
  const text = leaf.text;
  const range = (s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length });
  leaf.spans = [
    { ...range('Acme Corp on 5'), tag: { kind: 'entity', type: 'Org' } },
    { ...range('5 May 2024'), tag: { kind: 'entity', type: 'Date' } },
    { ...range('wire.'), tag: { kind: 'entity', type: 'Org' } },
  ];
  const value = { labelId: 'Payment', value: 'on 5 May 2024 by', anchor: null };
  tagProperties(doc, [value]);
  const shown = () => leaf.spans!.map((s) => [text.slice(s.start, s.end), s.tag.kind === 'entity' ? s.tag.type : s.tag.kind === 'property' ? s.tag.labelId : s.tag.name]);
  assert.deepEqual(shown(), [
    ['on 5 May 2024 by', 'Payment'],
    ['5 May 2024', 'Date'],
    ['wire.', 'Org'],
  ]);
  // Tagging again replaces the property span rather than adding a second one.
  tagProperties(doc, [value]);
  assert.equal(leaf.spans.filter((s) => s.tag.kind === 'property').length, 1);
});

/** A one-page document of sections, each a heading over one body paragraph, entities tagged as the pipeline does. */
function sections(...pairs: [heading: string, body: string][]): StructureModel {
  const box = (i: number) => [{ page: 1, left: 300, top: 300 + 100 * i, width: 1800, height: 50 }];
  const structure: StructureModel = {
    version: 1,
    pages: [{ number: 1, width: 2550, height: 3300 }],
    paginated: true,
    ocrPages: [],
    nodes: pairs.map(([heading, body], i) => ({
      type: 'section',
      level: 1,
      heading: { text: heading, boxes: box(2 * i) },
      children: [{ type: 'paragraph', structure: 'p', role: 'body', leaf: { text: body, boxes: box(2 * i + 1) } }],
    })),
  };
  tagEntities(structure.nodes);
  return structure;
}

test('prose: each party opens the clause its defined term closes, durations named by the label\'s head word', () => {
  const doc = paragraphs(
    'This Supply Agreement is made as of March 3, 2024 (the "Effective Date") by and between Bellweather Tools Co., a partnership with offices at 12 Harbor Street, Portland, ME 04101 (the "Supplier"), and Acme Widgets LLC, a corporation with offices at 400 Main Street, Austin, TX 78701 (the "Purchaser").',
    'The agreement runs for an initial term of three (3) years. Invoices are paid within 30 days of receipt.',
    'Confidentiality obligations last for a period of five (5) years after the agreement ends.',
    'Notices sent on the date of June 1, 2024 take effect on receipt.',
    'The code applies as adopted in the State of Florida, though the goods ship from Texas.',
  );
  const [supplier, purchaser, term, period, signing, state] = extractProperties(doc, ['Supplier', 'Purchaser', 'Term', 'Confidentiality Period', 'Signing Date', 'State'].map((l) => prop(l)), NONE);
  assert.equal(supplier!.best?.value, 'Bellweather Tools Co.');
  assert.ok(['defined-term', 'prose'].includes(supplier!.best!.evidence.kind), supplier!.best!.evidence.kind);
  assert.equal(supplier!.best?.evidence.labelText, 'supplier');
  // Not the first party of the sentence: the one after the previous defined term.
  assert.equal(purchaser!.best?.value, 'Acme Widgets LLC');
  assert.equal(term!.best?.value, 'three (3) years', '"a term of …", not "30 days"');
  assert.equal(period!.best?.value, 'five (5) years', '"… for a period of …", not the term');
  // "the date of …" names a date, but not this one: the label's other word is not there.
  assert.equal(signing!.best, null);
  // "State of Florida" is a name, not the label "State" naming a value.
  assert.equal(state!.best, null);
});

test('sections and label lines: the governing state, a name before its address, an amount "due"', () => {
  const doc = sections(
    ['Governing Law', 'This Agreement is governed by the laws of the State of Oregon, without regard to its conflict of laws rules.'],
    ['Seller', 'Bellweather Tools Co., 12 Harbor Street, Portland, ME 04101'],
    ['Totals', 'Total Amount Due: USD 1,250.00'],
  );
  const [law, seller, total] = extractProperties(doc, ['Governing Law', 'Seller', 'Total Amount'].map((l) => prop(l)), NONE);
  assert.equal(law!.best?.value, 'Oregon');
  assert.equal(seller!.best?.value, 'Bellweather Tools Co.');
  assert.equal(total!.best?.value, 'USD 1,250.00');
  assert.ok(total!.best!.confidence >= 0.9, 'a trailing "Due" does not make "Total Amount Due" another field');
  const score = (label: string, text: string) => labelScore(makeQuery(prop(label), []), text);
  assert.ok(score('Lessee', 'Lessee Address:') < BEST_THRESHOLD, 'a trailing noun still names another field');
});
