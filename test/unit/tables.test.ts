import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { readPdfPages } from '../../src/ingest/readers/pdf/pdf.js';
import type { PageModel } from '../../src/document/pages.js';
import { detectTables, type PageTables } from '../../src/ingest/stages/tables.js';
import { normalizeSpace, wordsOf, type Table } from '../../src/document/structure.js';
import { cleanItemText } from '../../src/ingest/stages/layout/text.js';

const REFERENCE = '../shared/corpus/reference-dgml';
const PROPOSAL = '../shared/corpus/pdf/A - Package Proposal.pdf';
const NTSB_PAIR = ['20071204X01896', '20071210X01921'];
const OTHER_PAIRS = [
  { pdf: 'Jane Doe NDA.pdf', xml: 'Jane Doe.xml' },
  { pdf: 'Shorebucks LLC_AZ.pdf', xml: 'Shorebucks LLC_AZ.xml' },
];
const TWO_COLUMN = { file: '../shared/corpus/kgrag/us-fed-agency-reports/DHS2020.pdf', page: 5 };
const KGRAG_NTSB = '../shared/corpus/kgrag/ntsb-aviation-incident-accident-reports';
const TEN_Q = '../shared/corpus/kgrag/sec-10-q/2022 Q3 AAPL.pdf';

interface Analysed {
  pages: PageModel[];
  results: PageTables[];
}

/** A text item of a synthetic page (300-DPI pixels). */
function textItem(text: string, x: number, y: number, width: number, height: number, fontName: string): PageModel['items'][number] {
  return { text, x, y, width, height, fontName, fontSize: 10 };
}

const cache = new Map<string, Promise<Analysed>>();
function analyse(file: string): Promise<Analysed> {
  let a = cache.get(file);
  if (!a) {
    a = readPdfPages(new Uint8Array(fs.readFileSync(file))).then((pages) => ({ pages, results: pages.map(detectTables) }));
    cache.set(file, a);
  }
  return a;
}

function referenceXml(name: string): string {
  return fs.readFileSync(`${REFERENCE}/${name}`, 'utf8');
}

function referenceTableCount(xml: string): number {
  return xml.match(/<xhtml:table/g)?.length ?? 0;
}

function tableCount(a: Analysed): number {
  return a.results.reduce((n, r) => n + r.tables.length, 0);
}

/** The text of the reference's cell after the `td` holding `label` (tags stripped). */
function referenceValueAfter(xml: string, label: string): string {
  const cells = [...xml.matchAll(/<xhtml:td\b[^>]*>([\s\S]*?)<\/xhtml:td>/g)].map((m) => normalizeSpace(m[1]!.replace(/<[^>]*>/g, ' ')));
  const k = cells.findIndex((c) => c === label);
  assert.ok(k >= 0 && k + 1 < cells.length, `the reference has a "${label}" cell`);
  return cells[k + 1]!;
}

function within(found: number, expected: number, share: number): boolean {
  return Math.abs(found - expected) <= share * expected;
}

/**
 * Each consumed item's text (cleaned as for reading: a ligature letter is its two letters) appears
 * exactly once across the page's table cells, and nothing else does (compared as characters: "iPhone"
 * and "®" are one word in a cell).
 */
function assertConsumedOnce(page: PageModel, result: PageTables): void {
  for (const i of result.consumed) assert.ok(Number.isInteger(i) && i >= 0 && i < page.items.length, `index ${i} is a valid item of page ${page.number}`);
  const characters = (texts: string[]): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const ch of texts.flatMap((text) => [...wordsOf(text).join('')])) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    return counts;
  };
  const fromItems = characters([...result.consumed].map((i) => cleanItemText(page.items[i]!.text)));
  const fromCells = characters(result.tables.flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.leaf.text))));
  const differ = [...new Set([...fromItems.keys(), ...fromCells.keys()])].filter((ch) => fromItems.get(ch) !== fromCells.get(ch));
  assert.deepEqual(
    differ.map((ch) => `${ch}: ${fromCells.get(ch) ?? 0} in cells, ${fromItems.get(ch) ?? 0} in items`),
    [],
    `page ${page.number}: cells hold exactly the consumed items`,
  );
  // Items outside every table stay outside; items inside one are consumed.
  page.items.forEach((it, i) => {
    if (it.height < 10) return; // invisible anchors are not text a table needs
    const x = it.x + it.width / 2;
    const y = it.y + it.height / 2;
    const inTable = result.tables.some((t) => t.boxes.some((b) => x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height));
    assert.equal(result.consumed.has(i), inTable, `page ${page.number} item ${i} "${it.text}": consumed iff inside a table`);
  });
}

function assertWellFormed(table: Table, page: number): void {
  assert.ok(table.rows.length >= 2, 'a table has rows');
  const columns = (r: number): number => {
    let n = 0;
    table.rows.forEach((row, k) => {
      for (const c of row.cells) if (k <= r && k + c.rowspan > r) n += c.colspan;
    });
    return n;
  };
  const width = columns(0);
  table.rows.forEach((_, r) => assert.equal(columns(r), width, `page ${page}: row ${r} covers as many grid columns as the first`));
  for (const row of table.rows) {
    for (const cell of row.cells) {
      assert.equal(cell.boxes[0]!.page, page);
      assert.ok(cell.boxes[0]!.width > 0 && cell.boxes[0]!.height > 0, 'cell boxes are not empty');
    }
  }
}

