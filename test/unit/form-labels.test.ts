/**
 * A form's values named by their labels (src/ingest/stages/form-labels.ts): the NTSB reference PDFs
 * against Docugami's own DGML of them (the value beside each "Label:" cell carries the label's name in
 * both), a DOCX form through its native table, records under a header row (the reference lease's rent
 * schedule), lines of fields (in text, in cells, set as headings),
 * and tables built by hand for what is no field: a
 * table's header row, a row label over several figures, two phrases run together, a blank field's
 * defined term, a sentence run on from elsewhere, a value a property or a name already holds. A
 * property over the same words replaces the found name.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { leaves, type StructureModel, type StructureNode, type Table, type TableCell } from '../../src/document/structure.js';
import { tagProperties } from '../../src/document/tag.js';
import { renderDgml } from '../../src/document/writers/dgml.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { tagFormValues } from '../../src/ingest/stages/form-labels.js';
import { bareLabelLines } from '../../src/document/form-fields.js';
import { CORPUS } from '../helpers/quire.js';

const CTX = { workspace: 'default', docsetName: 'forms', version: 'test' };

/** Each `td` of a DGML file: its text and the name of the `docset` element that opens it, if any. */
function cells(xml: string): { text: string; name: string | null }[] {
  return [...xml.matchAll(/<xhtml:td\b[^>]*>([\s\S]*?)<\/xhtml:td>/g)].map((m) => ({
    text: m[1]!.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim(),
    name: /^\s*<docset:([\w.-]+)/.exec(m[1]!)?.[1] ?? null,
  }));
}

/** "Label:" cells and the name of the value cell after each, in document order. */
function fields(xml: string): { label: string; name: string | null }[] {
  const tds = cells(xml);
  return tds.flatMap((td, i) => {
    const next = tds[i + 1];
    return td.text.endsWith(':') && next?.text && !next.text.endsWith(':') ? [{ label: td.text, name: next.name }] : [];
  });
}

async function dgmlOf(file: string): Promise<{ xml: string; structure: StructureModel }> {
  const { structure } = await analyzeDocument(await readDocument(fs.readFileSync(file), path.extname(file).slice(1) as 'pdf' | 'docx'), { ocrBudgetMs: 0 });
  return { xml: renderDgml(structure, CTX), structure };
}

/** A text file's structure, analysed as an upload's is. */
async function textStructure(text: string): Promise<StructureModel> {
  return (await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 })).structure;
}

/** Every found name in a structure, `name=value`. */
function foundNames(structure: StructureModel): string[] {
  return [...leaves(structure.nodes)].flatMap((l) => (l.spans ?? []).filter((s) => s.tag.kind === 'label').map((s) => `${(s.tag as { name: string }).name}=${l.text.slice(s.start, s.end)}`));
}

/** The headings of every section, nested ones too, in document order. */
function headingsOf(nodes: readonly StructureNode[]): string[] {
  return nodes.flatMap((n) => (n.type === 'section' ? [n.heading.text, ...headingsOf(n.children)] : []));
}