describe('tables: NTSB reference reports', () => {
  for (const name of NTSB_PAIR) {
    it(`${name}: as many tables as the reference (±25%), key/value cells apart`, async () => {
      const xml = referenceXml(`${name}.xml`);
      const a = await analyse(`${REFERENCE}/${name}.pdf`);
      const expected = referenceTableCount(xml);
      const found = tableCount(a);
      assert.ok(within(found, expected, 0.25), `${found} tables, reference ${expected}`);

      const value = referenceValueAfter(xml, 'Accident Number:');
      const rows = a.results.flatMap((r) => r.tables.flatMap((t) => t.rows));
      const row = rows.find((r) => r.cells.some((c) => c.leaf.text === 'Accident Number:'));
      assert.ok(row, 'a row holds the "Accident Number:" label');
      const k = row.cells.findIndex((c) => c.leaf.text === 'Accident Number:');
      assert.equal(row.cells[k]!.role, 'label');
      assert.equal(row.cells[k + 1]?.leaf.text, value, 'the value is the next cell of the same row');
      assert.equal(row.cells[k + 1]?.role, 'value');
      assert.ok(a.results.flatMap((r) => r.tables).every((t) => t.source === 'form'), 'NTSB tables are key/value forms');
    });
  }

  it('ruled grids come from the drawn cell rectangles (page 2 of the reports)', async () => {
    const a = await analyse(`${REFERENCE}/${NTSB_PAIR[1]}.pdf`);
    const page = a.pages[1]!;
    assert.ok(page.rules && page.rules.length > 20, 'page 2 draws its table cells');
    for (const r of page.rules) assert.ok(r.x >= -1 && r.y >= -1 && r.x + r.width <= page.width + 1 && r.y + r.height <= page.height + 1, 'rules are in page pixels');
    const make = a.results[1]!.tables.flatMap((t) => t.rows).find((r) => r.cells.some((c) => c.leaf.text === 'Aircraft Make:'));
    assert.ok(make, 'the aircraft table is found');
    assert.deepEqual(
      make.cells.map((c) => c.leaf.text),
      ['Aircraft Make:', referenceValueAfter(referenceXml(`${NTSB_PAIR[1]}.xml`), 'Aircraft Make :'), 'Registration:', 'N3250B'],
    );
  });

  it('every consumed item is in exactly one cell, on every page of the corpus NTSB reports', async () => {
    const files = [...NTSB_PAIR.map((n) => `${REFERENCE}/${n}.pdf`), ...fs.readdirSync(KGRAG_NTSB).map((f) => `${KGRAG_NTSB}/${f}`)];
    for (const file of files) {
      const a = await analyse(file);
      a.pages.forEach((p, k) => {
        assertConsumedOnce(p, a.results[k]!);
        for (const t of a.results[k]!.tables) assertWellFormed(t, p.number);
      });
      assert.ok(tableCount(a) >= 5, `${file}: the form tables are found`);
    }
  });
});

describe('tables: other documents', () => {
  for (const pair of OTHER_PAIRS) {
    it(`${pair.pdf}: tables found vs the reference, items consumed once`, async (t) => {
      const a = await analyse(`${REFERENCE}/${pair.pdf}`);
      const expected = referenceTableCount(referenceXml(pair.xml));
      t.diagnostic(`${pair.pdf}: ${tableCount(a)} tables, reference ${expected}`);
      assert.ok(tableCount(a) >= 1, 'its tables are not all missed');
      a.pages.forEach((p, k) => {
        assertConsumedOnce(p, a.results[k]!);
        for (const tb of a.results[k]!.tables) assertWellFormed(tb, p.number);
      });
    });
  }

  it("the package proposal's schedules of forms: a column of titles and one of form numbers under small-capital labels, a table each", async () => {
    const a = await analyse(PROPOSAL);
    const schedules = a.results.flatMap((r) => r.tables).filter((t) => t.rows[0]!.cells.map((c) => c.leaf.text).join('|') === 'DESCRIPTION|FORM NUMBER');
    assert.deepEqual(
      schedules.map((t) => t.rows.length - 1),
      [19, 18, 19],
      'pages 17–19, a row a form under the labels',
    );
    for (const t of schedules) {
      assert.ok(t.rows.slice(1).every((r) => r.cells.length === 2 && /^[A-Z]{2} [A-Z0-9]{2} \d\d \d\d \d\d$/.test(r.cells[1]!.leaf.text)), JSON.stringify(t.rows.map((r) => r.cells.map((c) => c.leaf.text))));
    }
    assert.deepEqual(schedules[1]!.rows[6]!.cells.map((c) => c.leaf.text), ['TOTAL AGGR LIMIT & DESIG LOC AGGR LIMIT', 'CG D3 74 02 19']);
  });

  it('the package proposal: schedules ruled between their rows only are tables, a row per ruled band, however many lines its cells wrap over', async () => {
    const a = await analyse(PROPOSAL);
    const texts = (page: number) => a.results[page - 1]!.tables.map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    // Page 15: the premium schedule, its descriptions wrapped over up to eight lines.
    const [schedule] = texts(15);
    assert.ok(schedule, 'a table on page 15');
    assert.ok(schedule.every((cells) => cells.length === 8), JSON.stringify(schedule));
    assert.deepEqual(schedule[3], ['TX', '6/9', '46606', "PARKING - PUBLIC - SHOPPING CENTERS - MAINTAINED BY THE LESSEE (LESSOR'S RISK ONLY)", 'Prem/Ops.', '22,445', '18.168', '$408']);
    assert.equal(schedule.filter((cells) => cells[0] === 'TX').length, 10, 'ten locations on the page');
    // Page 7: one ruled row under its column headings; the lines below the last rule are not in it.
    assert.deepEqual(texts(7), [
      [
        ['PREMISES LOCATION NO.', 'BUILDING NO.', 'LIMITS OF INSURANCE'],
        ['2-13', '2-19', '$9,038,112'],
      ],
    ]);
    // Page 4: the blanket limit, and the schedule whose spacer row (ruled, blank) does not end it; the
    // title under the first table's last rule is no row of it.
    const [blanket, additional] = texts(4);
    assert.deepEqual(blanket, [
      ['BLANKET DESCRIPTION OF COVERAGE OR PROPERTY', 'LIMITS OF INSURANCE'],
      ['Buildings', '$111,158,795'],
    ]);
    assert.deepEqual(additional?.slice(2), [
      ['At any “exhibition” premises', 'Not Covered'],
      ['At any installation premises or temporary storage premises', 'Not Covered'],
      ['At any other not owned, leased or regularly operated premises', '$25,000'],
      ['Personal Property in Transit', '$25,000'],
    ]);
    // Page 13: column headings stacked over two lines are one cell each.
    assert.deepEqual(texts(13)[0]?.[0], ['PREMISES LOCATION NO.', 'BUILDINGS No.']);
    for (const page of [4, 7, 13, 15, 16]) {
      assertConsumedOnce(a.pages[page - 1]!, a.results[page - 1]!);
      for (const tb of a.results[page - 1]!.tables) assertWellFormed(tb, page);
    }
  });

  it('the package proposal: a row label that stops at "&" or "or" goes on in the line under it, whatever its case; values in other columns on either line stay in the row', async () => {
    const a = await analyse(PROPOSAL);
    const rows = a.results.flatMap((r) => r.tables.flatMap((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text))));
    const row = (label: string) => rows.find((cells) => cells[0] === label);
    assert.ok(row('Covered Leasehold Interest – Undamaged Improvements & Betterments'), 'the label wrapped after "&" is one cell');
    assert.deepEqual(row('Limited Coverage for Fungus, Wet Rot or Dry Rot – Annual Aggregate')?.slice(1, 2), ['$25,000']);
    assert.deepEqual(row('02. Applies at the following Building(s) numbered:'), ['02. Applies at the following Building(s) numbered:', '02-06,14-15', '$2,500,000']);
    assert.ok(!rows.some((cells) => /^(Betterments|Dry Rot|numbered:)/.test(cells[0]!)), 'no continuation is left as a row');
  });

  it('the package proposal: two schedules under their own bold titles are two tables; a label wrapped inside a ruled row stays in it', async () => {
    const a = await analyse(PROPOSAL);
    const texts = a.results[10]!.tables.map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    assert.deepEqual(texts.slice(0, 2), [
      [
        ['ELECTRONIC VANDALISM', 'LIMIT OF INSURANCE'],
        ['Aggregate in any 12 month period of this policy:', '$10,000'],
      ],
      [
        ['CRIME ADDITIONAL COVERAGE', 'DEDUCTIBLE *', 'LIMIT OF INSURANCE'],
        ['Employee Theft:', '$1,000', '$10,000'],
        ['Forgery or Alteration:', '$1,000', '$25,000'],
        ['Theft, Disappearance and Destruction: Inside Premises', '$1,000', '$20,000'],
        ['Theft, Disappearance and Destruction: Outside Premises', '$1,000', '$10,000'],
        ['Money Orders and Counterfeit Paper Currency:', '$1,000', '$25,000'],
      ],
    ]);
    assertConsumedOnce(a.pages[10]!, a.results[10]!);
    for (const tb of a.results[10]!.tables) assertWellFormed(tb, 11);
    // A row label in bold in the rows' type, under headings in smaller type, is no title: it stays a row.
    const rows = a.results.flatMap((r) => r.tables.flatMap((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text))));
    assert.ok(rows.some((cells) => cells[0] === 'Business Income from Dependent Property'), 'the bold label is a row');
  });

  it('the package proposal: a schedule whose last rule stops under the column line of the headings above is a table', async () => {
    const a = await analyse(PROPOSAL);
    const texts = a.results[9]!.tables.map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    assert.deepEqual(texts, [
      [
        ['', 'LIMITS OF INSURANCE'],
        ['Combined Direct Damage and Time Element - in any one occurrence (See Utility Services – Direct Damage and Utility Services Time Element endorsements)', '$100,000'],
      ],
    ]);
    assertConsumedOnce(a.pages[9]!, a.results[9]!);
    for (const tb of a.results[9]!.tables) assertWellFormed(tb, 10);
  });

  it('a rule closing a ruled row under its first column only closes it where a column line comes down to the ruling', () => {
    /** Page 10 of the proposal, drawn again: headings framed by column lines, one row, its rule under the description only. */
    const page = (o: { columnLines: boolean; closingEnd: number }): PageModel => {
      const items: PageModel['items'] = [
        textItem('LIMITS OF INSURANCE', 1900, 382, 367, 37, 'Arial'),
        textItem('Combined Direct Damage and Time Element - in any', 156, 426, 977, 47, 'Arial'),
        textItem('one occurrence', 156, 474, 287, 47, 'Arial'),
        textItem('(See Utility Services –', 790, 474, 408, 47, 'Arial'),
        textItem('Direct Damage and Utility Services Time Element', 156, 522, 911, 47, 'Arial'),
        textItem('endorsements)', 156, 565, 278, 47, 'Arial'),
        textItem('$100,000', 2093, 498, 174, 47, 'Arial'),
      ];
      const rules: NonNullable<PageModel['rules']> = [
        { x: 151, y: 423, width: 2121, height: 2 },
        { x: 151, y: 607, width: o.closingEnd - 151, height: 3 },
        ...(o.columnLines ? [1211, 2272].map((x) => ({ x, y: 351, width: 2, height: 72 })) : []),
      ];
      return { number: 1, width: 2550, height: 3300, items, rules };
    };
    const texts = (p: PageModel) => detectTables(p).tables.map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    assert.deepEqual(texts(page({ columnLines: true, closingEnd: 1212 })), [
      [
        ['', 'LIMITS OF INSURANCE'],
        ['Combined Direct Damage and Time Element - in any one occurrence (See Utility Services – Direct Damage and Utility Services Time Element endorsements)', '$100,000'],
      ],
    ]);
    // No column line comes down to the ruling: two rules of different lengths, no table.
    assert.deepEqual(texts(page({ columnLines: false, closingEnd: 1212 })), []);
    // The rule stops where no column line is.
    assert.deepEqual(texts(page({ columnLines: true, closingEnd: 1600 })), []);
    // The short rule heads a ruling of its own (a schedule under the description's column): it is that table's, not the row's above.
    const under = page({ columnLines: true, closingEnd: 1212 });
    under.items.push(textItem('Water Supply', 156, 630, 300, 47, 'Arial'), textItem('$5,000', 1000, 630, 150, 47, 'Arial'));
    under.items.push(textItem('Power Supply', 156, 730, 300, 47, 'Arial'), textItem('$7,500', 1000, 730, 150, 47, 'Arial'));
    under.rules!.push({ x: 151, y: 700, width: 1061, height: 3 }, { x: 151, y: 800, width: 1061, height: 3 });
    const found = detectTables(under);
    assertConsumedOnce(under, found);
    assert.ok(!texts(under).some((t) => t[0]?.[1] === 'LIMITS OF INSURANCE'), JSON.stringify(texts(under)));
  });

  it('rules between paragraphs of running text, or under a title, make no table', () => {
    const items: PageModel['items'] = [];
    const rules: NonNullable<PageModel['rules']> = [];
    // Three ruled bands of two-line paragraphs, and a title in large type over a ruled row.
    for (let k = 0; k < 3; k++) {
      const y = 300 + k * 200;
      rules.push({ x: 150, y: y - 20, width: 2200, height: 3 });
      items.push(textItem('The tenant shall keep the premises in good repair and condition at its own cost and', 150, y, 2100, 48, 'Arial'));
      items.push(textItem('expense, and shall return them so at the end of the term of this lease.', 150, y + 55, 1800, 48, 'Arial'));
    }
    // (These rules are of another length: another ruling.)
    rules.push({ x: 150, y: 880, width: 2150, height: 3 });
    items.push(textItem('Optional coverage', 150, 900, 800, 95, 'Arial'), textItem('Premium', 2000, 900, 250, 95, 'Arial'));
    rules.push({ x: 150, y: 1010, width: 2150, height: 3 });
    items.push(textItem('Fire damage', 150, 1030, 300, 48, 'Arial'), textItem('$250', 2150, 1030, 100, 48, 'Arial'));
    rules.push({ x: 150, y: 1090, width: 2150, height: 3 });
    assert.deepEqual(detectTables({ number: 1, width: 2550, height: 3300, items, rules }).tables, []);
  });

  it('Shorebucks: the rent schedule is one aligned table with its amounts in columns', async () => {
    const a = await analyse(`${REFERENCE}/Shorebucks LLC_AZ.pdf`);
    const rent = a.results[1]!.tables.find((t) => t.rows.some((r) => r.cells.some((c) => c.leaf.text === 'Months 1 – 12')));
    assert.ok(rent, 'the rent table on page 2 is found');
    assert.equal(rent.source, 'aligned');
    const row = rent.rows.find((r) => r.cells[0]!.leaf.text === 'Months 1 – 12')!;
    assert.deepEqual(
      row.cells.map((c) => c.leaf.text),
      ['Months 1 – 12', '$26.99', '$36,344.28', '$436,131.41'],
    );
    // Its headings are set over two lines, "Period" between them: one row of headings.
    assert.deepEqual(
      rent.rows[0]!.cells.map((c) => c.leaf.text),
      ['Period', 'Rate P/S/F Per Annum', 'Monthly Base Rent', 'Period Base Rent'],
    );
    assert.equal(rent.rows[1], row);
  });

  it('Shorebucks: side-by-side signature blocks (witnesses | signatory) are tables, cut where the signing space leaves a column blank; the sentence above is not', async () => {
    const a = await analyse(`${REFERENCE}/Shorebucks LLC_AZ.pdf`);
    const page = a.pages.findIndex((p) => p.items.some((it) => it.text.startsWith('IN WITNESS WHEREOF')));
    assert.ok(page >= 0, 'the signature page is found');
    const { tables, consumed } = a.results[page]!;
    // The landlord's column goes blank for three lines (where it signs) between its name and "By:";
    // the tenant's gap there is two lines and leaves only one line of both columns above it.
    assert.equal(tables.length, 3, 'the landlord block in two, the tenant block');
    const rows = tables.map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    assert.ok(rows[0]!.some((r) => r[0] === 'Signature of Witness 1' && r[1] === 'business in Arizona'), JSON.stringify(rows[0]));
    assert.ok(!rows[0]!.some((r) => r.includes('By:')), JSON.stringify(rows[0]));
    assert.ok(rows[1]!.some((r) => r[1] === 'By:') && rows[1]!.some((r) => r[0] === 'Print or type name of Witness 1'), JSON.stringify(rows[1]));
    assert.ok(rows[2]!.some((r) => r[1] === 'TENANT:') && rows[2]!.some((r) => r[1] === 'Title*:'), JSON.stringify(rows[2]));
    const sentence = a.pages[page]!.items.findIndex((it) => it.text.startsWith('IN WITNESS WHEREOF'));
    assert.ok(!consumed.has(sentence));
  });

  it('Jane Doe: signature fields stacked in one column stay text', async () => {
    const a = await analyse(`${REFERENCE}/Jane Doe NDA.pdf`);
    const cells = a.results.flatMap((r) => r.tables.flatMap((t) => t.rows.flatMap((row) => row.cells.map((c) => c.leaf.text))));
    assert.ok(cells.length > 0, 'the authorized individuals table is found');
    assert.ok(!cells.some((c) => /^(By|Name|Title|Date):/.test(c)), JSON.stringify(cells));
  });

  it('a protocol synopsis (bold labels beside values that wrap, no rules) is a form of label and value cells', async () => {
    const a = await analyse('../shared/corpus/kgrag/nih-clinical-trial-protocols/NCT06155955_Prot_SAP_000.pdf');
    const forms = a.results[0]!.tables.filter((t) => t.source === 'form');
    assert.equal(forms.length, 1);
    const rows = forms[0]!.rows.map((r) => r.cells.map((c) => [c.role, c.leaf.text]));
    assert.deepEqual(rows[0], [
      ['label', 'Title'],
      ['value', 'Comparison of outcomes between low dose Emicizumab and low dose factor VIII prophylaxis in clinically severe hemophilia A'],
    ]);
    assert.deepEqual(
      rows.map((r) => r[0]![1]),
      ['Title', 'Principal Investigator', 'Co-investigators', 'Study centers & Address', 'Study period'],
    );
    assert.deepEqual(rows[4]![1], ['value', '12 months']);
    assertConsumedOnce(a.pages[0]!, a.results[0]!);
    assertWellFormed(forms[0]!, 1);
  });

  it('a sidebar of bold entries beside a column of running text is no label/value form', async () => {
    const a = await analyse('../shared/corpus/kgrag/us-fed-agency-reports/DOSAID2022.pdf');
    const page = a.pages.findIndex((p) => p.items.some((it) => it.text.startsWith('Bureau of Arms Control, Verification')));
    assert.ok(page >= 0);
    assert.deepEqual(
      a.results[page]!.tables.filter((t) => t.source === 'form').map((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text))),
      [],
    );
  });

  it('10-Q: the income statement is an aligned table with labels and amounts apart; items consumed once', async () => {
    const a = await analyse(TEN_Q);
    const rows = a.results.flatMap((r) => r.tables.filter((t) => t.source === 'aligned').flatMap((t) => t.rows));
    const total = rows.find((r) => r.cells[0]?.leaf.text === 'Total net sales');
    assert.ok(total, 'a row starts with "Total net sales"');
    const amounts = total.cells.slice(1).map((c) => c.leaf.text);
    assert.ok(amounts.length >= 2 && amounts.every((t) => /^\$? ?[\d,]+$/.test(t)), `amounts in their own cells: ${JSON.stringify(amounts)}`);
    a.pages.forEach((p, k) => {
      assertConsumedOnce(p, a.results[k]!);
      for (const t of a.results[k]!.tables) assertWellFormed(t, p.number);
    });
  });

  it('10-Q: the column headings above the figures are the first rows, a heading over two columns spanning them, a heading of several lines one cell', async () => {
    const a = await analyse(TEN_Q);
    const tables = a.results.flatMap((r) => r.tables.filter((t) => t.source === 'aligned'));
    const statement = tables.find((t) => t.rows.some((r) => r.cells[0]?.leaf.text === 'Total net sales'));
    assert.ok(statement);
    const first = statement.rows[0]!.cells;
    assert.deepEqual(
      first.map((c) => [c.leaf.text, c.colspan]),
      [
        ['', 1],
        ['Three Months Ended', 2],
        ['Nine Months Ended', 2],
      ],
    );
    // "June 25," over "2022": one heading of two lines.
    assert.deepEqual(
      statement.rows[1]!.cells.map((c) => c.leaf.text),
      ['', 'June 25, 2022', 'June 26, 2021', 'June 25, 2022', 'June 26, 2021'],
    );
    assert.equal(statement.rows[2]!.cells[0]!.leaf.text, 'Net sales:');
    // Headings of up to four lines over narrow columns of figures (the share repurchases), the
    // lowest line naming the label column, are one row.
    const repurchases = tables.find((t) => t.rows.some((r) => r.cells.some((c) => c.leaf.text === 'Open market and privately negotiated purchases')));
    assert.ok(repurchases);
    assert.deepEqual(
      repurchases.rows[0]!.cells.map((c) => c.leaf.text),
      [
        'Periods',
        'Total Number of Shares Purchased',
        'Average Price Paid Per Share',
        'Total Number of Shares Purchased as Part of Publicly Announced Plans or Programs',
        'Approximate Dollar Value of Shares That May Yet Be Purchased Under the Plans or Programs (1)',
      ],
    );
    // A table of words only (no figures) keeps its lines as rows: its first row is its heading.
    const classes = tables.find((t) => t.rows[0]!.cells[0]!.leaf.text === 'Title of each class');
    assert.ok(classes);
    assert.equal(classes.rows[1]!.cells[0]!.leaf.text, 'Common Stock, $0.00001 par value per share');
    // The caption above a table is not a heading row of it.
    assert.ok(!tables.some((t) => t.rows[0]!.cells.some((c) => c.leaf.text.startsWith('(In millions'))));
  });

  it('10-Q: a row label wrapped onto a second line is one cell of one row, its values beside it; a heading label, a new item and "iPad" are not joined', async () => {
    const a = await analyse(TEN_Q);
    const rows = a.results.flatMap((r) => r.tables.filter((t) => t.source === 'aligned').flatMap((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text))));
    const row = (label: string) => rows.filter((cells) => cells[0] === label);
    // Values on the label's last line ("awards | (1,371) | …") or on its first ("(I.R.S. Employer…)").
    const withheld = row('Common stock withheld related to net share settlement of equity awards');
    assert.equal(withheld.length, 2, 'both statements of shareholders’ equity');
    assert.deepEqual(withheld[0]!.slice(1), ['(1,371)', '(1,224)', '(2,783)', '(2,460)']);
    assert.deepEqual(row('Total change in unrealized gains/losses on marketable debt securities')[0]?.slice(1), ['(3,055)', '163', '(9,819)', '(792)']);
    assert.match(rows.find((cells) => cells[0]!.startsWith('Common stock and additional paid-in capital'))![0]!, /shares authorized; [\d,]+ and [\d,]+ shares issued and outstanding, respectively$/);
    assert.deepEqual(row('(State or other jurisdiction of incorporation or organization)')[0], ['(State or other jurisdiction of incorporation or organization)', '(I.R.S. Employer Identification No.)']);
    assert.ok(!rows.some((cells) => /^(awards|securities|of incorporation|and [\d,]+ shares)/.test(cells[0]!)), 'no continuation is left as a row');
    // A label ending in a colon heads the rows under it; a product named in small letters is its own row.
    assert.ok(row('Change in unrealized gains/losses on marketable debt securities, net of tax:').length > 0);
    assert.ok(row('iPad® (1)').length > 0 && row('Mac® (1)').length > 0, 'rows "iPad® (1)" and "Mac® (1)"');
  });

  it('10-Q: long labels beside one column of figures (maturities) are a table, not a paragraph', async () => {
    const a = await analyse('../shared/corpus/kgrag/sec-10-q/2023 Q1 AAPL.pdf');
    const tables = a.results.flatMap((r) => r.tables.map((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text))));
    const maturities = tables.find((rows) => rows.some((cells) => cells[0] === 'Due after 10 years'));
    assert.deepEqual(maturities, [
      ['Due after 1 year through 5 years', '$ 82,497'],
      ['Due after 5 years through 10 years', '14,243'],
      ['Due after 10 years', '17,355'],
      ['Total fair value', '$ 114,095'],
    ]);
  });

  it('10-Q: the exhibit index, numbers beside descriptions under bold column headings, is a table; its wrapped descriptions stay in their rows', async () => {
    const a = await analyse('../shared/corpus/kgrag/sec-10-q/2023 Q1 AAPL.pdf');
    const tables = a.results.flatMap((r) => r.tables.map((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text))));
    const index = tables.find((rows) => rows.some((cells) => cells[0] === '31.1*'));
    assert.ok(index, 'a table with the row "31.1*"');
    assert.deepEqual(index.find((cells) => cells[0] === 'Exhibit Number'), ['Exhibit Number', 'Exhibit Description', 'Form', 'Exhibit', 'Filing Date/ Period End Date']);
    const description = (number: string) => index.find((cells) => cells[0] === number)?.[1];
    assert.equal(description('10.1*'), 'Form of CEO Restricted Stock Unit Award Agreement under 2022 Employee Stock Plan effective as of September 25, 2022.');
    assert.equal(description('10.2*'), 'Form of CEO Performance Award Agreement under 2022 Employee Stock Plan effective as of September 25, 2022.');
    assert.equal(description('31.1*'), 'Rule 13a-14(a) / 15d-14(a) Certification of Chief Executive Officer.');
    // The last description's last line, alone under the table, is still the row's.
    assert.equal(description('104*'), 'Inline XBRL for the cover page of this Quarterly Report on Form 10-Q, included in the Exhibit 101 Inline XBRL Document Set.');
    assert.ok(!index.some((cells) => cells[0] === '' && /^(of )?September 25/.test(cells[1] ?? '')), 'no wrapped line is a row of its own');
    // A description filling its column up to the next one is cut where the "Form" heading starts.
    const q3 = await analyse('../shared/corpus/kgrag/sec-10-q/2023 Q3 AAPL.pdf');
    const q3Index = q3.results.flatMap((r) => r.tables.map((t) => t.rows.map((row) => row.cells.map((c) => c.leaf.text)))).find((rows) => rows.some((cells) => cells[0] === '4.1'));
    assert.ok(q3Index, 'the Q3 index, its row "4.1" filed by reference');
    const filed = q3Index.find((cells) => cells[0] === '4.1')!;
    assert.deepEqual(filed.slice(2), ['8-K', '4.1', '5/10/23']);
    assert.match(filed[1]!, /^Officer’s Certificate of the Registrant, dated as of May 10, 2023, .* 4\.850% Notes due 2053\.$/);
    assert.deepEqual(q3Index.find((cells) => cells[0] === 'Exhibit Number'), ['Exhibit Number', 'Exhibit Description', 'Form', 'Exhibit', 'Filing Date/ Period End Date']);
    // The table of contents keeps "Part II", centred in bold under an entry, as a row of its own.
    const contents = tables.find((rows) => rows.some((cells) => cells[1] === 'Controls and Procedures'));
    assert.ok(contents?.some((cells) => cells.includes('Part II')), JSON.stringify(contents));
  });

  it('a sidebar of "Label:" entries beside a column of running text is not a key/value form', async () => {
    const a = await analyse('../shared/corpus/kgrag/us-fed-agency-reports/DOSAID2022.pdf');
    const page = a.pages.findIndex((p) => p.items.some((it) => it.text.includes('Bureau for Global Health')));
    assert.ok(page >= 0);
    // The paragraph beside the labels ("… public health in-" / "terventions …") must stay text.
    const cells = a.results[page]!.tables.flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.leaf.text)));
    assert.ok(!cells.some((c) => c.includes('The Department of State and USAID will also work')), JSON.stringify(cells.slice(0, 6)));
  });

  it('a two-column text page yields no table', async () => {
    const a = await analyse(TWO_COLUMN.file);
    const page = a.pages[TWO_COLUMN.page - 1]!;
    // The page really is two columns of running text: long lines on both halves.
    const long = page.items.filter((i) => i.width > page.width * 0.25);
    assert.ok(long.filter((i) => i.x + i.width < page.width / 2).length >= 8);
    assert.ok(long.filter((i) => i.x > page.width / 2).length >= 8);
    assert.equal(a.results[TWO_COLUMN.page - 1]!.tables.length, 0);
    assert.equal(a.results[TWO_COLUMN.page - 1]!.consumed.size, 0);
  });

  it('two columns a narrow gutter apart, read as one phrase on the keyed lines, are split where the wrapped lines start; a phrase running on across that place keeps them one', () => {
    const item = (text: string, x: number, y: number) => textItem(text, x, y, text.length * 20, 40, 'Helvetica');
    /** Weeks keyed in the first column; "Chair yoga" and the breath cell (from x 560) 15 px apart; the breath cell wraps under itself. */
    const pageOf = (joined: boolean): PageModel => {
      const items: PageModel['items'] = [];
      for (let week = 1; week <= 4; week++) {
        const y = 200 + (week - 1) * 100;
        items.push(item(`Week ${week}`, 100, y), item('Chair', 350, y), item('yoga', 455, y));
        // "Chair yoga" ends at 535: the breath cell starts 25 px (0.6 of a line) later.
        items.push(joined && week === 2 ? item('yogaNatural', 455, y) : item('Natural', 560, y), item('Nidra', 900, y), item(`${week * 10} min`, 1300, y));
        items.push(item('breathing', 560, y + 50), item('deep', 900, y + 50));
      }
      return { number: 1, width: 2550, height: 3300, items: joined ? items.filter((it, i, all) => !(it.text === 'yoga' && all[i + 1]?.text === 'yogaNatural')) : items };
    };
    const cells = (page: PageModel) => detectTables(page).tables.flatMap((t) => t.rows.map((r) => r.cells.map((c) => c.leaf.text)));
    const split = cells(pageOf(false));
    assert.ok(split.some((r) => r.includes('Chair yoga') && r.some((c) => c.startsWith('Natural'))), JSON.stringify(split));
    assert.ok(!split.flat().some((c) => /yoga Natural/.test(c)), JSON.stringify(split));
    // One keyed line whose text runs on without a blank where the other lines' cell starts: one column.
    const joined = cells(pageOf(true));
    assert.ok(joined.flat().some((c) => /^Chair yoga Natural/.test(c)), JSON.stringify(joined));
  });

  it('a title line over the column headings, its words a word space apart, is one cell across the columns it reaches, not cut at their edges', () => {
    const item = (text: string, x: number, y: number) => textItem(text, x, y, text.length * 20, 40, 'Helvetica');
    const items: PageModel['items'] = [];
    // "Yoga for the Heart" runs from inside the second column into the third, 10 px between its words.
    let x = 680;
    for (const word of ['Yoga', 'for', 'the', 'Heart']) {
      items.push(item(word, x, 160));
      x += word.length * 20 + 10;
    }
    items.push(item('Practice', 500, 230), item('Meditation', 900, 230), item('Time', 1300, 230));
    for (let week = 1; week <= 4; week++) {
      const y = 300 + (week - 1) * 70;
      items.push(item(`Week ${week}`, 100, y), item('Chair', 500, y), item('Nidra', 900, y), item(`${week * 10} min`, 1300, y));
    }
    const [table] = detectTables({ number: 1, width: 2550, height: 3300, items }).tables;
    assert.ok(table);
    const rows = table.rows.map((r) => r.cells.map((c) => [c.leaf.text, c.colspan]));
    assert.deepEqual(rows[0], [['', 1], ['Yoga for the Heart', 2], ['', 1]], JSON.stringify(rows));
    // Headings a column apart stay cells of their own.
    assert.deepEqual(rows[1], [['', 1], ['Practice', 1], ['Meditation', 1], ['Time', 1]], JSON.stringify(rows));
  });

  it('a label and its value drawn in one ruled box become two cells', () => {
    const item = (text: string, x: number, y: number, width: number) => textItem(text, x, y, width, 48, 'Arial');
    const line = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
    const page: PageModel = {
      number: 3,
      width: 2550,
      height: 3300,
      rules: [line(200, 499, 2000, 2), line(200, 599, 2000, 2), line(200, 699, 2000, 2), line(199, 500, 2, 200), line(1199, 500, 2, 200), line(2199, 500, 2, 200)],
      items: [
        item('Location:', 220, 526, 180),
        item('Jagel, Germany', 600, 526, 300),
        item('Accident Number:', 1220, 526, 350),
        item('DEN08WA037', 1700, 526, 240),
        item('Aircraft:', 220, 626, 165),
        item('Cirrus SR-20', 600, 626, 260),
        item('Registration:', 1220, 626, 250),
        item('N141CD', 1700, 626, 143),
      ],
    };
    const { tables, consumed } = detectTables(page);
    assert.equal(tables.length, 1);
    assert.equal(tables[0]!.source, 'form');
    assert.equal(consumed.size, page.items.length);
    assert.deepEqual(
      tables[0]!.rows.map((r) => r.cells.map((c) => `${c.role}:${c.leaf.text}`)),
      [
        ['label:Location:', 'value:Jagel, Germany', 'label:Accident Number:', 'value:DEN08WA037'],
        ['label:Aircraft:', 'value:Cirrus SR-20', 'label:Registration:', 'value:N141CD'],
      ],
    );
    const [label, value] = tables[0]!.rows[0]!.cells;
    assert.equal(label!.boxes[0]!.left + label!.boxes[0]!.width, value!.boxes[0]!.left, 'the label cell ends where its value cell starts');
    assert.ok(value!.boxes[0]!.left > 400 && value!.boxes[0]!.left <= 600, 'the split lies between label and value');
  });

  it('side-by-side signature blocks drawn with lines are a table; the same lines under text are underlines', () => {
    const item = (text: string, x: number, y: number, width: number) => textItem(text, x, y, width, 46, 'Times');
    const rule = (x: number, y: number, width: number) => ({ x, y, width, height: 2 });
    const items = [
      item('Signature of Witness 1', 170, 600, 380),
      item('By:', 1130, 600, 60),
      item('Print name of Witness 1', 170, 700, 420),
      item('Name:', 1130, 700, 110),
      item('Signature of Witness 2', 170, 800, 380),
      item('Title:', 1130, 800, 90),
    ];
    // Blanks: a line above each caption on the left, a line after each label on the right.
    const blanks = [rule(170, 590, 770), rule(170, 690, 770), rule(170, 790, 770), rule(1295, 642, 540), rule(1295, 742, 540), rule(1295, 842, 540)];
    const form = detectTables({ number: 22, width: 2550, height: 3300, items, rules: blanks });
    assert.equal(form.tables.length, 1);
    assert.deepEqual(
      form.tables[0]!.rows.map((r) => r.cells.map((c) => c.leaf.text)),
      [
        ['Signature of Witness 1', 'By:'],
        ['Print name of Witness 1', 'Name:'],
        ['Signature of Witness 2', 'Title:'],
      ],
    );
    // The same two columns with every line drawn under their text: links or emphasis, no blank to fill in.
    const underlines = items.map((it) => rule(it.x, it.y + it.height - 4, it.width));
    assert.equal(detectTables({ number: 22, width: 2550, height: 3300, items, rules: underlines }).tables.length, 0);
  });

  it('a signature block is cut where one column goes blank for longer than the gap that ends a table', () => {
    const item = (text: string, x: number, y: number, width: number) => textItem(text, x, y, width, 46, 'Times');
    const witnesses = [
      item('_________________________', 170, 600, 770),
      item('Signature of Witness 1', 170, 648, 380),
      item('_________________________', 170, 744, 770),
      item('Print name of Witness 1', 170, 792, 420),
      item('_________________________', 170, 888, 770),
      item('Signature of Witness 2', 170, 936, 380),
    ];
    const fields = (top: number) => [item('By: __________', 1130, top, 400), item('Name: __________', 1130, top + 48, 440), item('Title: __________', 1130, top + 96, 420)];
    const party = [item('Acme Widgets, Inc.', 1130, 600, 380), item('a Delaware corporation', 1130, 648, 420)];
    const page = (items: PageModel['items']): PageModel => ({ number: 9, width: 2550, height: 3300, items });
    const texts = (t: Table) => t.rows.map((r) => r.cells.map((c) => c.leaf.text));

    // Four blank lines (the signing space) between the party and "By:" while the witnesses go on.
    const cut = detectTables(page([...witnesses, ...party, ...fields(888)]));
    assert.equal(cut.tables.length, 2, JSON.stringify(cut.tables.map(texts)));
    assert.deepEqual(texts(cut.tables[0]!), [
      ['_________________________', 'Acme Widgets, Inc.'],
      ['Signature of Witness 1', 'a Delaware corporation'],
    ]);
    assert.deepEqual(texts(cut.tables[1]!)[0], ['_________________________', '']);
    assert.deepEqual(texts(cut.tables[1]!)[2], ['_________________________', 'By: __________']);
    assert.equal(cut.consumed.size, witnesses.length + party.length + 3);

    // One blank line there (as between the witnesses' blanks) is not a gap: one table.
    assert.equal(detectTables(page([...witnesses, ...party, ...fields(744)])).tables.length, 1);
    // Nor is the form cut when the part above would hold a single line with both columns filled.
    assert.equal(detectTables(page([...witnesses, party[0]!, ...fields(888)])).tables.length, 1);
  });

  it('an aligned table keeps every row of a long run, and drops the leading lines that break its columns', () => {
    const item = (text: string, x: number, y: number, width: number) => textItem(text, x, y, width, 40, 'Helvetica');
    const rows = (n: number, top: number) => Array.from({ length: n }, (_, i) => [item(`Item ${i}`, 300, top + i * 50, 200), item(`${i * 7}`, 1500, top + i * 50, 100), item(`x${i}`, 2000, top + i * 50, 100)]).flat();
    const long = detectTables({ number: 1, width: 2550, height: 60_000, items: rows(1000, 100) });
    assert.equal(long.tables.length, 1);
    assert.equal(long.tables[0]!.rows.length, 1000);
    assert.equal(long.consumed.size, 3000);

    // A caption whose words cross the columns, right above the table: not a row of it.
    const caption = [item('Table 1: amounts by item, in thousands of dollars', 250, 100, 1700)];
    const captioned = detectTables({ number: 1, width: 2550, height: 3300, items: [...caption, ...rows(5, 150)] });
    assert.equal(captioned.tables.length, 1);
    assert.equal(captioned.tables[0]!.rows.length, 5);
    assert.equal(captioned.consumed.has(0), false, 'the caption stays text');
  });

  it('column headings above an aligned table: a spanning heading, a heading over two lines, and the caption above them left out', () => {
    const item = (text: string, x: number, y: number, width: number) => textItem(text, x, y, width, 40, 'Helvetica');
    const items = [
      item('(In millions, except per share amounts)', 300, 100, 1400),
      item('Year Ended', 1550, 150, 500),
      item('June 25,', 1500, 200, 100),
      item('June 26,', 2000, 200, 100),
      item('2022', 1500, 250, 100),
      item('2021', 2000, 250, 100),
      ...Array.from({ length: 4 }, (_, i) => [item(`Item ${i}`, 300, 300 + i * 50, 200), item(`${(i + 1) * 1_234}`, 1500, 300 + i * 50, 100), item(`${(i + 1) * 99}`, 2000, 300 + i * 50, 100)]).flat(),
    ];
    const { tables, consumed } = detectTables({ number: 1, width: 2550, height: 3300, items });
    assert.equal(tables.length, 1);
    const cells = tables[0]!.rows.map((r) => r.cells.map((c) => (c.colspan > 1 ? `${c.leaf.text} ×${c.colspan}` : c.leaf.text)));
    assert.deepEqual(cells.slice(0, 3), [
      ['', 'Year Ended ×2'],
      ['', 'June 25, 2022', 'June 26, 2021'],
      ['Item 0', '1234', '99'],
    ]);
    assert.equal(cells.length, 6);
    assert.equal(consumed.has(0), false, 'the caption stays text');
    assertWellFormed(tables[0]!, 1);
  });

  it('a table of text keyed in its first column: each keyless line joins the row above, cell by column', () => {
    const item = (text: string, x: number, y: number) => textItem(text, x, y, 12 * text.length, 40, 'Helvetica');
    const lines = [
      ['Week 1', 'Chair-based yoga', 'Joint protection;'],
      ['', 'natural breathing', '“Do no harm”'],
      ['Week 2', 'Chair-based yoga', 'Awareness of'],
      ['', 'abdominal', 'breathing pattern'],
      ['', 'breathing', ''],
      ['Week 3', 'Chair-based yoga', 'Simplicity'],
      ['', 'thoracic', 'and posture'],
    ];
    const items = lines.flatMap((cells, k) => cells.flatMap((text, col) => (text ? [item(text, 300 + col * 700, 300 + k * 60)] : [])));
    const { tables } = detectTables({ number: 1, width: 2550, height: 3300, items });
    assert.equal(tables.length, 1);
    assert.deepEqual(
      tables[0]!.rows.map((r) => r.cells.map((c) => c.leaf.text)),
      [
        ['Week 1', 'Chair-based yoga natural breathing', 'Joint protection; “Do no harm”'],
        ['Week 2', 'Chair-based yoga abdominal breathing', 'Awareness of breathing pattern'],
        ['Week 3', 'Chair-based yoga thoracic', 'Simplicity and posture'],
      ],
    );
    assertWellFormed(tables[0]!, 1);
    // With figures, an unkeyed line of several cells is a row of its own (it may be a statement's
    // line); a line of one cell of words directly under its column's text still goes on from it
    // ("breathing" under "abdominal").
    const withFigures = detectTables({ number: 1, width: 2550, height: 3300, items: [...items, item('1,234', 2400, 300), item('5,678', 2400, 600)] });
    const rows = withFigures.tables[0]!.rows.map((r) => r.cells.map((c) => c.leaf.text));
    assert.deepEqual(rows.map((r) => r[1]), ['Chair-based yoga', 'natural breathing', 'Chair-based yoga', 'abdominal breathing', 'Chair-based yoga', 'thoracic']);
  });

  it('a page without rules or aligned text yields nothing', () => {
    const page: PageModel = {
      number: 1,
      width: 2550,
      height: 3300,
      items: [{ text: 'Just one sentence of text.', x: 300, y: 300, width: 900, height: 50, fontName: 'Times', fontSize: 12 }],
    };
    assert.deepEqual(detectTables(page), { tables: [], consumed: new Set() });
  });
});