const cell = (text: string, role?: TableCell['role']): TableCell => ({ leaf: { text, boxes: [] }, colspan: 1, rowspan: 1, boxes: [], ...(role ? { role } : {}) });
const table = (rows: TableCell[][], source: Table['source'] = 'native'): Table => ({ type: 'table', rows: rows.map((cells) => ({ cells, boxes: [] })), boxes: [], source });
/** The found names of a table's cells, `name=value`, after the stage ran. */
function named(nodes: StructureNode[]): string[] {
  tagFormValues(nodes);
  const out: string[] = [];
  const walk = (list: readonly StructureNode[]) => {
    for (const n of list) {
      if (n.type === 'table') for (const r of n.rows) for (const c of r.cells) for (const s of c.leaf.spans ?? []) if (s.tag.kind === 'label') out.push(`${s.tag.name}=${c.leaf.text.slice(s.start, s.end)}`);
      if (n.type === 'section') walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

describe('form values named by their labels', () => {
  test("the NTSB reports: the value beside each label carries the label's name, as in Docugami's DGML of the same PDFs", async () => {
    let total = 0;
    let same = 0;
    for (const base of ['20071210X01921', '20071204X01896']) {
      const dir = path.join(CORPUS, 'reference-dgml');
      const theirs = fields(fs.readFileSync(path.join(dir, `${base}.xml`), 'utf8')).filter((f) => f.name && !f.name.endsWith('-cell'));
      const ours = new Map(fields((await dgmlOf(path.join(dir, `${base}.pdf`))).xml).map((f) => [f.label.replace(/\s+:/g, ':').toLowerCase(), f.name?.toLowerCase()]));
      for (const f of theirs) {
        total++;
        if (ours.get(f.label.replace(/\s+:/g, ':').toLowerCase()) === f.name!.toLowerCase()) same++;
      }
    }
    assert.ok(total >= 80, `${total} named fields in the reference`);
    assert.ok(same / total >= 0.85, `${same} of ${total}`);
    console.log(`# reference form value names reproduced: ${same} of ${total}`);
    const { xml } = await dgmlOf(path.join(CORPUS, 'reference-dgml/20071210X01921.pdf'));
    assert.match(xml, /<docset:Registration>N3250B<\/docset:Registration>/);
    assert.match(xml, /<docset:DateTime><dg:chunk xsi:type="date">11\/24\/2007<\/dg:chunk>, 1030 PST<\/docset:DateTime>/, 'an entity inside the value nests in its name');
    assert.match(xml, /<docset:AircraftDamage>Substantial<\/docset:AircraftDamage>/);
    assert.match(xml, /<xhtml:td [^>]*>Registration:<\/xhtml:td>/, 'the label cell is left as written');
  });

  test('a DOCX form through its native table: "Name:" | "Jean Paoli"', async () => {
    const { xml } = await dgmlOf(path.join(CORPUS, 'office/NDA simple layout.docx'));
    assert.match(xml, /<docset:Name>(?:<dgc:Person>)?Jean Paoli(?:<\/dgc:Person>)?<\/docset:Name>/);
    assert.match(xml, /<docset:Title>CEO<\/docset:Title>/);
    // The signature table's row of parties ("DOCUGAMI INC.:" | "Caleb Divine:"): a person's name heads a column, it is no blank field.
    assert.doesNotMatch(xml, /CalebDivine-cell/);
    assert.match(xml, /<docset:Title-cell>Title:<\/docset:Title-cell>/);
  });

  test('fields in rows of label, value, label, value; the punctuation closing a value left out, an abbreviation kept', () => {
    const nodes: StructureNode[] = [
      table([
        [cell('Aircraft Make:'), cell('Cirrus Design Corp.'), cell('Date & Time:'), cell('11/28/2007, 1800 UTC')],
        [cell('Seats:'), cell('2'), cell('Last 90 Days:'), cell('38')],
        [cell('Registration:'), cell(''), cell('Engines:'), cell('1 Reciprocating.')],
      ]),
    ];
    // A blank field's label cell is named itself, `-cell`, as Docugami's DGML names one.
    assert.deepEqual(named(nodes), ['AircraftMake=Cirrus Design Corp.', 'DateTime=11/28/2007, 1800 UTC', 'Seats=2', 'Last90Days=38', 'Registration-cell=Registration:', 'Engines=1 Reciprocating']);
    // A form the table stage found by its geometry: its roles say which cells are labels, colons or not.
    assert.deepEqual(named([table([[cell('Operator', 'label'), cell('On file', 'value')]], 'form')]), ['Operator=On file']);
  });

  test("a blank field's label cell is named with -cell, as in Docugami's DGML of the NTSB reports; a row label over a table's figures is not", async () => {
    // The two reference reports: Docugami names 49 blank fields' label cells `…-cell`; Quire names most of them the same.
    let total = 0;
    let same = 0;
    for (const base of ['20071210X01921', '20071204X01896']) {
      const dir = path.join(CORPUS, 'reference-dgml');
      const theirs = new Set([...fs.readFileSync(path.join(dir, `${base}.xml`), 'utf8').matchAll(/<docset:([\w.-]+-cell)\b/g)].map((m) => m[1]!.toLowerCase()));
      const ours = new Set([...(await dgmlOf(path.join(dir, `${base}.pdf`))).xml.matchAll(/<docset:([\w.-]+-cell)\b/g)].map((m) => m[1]!.toLowerCase()));
      total += theirs.size;
      same += [...theirs].filter((n) => ours.has(n)).length;
    }
    assert.ok(total >= 40, `${total} blank fields in the reference`);
    assert.ok(same / total >= 0.85, `${same} of ${total}`);
    console.log(`# reference blank-field names reproduced: ${same} of ${total}`);
    const { xml } = await dgmlOf(path.join(CORPUS, 'reference-dgml/20071210X01921.pdf'));
    assert.match(xml, /<docset:YearofManufacture-cell>Year of Manufacture:<\/docset:YearofManufacture-cell>/);
    // A label alone in a row of a table of figures heads the rows under it.
    assert.deepEqual(named([table([[cell('Net sales:'), cell(''), cell(''), cell('')], [cell('Products'), cell('$ 81,797'), cell('$ 82,959'), cell('')]])]), []);
    // Two parties' columns of a signature table: each label is a blank field, neither is the other's value.
    assert.deepEqual(named([table([[cell('Signature:'), cell('Signature:')]])]), ['Signature-cell=Signature:', 'Signature-cell=Signature:']);
    // A form's label with nothing after it in its row, and one beside another label.
    assert.deepEqual(named([table([[cell('Seat Occupied:', 'label')], [cell('Flight Time:'), cell('Seats:'), cell('2')]], 'form')]), ['SeatOccupied-cell=Seat Occupied:', 'FlightTime-cell=Flight Time:', 'Seats=2']);
  });

  test('no field: a header row, a row label over several figures, two phrases run together, a defined term, a sentence run on, a label of many words', () => {
    const rows = [
      [cell('COVERAGE EXTENSION:'), cell('LIMITS OF INSURANCE'), cell(''), cell('REVISED LIMITS OF INSURANCE')],
      [cell('Net sales:'), cell('$ 81,797'), cell('$ 82,959')],
      [cell('Solutions : DOS Lead Agency', 'label'), cell('Decision Makers', 'value')],
      [cell('Name:', 'label'), cell('(the “Participant”)', 'value')],
      [cell('Foreign Affairs Community :', 'label'), cell('organizations’ carbon emissions.', 'value')],
      [cell('The following amounts are due and payable on the dates shown below:'), cell('$5,000')],
      [cell('12:'), cell('Twelve')],
    ];
    assert.deepEqual(named([table(rows)]), []);
  });

  test("records under a header row: each cell by its column's header, as Docugami names the reference lease's rent schedule", async () => {
    const { xml } = await dgmlOf(path.join(CORPUS, 'reference-dgml/Shorebucks LLC_AZ.pdf'));
    assert.match(xml, /<docset:RatePSFPerAnnum><dgc:Money>\$26\.99<\/dgc:Money><\/docset:RatePSFPerAnnum>/);
    assert.match(xml, /<docset:MonthlyBaseRent>(?:<dgc:Money>)?\$36,344\.28(?:<\/dgc:Money>)?<\/docset:MonthlyBaseRent>/);
    assert.match(xml, /<docset:Period>Months 1 – 12<\/docset:Period>/);
    const rows = (...r: string[][]) => r.map((cells) => cells.map((t) => cell(t)));
    assert.deepEqual(named([table(rows(['Term Year', 'Monthly Rent'], ['First', '$26,000.00'], ['Second', '$26,780.00']))]), [
      'TermYear=First',
      'MonthlyRent=$26,000.00',
      'TermYear=Second',
      'MonthlyRent=$26,780.00',
    ]);
    // No header: a list of names (no column of values), figures under dates, a first row with a figure or a blank, a header of the same words twice.
    assert.deepEqual(named([table(rows(['John Smith', 'Project Manager'], ['Lisa White', 'Lead Developer']))]), []);
    assert.deepEqual(named([table(rows(['', 'Three Months Ended'], ['Net sales', '$ 117,154']))]), []);
    assert.deepEqual(named([table(rows(['California', '94-2404110'], ['Delaware', '77-0000000']))]), []);
    assert.deepEqual(named([table(rows(['Total', 'Total'], ['1', '2']))]), []);
    // A row of another shape is no record of the header's; a passage is no field.
    assert.deepEqual(named([table(rows(['Description', 'Number'], ['Actual', '5', '6'], ['Reduce emissions in all of the agency’s buildings by the end of the fiscal year 2026', '7']))]), ['Number=7']);
  });

  test('lines of fields: "Label: value" in a paragraph, a cell or a line set as a heading; a value with no figure or entity only where the label says its kind', async () => {
    const text =
      'Print Name: James Carter\n\nEmail: carter@daltech.com\n\nFixed Price: $374,000 Start Date: 03/15/2021 End Date: 07/01/2021\n\n' +
      'Title: President FP1-11 LLC, a Delaware limited liability company\n\nNote: the Supplier shall deliver all goods on time.\n\n' +
      'Status: Pending\n\nThe parties agree to the following terms: each party shall bear its own costs in full.\n';
    const structure = await textStructure(text);
    const found = foundNames(structure);
    for (const f of ['PrintName=James Carter', 'Email=carter@daltech.com', 'StartDate=03/15/2021', 'EndDate=07/01/2021', 'Title=President']) assert.ok(found.includes(f), `${f} in ${found.join(', ')}`);
    assert.ok(!found.some((f) => /^(?:Note|Status|Terms|TheParties)/.test(f)), found.join(', '));
    // The agency reports' covers: the fields are set large, as headings.
    const { xml } = await dgmlOf(path.join(CORPUS, 'kgrag/us-fed-agency-reports/GSA2022.pdf'));
    assert.match(xml, /<docset:StartDate><dg:chunk xsi:type="date">2021-10-01<\/dg:chunk><\/docset:StartDate>/);
    assert.match(xml, /<docset:PublicationDate><dg:chunk xsi:type="date">2022-04-13<\/dg:chunk><\/docset:PublicationDate>/);
    // A signature table's cells, each a whole field.
    const daltech = (await dgmlOf(path.join(CORPUS, 'office/Master Services Agreement - Daltech.docx'))).xml;
    assert.match(daltech, /<docset:PrintTitle>CTO<\/docset:PrintTitle>/);
    assert.match(daltech, /<docset:Email>(?:<dgc:Email>)?carter@daltech\.com/);
  });

  test('fields set one per line, each label over its value (a form as text extraction lays it out): the value is named by its label, neither line is a heading or a clause', async () => {
    const text =
      'Vessel and Owner Information\n\n   Vessel Make:\n\n   Beneteau Group Ltd.\n\n      Hull Number:\n\n    BX2207K\n\n   Vessel Type:\n\n   Sailboat\n\n' +
      '      Year Built:\n\n   Engine Count:\n\n   Two\n\n   Registered Owner:\n\n   Rated Output:\n\n   Notes:\n\n   The hull was inspected in March and again in May.\n\n' +
      'Tenant By:\n\nACKNOWLEDGMENTS\n\nThe signatures above were witnessed by the undersigned notary public.\n';
    const structure = await textStructure(text);
    const found = foundNames(structure);
    for (const f of ['VesselMake=Beneteau Group Ltd.', 'HullNumber=BX2207K', 'VesselType=Sailboat', 'EngineCount=Two']) assert.ok(found.includes(f), `${f} in ${found.join(', ')}`);
    // A label over the next label is a blank field; no name goes to a label line, nor to a sentence under "Notes:".
    assert.ok(!found.some((f) => /^(?:YearBuilt|RegisteredOwner\w*|Notes)=/.test(f)), found.join(', '));
    const headings = headingsOf(structure.nodes);
    const clauses: string[] = [];
    const walk = (nodes: StructureNode[]): void => {
      for (const n of nodes) {
        if (n.type === 'section') walk(n.children);
        else if (n.type === 'paragraph' && n.clause) clauses.push(n.clause);
      }
    };
    walk(structure.nodes);
    // "BX2207K" under its label is a value, not a heading; "ACKNOWLEDGMENTS" under a signature's "By:" still heads its text.
    assert.deepEqual(headings, ['ACKNOWLEDGMENTS']);
    assert.ok(!clauses.some((c) => /Beneteau|BX2207K|Sailboat|VesselMake|HullNumber/.test(c)), clauses.join(', '));
    // A title in capitals under a label is a column's head or a heading, not the label's value.
    const heads = await textStructure('COVERAGE EXTENSION:\n\nLIMITS OF INSURANCE\n\nThe limits below apply to each building.\n');
    const titles = headingsOf(heads.nodes);
    assert.ok(titles.includes('LIMITS OF INSURANCE'), titles.join(', '));
    assert.deepEqual(foundNames(heads), []);
  });

  test('fields set one per line without colons: a label in title case over a value with a figure or in capitals, three times or more; a table of contents is no form', async () => {
    const text =
      'Watercraft\n\n   Policy Number\n\n      MW-2207\n\n   Policy Period\n\n      01/15/2024 – 01/15/2025\n\n   Insuring Company\n\n      HARBOR MUTUAL MARINE INSURANCE COMPANY\n\n' +
      '   Hull Deductible\n\n      $2,500\n\n   Towing Coverage\n\n      YES\n\n   Racing Exclusion\n\n      NO\n';
    const structure = await textStructure(text);
    const found = foundNames(structure);
    for (const f of ['PolicyNumber=MW-2207', 'PolicyPeriod=01/15/2024 – 01/15/2025', 'InsuringCompany=HARBOR MUTUAL MARINE INSURANCE COMPANY', 'HullDeductible=$2,500', 'TowingCoverage=YES', 'RacingExclusion=NO']) {
      assert.ok(found.includes(f), `${f} in ${found.join(', ')}`);
    }
    // The values in capitals are values, not headings; a label line is no clause's title.
    assert.deepEqual(headingsOf(structure.nodes), []);
    const clauses = structure.nodes.flatMap((n) => (n.type === 'paragraph' && n.clause ? [n.clause] : []));
    assert.ok(!clauses.some((c) => /PolicyNumber|PolicyPeriod|InsuringCompany|TowingCoverage/.test(c)), clauses.join(', '));
    // Titles over their pages, each on its own line, name nothing.
    assert.deepEqual(foundNames(await textStructure('Contents\n\nDefinitions\n\n1\n\nPremises\n\n2\n\nTerm of Lease\n\n5\n\nRent\n\n7\n')), []);
    // Many short forms in a row are read in one walk.
    const cycle = ['Fee', '$1', 'Tax', '$2', 'Levy', '$3', 'see below'];
    const start = performance.now();
    assert.equal(bareLabelLines(Array.from({ length: 300_000 }, (_, i) => cycle[i % cycle.length]!)).size, 128_571);
    assert.ok(performance.now() - start < 2_000, `${performance.now() - start} ms`);
  });

  test("a form's number or an address in capitals is no heading in text; a title in capitals still is", async () => {
    const text = 'NUCLEAR HAZARD EXCLUSION\n\nXK 00 21 09 08\n\nThis endorsement changes the policy.\n\n1200 ELM ST, DALLAS, TX 75201\n\nOffice building of four floors\n';
    assert.deepEqual(headingsOf((await textStructure(text)).nodes), ['NUCLEAR HAZARD EXCLUSION']);
  });

  test('a value a property or another name already holds keeps it; a property over a found name replaces it', () => {
    const held = cell('Jean Paoli');
    held.leaf.spans = [{ start: 0, end: 10, tag: { kind: 'property', labelId: 'SignerName' } }];
    assert.deepEqual(named([table([[cell('Name:'), held]])]), []);
    const structure: StructureModel = { version: 1, pages: [], paginated: false, nodes: [table([[cell('Aircraft Damage:'), cell('Destroyed')]])], ocrPages: [] };
    assert.deepEqual(named(structure.nodes), ['AircraftDamage=Destroyed']);
    tagProperties(structure, [{ labelId: 'Damage', value: 'Destroyed', anchor: null }]);
    const xml = renderDgml(structure, CTX);
    assert.match(xml, /<docset:Damage>Destroyed<\/docset:Damage>/);
    assert.doesNotMatch(xml, /AircraftDamage/);
  });
});
