/**
 * Found labels (inline spans of kind `label`, `docset:{name}` in DGML) without the ingest stage that
 * makes them: structures built by hand. The summary of one structure (first example, span counts,
 * names that cannot be element names left out); humanised names for properties; and the docset
 * labels service on SQLite and PostgreSQL: summaries recorded in the Ready transaction, the docset
 * list (counts, order, pages, Ready members of this docset and workspace only, a document processed
 * again counts with its new labels only), on-demand summaries of documents that have none (bounded
 * per call, `pendingDocuments`), rows deleted with their document, and turning a label into a
 * property (created, then returned; 404 for a label the docset does not have; 400 for a bad name).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { humaniseLabelName, isLabelName, MAX_EXAMPLE_LENGTH, summariseLabels } from '../../src/document/label-summary.js';
import type { Leaf, Span, StructureModel, StructureNode } from '../../src/document/structure.js';
import { labelIdOf, validateLabel } from '../../src/domain/labels.js';
import { Store } from '../../src/store/db/index.js';
import { WorkspaceService } from '../../src/domain/workspaces.js';
import { PropertyService } from '../../src/domain/properties.js';
import { SemanticLabelService } from '../../src/domain/semantic-labels.js';
import { DomainError } from '../../src/domain/errors.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { leaves } from '../../src/document/structure.js';

/** The label spans the pipeline finds in a text, as [name, value] in text order. */
async function labelsOf(text: string): Promise<[string, string][]> {
  const { structure } = await analyzeDocument(await readDocument(Buffer.from(text, 'utf8'), 'txt'), { ocrBudgetMs: 0 });
  return [...leaves(structure.nodes)].flatMap((l) => (l.spans ?? []).flatMap((s): [string, string][] => (s.tag.kind === 'label' ? [[s.tag.name, l.text.slice(s.start, s.end)]] : [])));
}

/** A leaf whose `[value]` parts (`[TenantName:Bright Owl Bakery Inc.]`) are label spans. */
function leaf(marked: string, extra: Span[] = []): Leaf {
  let text = '';
  const spans: Span[] = [];
  for (const part of marked.split(/(\[[^\]]+\])/)) {
    const m = /^\[([^:]+):(.+)\]$/.exec(part);
    if (!m) {
      text += part;
      continue;
    }
    spans.push({ start: text.length, end: text.length + m[2]!.length, tag: { kind: 'label', name: m[1]! } });
    text += m[2]!;
  }
  return { text, boxes: [], spans: [...spans, ...extra] };
}

const para = (marked: string, extra: Span[] = []): StructureNode => ({ type: 'paragraph', structure: 'p', role: 'body', leaf: leaf(marked, extra) });
const model = (nodes: StructureNode[]): StructureModel => ({ version: 1, pages: [{ number: 1, width: 2550, height: 3300 }], paginated: true, nodes, ocrPages: [] });

function lease(landlord: string, tenant: string, cure?: string): StructureModel {
  const nodes: StructureNode[] = [
    para(`This Lease is made by and between [LandlordName:${landlord}], a Delaware limited liability company ("Landlord"), and [TenantName:${tenant}], a California corporation ("Tenant").`),
  ];
  if (cure) nodes.push(para(`Tenant shall cure within [CurePeriod:${cure}] after notice.`));
  return model(nodes);
}

describe('found labels: the summary of a structure', () => {
  test('each name once, in first-appearance order, with its first span as example and its span count', () => {
    const s = model([
      { type: 'section', level: 1, heading: leaf('Lease with [TenantName:Acme Corp.]'), children: [para('Rent is [MonthlyBaseRent:$4,000] a month; [TenantName:Acme] pays it.')] },
      { type: 'list', ordered: true, style: 'decimal', items: [{ marker: null, children: [para('Cure within [CurePeriod:ten (10) days].')] }] },
      {
        type: 'table',
        source: 'form',
        boxes: [],
        rows: [
          { boxes: [], cells: [{ leaf: leaf('Tenant'), colspan: 1, rowspan: 1, role: 'label', boxes: [] }, { leaf: leaf('[TenantName:Acme Corp]'), colspan: 1, rowspan: 1, role: 'value', boxes: [] }] },
          // A blank field's label cell marks where a value would be: no value of the docset's schema.
          { boxes: [], cells: [{ leaf: leaf('[Guarantor-cell:Guarantor:]'), colspan: 1, rowspan: 1, role: 'label', boxes: [] }] },
        ],
      },
    ]);
    assert.deepEqual(
      summariseLabels(s).filter((l) => l.kind === 'value'),
      [
        { kind: 'value', name: 'TenantName', example: 'Acme Corp.', occurrences: 3 },
        { kind: 'value', name: 'MonthlyBaseRent', example: '$4,000', occurrences: 1 },
        { kind: 'value', name: 'CurePeriod', example: 'ten (10) days', occurrences: 1 },
      ],
    );
  });

  test('clauses DGML names are labels of kind clause: sections by their headings, named blocks, a document that is one clause; the opening of the first as example', () => {
    const s: StructureModel = {
      ...model([
        { type: 'section', level: 1, heading: leaf('4. Security Deposit'), children: [para('Tenant shall deposit [SecurityDeposit:$8,000] with   Landlord.'), { ...para('Landlord holds it in trust.'), clause: 'DepositHolding' } as StructureNode] },
        { type: 'section', level: 1, heading: leaf('§'), children: [para('A heading without words.')] },
        { type: 'list', ordered: true, style: 'decimal', clause: 'ProhibitedUse', items: [{ marker: leaf('1.'), children: [{ ...para('No smoking.'), clause: 'Smoking' } as StructureNode] }, { marker: leaf('2.'), children: [para('No pets.')] }] },
        { type: 'table', source: 'native', boxes: [], clause: 'RentSchedule', rows: [{ boxes: [], cells: [{ leaf: leaf('Year 1'), colspan: 1, rowspan: 1, boxes: [] }, { leaf: leaf('$4,000'), colspan: 1, rowspan: 1, boxes: [] }] }] },
        { ...para('Tenant shall not smoke in the lobby either.'), clause: 'Smoking' } as StructureNode,
        { ...para('Bad name.'), clause: '2Bad' } as StructureNode,
      ]),
      clause: 'LeaseAgreement',
    };
    const got = summariseLabels(s);
    assert.deepEqual(
      got.map((l) => [l.kind, l.name, l.occurrences]),
      [
        ['value', 'SecurityDeposit', 1],
        ['clause', 'LeaseAgreement', 1],
        ['clause', 'SecurityDeposit', 1],
        ['clause', 'DepositHolding', 1],
        ['clause', 'ProhibitedUse', 1],
        ['clause', 'Smoking', 2],
        ['clause', 'RentSchedule', 1],
      ],
      'a value and a clause may share a name; a heading without words ("§", DGML\'s `Section`) names nothing; 2Bad is no element name',
    );
    const example = (name: string) => got.find((l) => l.kind === 'clause' && l.name === name)!.example;
    assert.equal(example('SecurityDeposit'), 'Tenant shall deposit $8,000 with Landlord. Landlord holds it in trust.', "the section's body, whitespace collapsed");
    assert.equal(example('ProhibitedUse'), '1. No smoking. 2. No pets.');
    assert.equal(example('Smoking'), 'No smoking.', 'the first clause of the name');
    assert.equal(example('RentSchedule'), 'Year 1 $4,000');
    assert.ok(example('LeaseAgreement').startsWith('4. Security Deposit Tenant shall deposit'));
    assert.ok(example('LeaseAgreement').length <= MAX_EXAMPLE_LENGTH);
  });

  test('spans of other kinds are not labels; a label inside an entity counts; spans out of order are read in text order', () => {
    const text = 'Signed on April 1, 2026 by Jane Doe.';
    const at = (w: string) => [text.indexOf(w), text.indexOf(w) + w.length] as const;
    const [ds, de] = at('April 1, 2026');
    const [ps, pe] = at('Jane Doe');
    const s = model([
      {
        type: 'paragraph',
        structure: 'p',
        role: 'body',
        leaf: {
          text,
          boxes: [],
          spans: [
            { start: ps, end: pe, tag: { kind: 'label', name: 'SignatoryName' } },
            { start: ps, end: pe, tag: { kind: 'entity', type: 'Person' } },
            { start: ds, end: de, tag: { kind: 'entity', type: 'Date' } },
            { start: ds, end: de, tag: { kind: 'label', name: 'SignatureDate' } },
            { start: ds, end: de, tag: { kind: 'property', labelId: 'EffectiveDate' } },
          ],
        },
      },
    ]);
    assert.deepEqual(
      summariseLabels(s).map((l) => [l.name, l.example]),
      [
        ['SignatureDate', 'April 1, 2026'],
        ['SignatoryName', 'Jane Doe'],
      ],
    );
  });

  test('names that cannot be element names and empty spans are left out; long examples are cut', () => {
    const long = 'word '.repeat(200).trim();
    const s = model([para(`[2020Rent:x] [Bad Name:y] [:z] [A:${long}]`), { type: 'paragraph', structure: 'p', role: 'body', leaf: { text: 'a  b', boxes: [], spans: [{ start: 1, end: 3, tag: { kind: 'label', name: 'Blank' } }] } }]);
    const got = summariseLabels(s);
    assert.deepEqual(got.map((l) => l.name), ['A']);
    assert.equal(got[0]!.example.length, MAX_EXAMPLE_LENGTH);
    assert.ok(isLabelName('_2020Rent') && isLabelName('Über-Größe.2') && !isLabelName('2020Rent') && !isLabelName('a:b') && !isLabelName('x'.repeat(201)));
  });

  test('a structure without labels has an empty summary', () => {
    assert.deepEqual(summariseLabels(model([para('Nothing is named here.')])), []);
    assert.deepEqual(summariseLabels({ ...model([para('Nothing is named here.')]), clause: 'Clause Name' }), [], 'a clause name that is no element name is left out');
    assert.deepEqual(summariseLabels(model([])), []);
  });
});

describe('found labels: names as property labels', () => {
  const cases: [string, string][] = [
    ['TenantName', 'Tenant Name'],
    ['_2020Rent', '2020 Rent'],
    ['SARExpirationDate', 'SAR Expiration Date'],
    ['CurePeriod', 'Cure Period'],
    ['ManagingMemberName', 'Managing Member Name'],
    ['EffectiveDate', 'Effective Date'],
    ['HTMLVersion', 'HTML Version'],
    ['Rent2020', 'Rent 2020'],
    ['Q3Revenue', 'Q3 Revenue'],
    ['Tenant_Name', 'Tenant Name'],
    ['_Reserved', '_Reserved'],
    ['Mietbeginn', 'Mietbeginn'],
    ['ÄnderungsDatum', 'Änderungs Datum'],
    ['IRS', 'IRS'],
    ['Section2.1Heading', 'Section 2.1 Heading'],
  ];
  for (const [name, label] of cases) {
    test(`${name} -> "${label}"`, () => {
      assert.equal(humaniseLabelName(name), label);
      assert.equal(validateLabel(label), label, 'a valid property label');
    });
  }

  test('the label id of the humanised name is the name, for names of letters and digits', () => {
    for (const name of ['TenantName', '_2020Rent', 'SARExpirationDate', 'Q3Revenue', 'Section2.1Heading', 'ÄnderungsDatum']) assert.equal(labelIdOf(humaniseLabelName(name)), name);
  });
});

function docRecord(workspaceId: string, id: string, docsetId: string | null, processedAt: number): DocumentRecord {
  return {
    id, workspaceId, docsetId, docsetCandidates: [], name: `${id}.txt`, format: 'txt', contentType: 'text/plain', size: 10, sha256: 'a'.repeat(64),
    blobKey: `blob-${id}`, status: 'Processing', pageCount: 1, isSample: false, error: null, createdAt: processedAt, updatedAt: processedAt, processedAt: null,
  };
}

onBothDatabases('found labels: the docset service', 'quire_semantic_labels', (dialect, database, teardown) => {
  describe(`found labels: the docset service (${dialect})`, () => {
    let store: Store;
    let labels: SemanticLabelService;
    let ws: string;
    let other: string;
    /** The structures "stored" under their blob keys, and how many times each was read. */
    const blobs = new Map<string, StructureModel>();
    const reads = new Map<string, number>();
    let clock = 1_700_000_000_000;

    /** A document made Ready in `docsetId` the way the pipeline does it: setReady, then the summary in the same transaction. */
    async function ready(workspaceId: string, id: string, docsetId: string | null, structure: StructureModel, opts: { summarise?: boolean } = {}) {
      const now = ++clock;
      const key = `structures/${id}/${now}`;
      blobs.set(key, structure);
      if (!(await store.documents.get(workspaceId, id))) {
        await store.documents.insert(docRecord(workspaceId, id, docsetId, now));
        if (docsetId) await store.docsets.adjustCount(workspaceId, docsetId, 1, now);
      }
      await store.tx(async (s) => {
        // The store's write itself: a document made Ready again (with a new structure) is this fixture's, not the lifecycle's.
        await s.ingest.setReady(workspaceId, id, ['Processing', 'Ready'], { structureBlobKey: key, processing: { format: 'txt' }, now });
        await labels.recordReady(s, { workspaceId, id }, opts.summarise === false ? undefined : summariseLabels(structure));
      });
    }

    async function docset(workspaceId: string, id: string) {
      await store.docsets.insert({ id, workspaceId, name: id, isSample: false, documentCount: 0, createdAt: clock, updatedAt: clock });
    }

    const all = async (workspaceId: string, docsetId: string, limit = 100) => {
      const items = [];
      let after: string | undefined;
      for (;;) {
        const page = await labels.list(workspaceId, docsetId, { limit, ...(after !== undefined ? { after } : {}) });
        items.push(...page.items);
        if (page.nextAfter === null) return { items, pendingDocuments: page.pendingDocuments };
        after = page.nextAfter;
      }
    };

    before(async () => {
      store = await Store.open(await database());
      const workspaces = new WorkspaceService(store);
      ws = (await workspaces.ensureDefault()).id;
      other = (await workspaces.create('other')).id;
      const properties = new PropertyService(store);
      labels = new SemanticLabelService(
        store,
        async (key) => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          const s = blobs.get(key);
          if (!s) throw new Error(`no blob ${key}`);
          return s;
        },
        properties,
        { backfillPerCall: 2, backfillConcurrency: 2 },
      );
      await docset(ws, 'leases');
      await docset(ws, 'empty');
      await docset(other, 'theirs');
      await ready(ws, 'lease-1', 'leases', lease('Harbor Point Holdings, LLC', 'Bright Owl Bakery Inc.', 'thirty (30) days'));
      await ready(ws, 'lease-2', 'leases', lease('Cedar Row Properties LP', 'Meridian Dental Group, P.C.'));
      await ready(ws, 'lease-3', 'leases', model([para('Landlord: [LandlordName:Granite Bay Realty Corp.]; its agent [AgentName:Pat Lee] and [AgentName:Sam Roe].')]));
      await ready(ws, 'loose', null, lease('Nowhere LLC', 'Nobody Inc.'));
      await ready(other, 'their-lease', 'theirs', lease('Secret Holdings LLC', 'Hidden Tenant Inc.'));
    });

    after(async () => {
      await store?.close();
      await teardown();
    });

    test('the docset lists each name with its document count, most documents first, then by name; examples from the first document by id', async () => {
      const { items, pendingDocuments } = await all(ws, 'leases');
      assert.equal(pendingDocuments, 0);
      assert.deepEqual(
        items.map((l) => [l.name, l.label, l.documentCount, l.occurrences]),
        [
          ['LandlordName', 'Landlord Name', 3, 3],
          ['TenantName', 'Tenant Name', 2, 2],
          ['AgentName', 'Agent Name', 1, 2],
          ['CurePeriod', 'Cure Period', 1, 1],
        ],
      );
      assert.deepEqual(items[0]!.example, { value: 'Harbor Point Holdings, LLC', documentId: 'lease-1' });
      assert.deepEqual(items[2]!.example, { value: 'Pat Lee', documentId: 'lease-3' });
      assert.ok(items.every((l) => l.property === null));
      assert.equal(reads.size, 0, 'no structure was read: every document was summarised when it became Ready');
    });

    test('pages of one, two and three give the same labels in the same order', async () => {
      const whole = (await all(ws, 'leases')).items.map((l) => l.name);
      for (const limit of [1, 2, 3]) assert.deepEqual((await all(ws, 'leases', limit)).items.map((l) => l.name), whole, `limit ${limit}`);
      const first = await labels.list(ws, 'leases', { limit: 4 });
      assert.equal(first.nextAfter, null, 'no next page after the last item');
      await assert.rejects(labels.list(ws, 'leases', { limit: 2, after: 'not json' }), (e: unknown) => e instanceof DomainError && e.kind === 'invalid');
    });

    test('an empty docset lists nothing; another workspace\'s docset and an unknown one are 404', async () => {
      assert.deepEqual((await all(ws, 'empty')).items, []);
      for (const id of ['theirs', 'nope']) {
        await assert.rejects(labels.list(ws, id, { limit: 10 }), (e: unknown) => e instanceof DomainError && e.kind === 'not-found');
        await assert.rejects(labels.toProperty(ws, id, 'TenantName'), (e: unknown) => e instanceof DomainError && e.kind === 'not-found');
      }
      const theirs = (await all(other, 'theirs')).items;
      assert.deepEqual(theirs.map((l) => [l.name, l.documentCount]), [['LandlordName', 1], ['TenantName', 1]]);
      assert.ok(!JSON.stringify((await all(ws, 'leases')).items).includes('Secret'), "nothing of the other workspace's document");
    });

    test('a document processed again counts with its new labels only; one that leaves the docset no longer counts', async () => {
      await ready(ws, 'lease-2', 'leases', model([para('Guarantor: [GuarantorName:Olive Tree Capital].')]));
      let items = (await all(ws, 'leases')).items;
      assert.deepEqual(items.map((l) => [l.name, l.documentCount]), [['LandlordName', 2], ['AgentName', 1], ['CurePeriod', 1], ['GuarantorName', 1], ['TenantName', 1]]);
      assert.ok(await store.documents.moveDocset(ws, 'lease-2', 'leases', 'empty', ++clock));
      items = (await all(ws, 'leases')).items;
      assert.ok(!items.some((l) => l.name === 'GuarantorName'));
      assert.deepEqual((await all(ws, 'empty')).items.map((l) => l.name), ['GuarantorName']);
      assert.ok(await store.documents.moveDocset(ws, 'lease-2', 'empty', 'leases', ++clock));
    });

    test('documents without a summary are summarised on demand, a bounded number per call, and read once', async () => {
      await docset(ws, 'old');
      for (let i = 1; i <= 5; i++) await ready(ws, `old-${i}`, 'old', lease(`Old Landlord ${i} LLC`, `Old Tenant ${i} Inc.`), { summarise: false });
      // A document that is not Ready is neither listed nor pending.
      await store.documents.insert({ ...docRecord(ws, 'old-processing', 'old', ++clock), status: 'Processing' });
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const page = await labels.list(ws, 'old', { limit: 10 });
        counts.push(page.pendingDocuments);
        assert.equal(page.items.find((l) => l.name === 'TenantName')?.documentCount ?? 0, Math.min(5, 2 * (i + 1)));
      }
      assert.deepEqual(counts, [3, 1, 0]);
      const oldReads = [...reads].filter(([k]) => k.includes('/old-'));
      assert.equal(oldReads.length, 5);
      assert.ok(oldReads.every(([, n]) => n === 1), 'each structure read once');
      const again = await labels.list(ws, 'old', { limit: 10 });
      assert.equal(again.pendingDocuments, 0);
      assert.equal([...reads].filter(([k]) => k.includes('/old-')).reduce((n, [, r]) => n + r, 0), 5, 'no structure read once all are summarised');
    });

    test('an unreadable structure stays pending and does not fail the list', async () => {
      await docset(ws, 'broken');
      await ready(ws, 'broken-1', 'broken', lease('A LLC', 'B Inc.'), { summarise: false });
      await ready(ws, 'fine-1', 'broken', lease('C LLC', 'D Inc.'));
      const key = (await store.documents.get(ws, 'broken-1'))!.structureBlobKey!;
      blobs.delete(key);
      const page = await labels.list(ws, 'broken', { limit: 10 });
      assert.equal(page.pendingDocuments, 1);
      assert.deepEqual(page.items.map((l) => [l.name, l.documentCount]), [['LandlordName', 1], ['TenantName', 1]]);
    });

    test('a deleted document takes its labels with it', async () => {
      await docset(ws, 'gone');
      await ready(ws, 'gone-1', 'gone', lease('E LLC', 'F Inc.'));
      assert.equal((await store.semanticLabels.ofDocument('gone-1')).rows.length, 2);
      await store.tx(async (s) => {
        await s.documents.delete(ws, 'gone-1');
      });
      assert.deepEqual(await store.semanticLabels.ofDocument('gone-1'), { processedAt: null, rows: [] });
      assert.deepEqual((await all(ws, 'gone')).items, []);
    });

    test('a label becomes a property labelled with its humanised name, once; the list then links it', async () => {
      const made = await labels.toProperty(ws, 'leases', 'TenantName');
      assert.equal(made.created, true);
      assert.equal(made.property.label, 'Tenant Name');
      assert.equal(made.property.labelId, 'TenantName');
      const again = await labels.toProperty(ws, 'leases', 'TenantName');
      assert.deepEqual(again, { property: made.property, created: false });
      const props = await store.properties.list(ws, 'leases');
      assert.equal(props.filter((p) => p.labelId === 'TenantName').length, 1);
      const listed = (await all(ws, 'leases')).items.find((l) => l.name === 'TenantName')!;
      assert.equal(listed.property?.id, made.property.id);
      // Concurrent requests make one property.
      const both = await Promise.all([labels.toProperty(ws, 'leases', 'CurePeriod'), labels.toProperty(ws, 'leases', 'CurePeriod')]);
      assert.deepEqual(both.map((b) => b.created).sort(), [false, true]);
      assert.equal(both[0]!.property.id, both[1]!.property.id);
    });

    test('a property defined before under the same label id is the label\'s', async () => {
      await store.properties.insert({ id: 'p-agent', workspaceId: ws, docsetId: 'leases', label: 'Agent Name', labelId: 'AgentName', createdAt: clock, updatedAt: clock });
      const r = await labels.toProperty(ws, 'leases', 'AgentName');
      assert.deepEqual([r.created, r.property.id], [false, 'p-agent']);
    });

    test('a name the docset does not have is 404, a malformed one 400', async () => {
      for (const name of ['DepositAmount', 'GuarantorNames', 'TenantNam']) {
        await assert.rejects(labels.toProperty(ws, 'leases', name), (e: unknown) => e instanceof DomainError && e.kind === 'not-found' && e.message.includes(name));
      }
      // In another workspace's docset only.
      await assert.rejects(labels.toProperty(ws, 'leases', 'SecretName'), (e: unknown) => e instanceof DomainError && e.kind === 'not-found');
      for (const name of ['2020Rent', 'Tenant Name', 'a:b', '', '<x>', 'x'.repeat(201)]) {
        await assert.rejects(labels.toProperty(ws, 'leases', name), (e: unknown) => e instanceof DomainError && e.kind === 'invalid', JSON.stringify(name));
      }
    });

    test('clauses are listed beside values (kind clause, no property); a name of both kinds is two labels, the value first; only a value becomes a property (422 for a clause)', async () => {
      await docset(ws, 'contracts');
      const contract = (deposit: string, extra: StructureNode[] = []): StructureModel => ({
        ...model([
          { type: 'section', level: 1, heading: leaf('7. Security Deposit'), children: [para(`Tenant shall deposit [SecurityDeposit:${deposit}] with Landlord.`)] },
          { ...para('This Lease is governed by the laws of Delaware.'), clause: 'GoverningLaw' } as StructureNode,
          ...extra,
        ]),
      });
      await ready(ws, 'contract-1', 'contracts', contract('$8,000'));
      await ready(ws, 'contract-2', 'contracts', contract('$9,500', [{ ...para('Tenant shall keep the premises insured.'), clause: 'Insurance' } as StructureNode]));
      // Summarised on demand (a document of a version before summaries): its clauses too.
      await ready(ws, 'contract-3', 'contracts', model([{ ...para('Either party may end this agreement on notice.'), clause: 'Termination' } as StructureNode]), { summarise: false });
      const { items, pendingDocuments } = await all(ws, 'contracts');
      assert.equal(pendingDocuments, 0);
      assert.deepEqual(
        items.map((l) => [l.kind, l.name, l.documentCount, l.occurrences]),
        [
          ['clause', 'GoverningLaw', 2, 2],
          ['value', 'SecurityDeposit', 2, 2],
          ['clause', 'SecurityDeposit', 2, 2],
          ['clause', 'Insurance', 1, 1],
          ['clause', 'Termination', 1, 1],
        ],
      );
      const clause = items.find((l) => l.kind === 'clause' && l.name === 'SecurityDeposit')!;
      assert.deepEqual(clause.example, { value: 'Tenant shall deposit $8,000 with Landlord.', documentId: 'contract-1' });
      assert.deepEqual(items.find((l) => l.kind === 'value')!.example, { value: '$8,000', documentId: 'contract-1' });
      assert.equal(items.find((l) => l.name === 'GoverningLaw')!.label, 'Governing Law');
      for (const limit of [1, 2]) assert.deepEqual((await all(ws, 'contracts', limit)).items, items, `pages of ${limit}`);
      // A name that is a clause only cannot become a property; one that is a value too can.
      for (const name of ['GoverningLaw', 'Termination']) {
        await assert.rejects(labels.toProperty(ws, 'contracts', name), (e: unknown) => e instanceof DomainError && e.kind === 'unprocessable' && /kind "clause"/.test(e.message), name);
      }
      assert.equal((await store.properties.list(ws, 'contracts')).length, 0, 'nothing was created');
      const made = await labels.toProperty(ws, 'contracts', 'SecurityDeposit');
      assert.equal(made.created, true);
      const after = (await all(ws, 'contracts')).items;
      assert.equal(after.find((l) => l.kind === 'value' && l.name === 'SecurityDeposit')!.property?.id, made.property.id);
      assert.ok(after.filter((l) => l.kind === 'clause').every((l) => l.property === null), "a clause is no property, even one whose name a property's label id is");
      assert.deepEqual((await store.semanticLabels.ofDocument('contract-2')).rows.map((r) => [r.kind, r.name]), [
        ['value', 'SecurityDeposit'],
        ['clause', 'GoverningLaw'],
        ['clause', 'Insurance'],
        ['clause', 'SecurityDeposit'],
      ]);
    });
  });
});

describe('found labels: values named by what their context says', () => {
  test("an agreement's date is the AgreementDate whatever its title; a date entered into; the end of a reporting period", async () => {
    assert.deepEqual(await labelsOf('Reference is made to the Master Equipment Rental Agreement dated June 2, 2021 between the parties.\n'), [['AgreementDate', 'June 2, 2021']]);
    assert.deepEqual(await labelsOf('WHEREAS, on or about August 9, 2022, Harbor and Quill entered into a Services Agreement; and\n'), [['AgreementDate', 'August 9, 2022']]);
    assert.deepEqual(await labelsOf('Net sales for the fiscal year ended September 30, 2024 rose by a tenth.\n'), [['ReportingPeriodEndDate', 'September 30, 2024']]);
  });

  test("dates written as a day of a month, with a superscript caret or as a form's blanks", async () => {
    assert.deepEqual(await labelsOf('This Sublease is made as of the 3^rd day of March, 2019 (the "Execution Date").\n'), [['ExecutionDate', '3^rd day of March, 2019']]);
    assert.deepEqual(await labelsOf('This Option Agreement is made as of the __ day of ________, 20__ (the "Grant Date").\n'), [['GrantDate', '__ day of ________, 20__']]);
  });

  test('parties named by their roles: labels, signature blocks, short names that are not roles, roles a sentence gives', async () => {
    assert.deepEqual(await labelsOf('Its: Chief Operating Officer\n\nLANDLORD: HARBOR POINT HOLDINGS, LLC, a Delaware limited liability company\n'), [['LandlordName', 'HARBOR POINT HOLDINGS, LLC']]);
    assert.deepEqual(await labelsOf('QUILL RIDGE PARTNERS, LLC, a Delaware limited liability company, sole member\n'), [['MemberName', 'QUILL RIDGE PARTNERS, LLC']]);
    assert.deepEqual(await labelsOf('Orchard Analytics Corporation, a Delaware corporation ("Orchard Corp.") is the general partner of Orchard LP.\n'), [['GeneralPartnerName', 'Orchard Analytics Corporation']]);
    assert.deepEqual(await labelsOf('This Agreement is made between Bright Owl Bakery Inc., a Texas corporation ("BOB" or the "Company"), and Jane Roe.\n'), [['CompanyName', 'Bright Owl Bakery Inc.']]);
    assert.deepEqual(await labelsOf('"Revolver Agent" shall mean First Meridian Bank, N.A., in its capacity as "Administrative Agent" under the Revolving Credit Agreement.\n'), [['AdministrativeAgentName', 'First Meridian Bank, N.A.']]);
    assert.deepEqual(await labelsOf('BY AND BETWEEN GREY HERON PLAZA GROUP, LP, AS LANDLORD, AND BLUE FINCH LABS, INC., AS TENANT\n'), [['LandlordName', 'GREY HERON PLAZA GROUP, LP'], ['TenantName', 'BLUE FINCH LABS, INC.']]);
    assert.deepEqual(await labelsOf('SILVER FERN CAPITAL LLC and NORTHWIND SECURITIES LLC, as Joint Lead Arrangers and Joint Bookrunners\n'), [['LeadArrangerName', 'NORTHWIND SECURITIES LLC']]);
    // A signature page's line of the defined role alone ("The Pledgor") over the firm's line; not a heading over a sentence.
    assert.deepEqual(await labelsOf('The Pledgor\n\nMARLOW CONTAINER COMPANY, L.P.\n\nDuly represented by:\n'), [['PledgorName', 'MARLOW CONTAINER COMPANY, L.P.']]);
    assert.deepEqual(await labelsOf('THE SELLERS\n\nQuill Ridge Partners LLC, a Delaware limited liability company\n'), [['SellerName', 'Quill Ridge Partners LLC']]);
    assert.deepEqual(await labelsOf('The Company\n\nQuill Ridge Partners LLC designs and sells lamps.\n'), []);
    assert.deepEqual(await labelsOf('The Premises\n\nQuill Ridge Partners LLC\n'), []);
  });

  test('a firm the agreement is between, with no role given, is a company', async () => {
    assert.deepEqual(await labelsOf('This Supply Agreement is made by and between Copper Kettle Foods, Inc., having a place of business at 12 Elm Street, Dayton, Ohio, and the undersigned.\n'), [['CompanyName', 'Copper Kettle Foods, Inc.'], ['CompanyAddress', '12 Elm Street, Dayton, Ohio']]);
    assert.deepEqual(await labelsOf('This Amendment is entered into by and between HARBOR LIGHT SYSTEMS, LLC and RIVER BEND LOGISTICS CORP.\n'), [['CompanyName', 'HARBOR LIGHT SYSTEMS, LLC'], ['CompanyName', 'RIVER BEND LOGISTICS CORP.']]);
    // A role given wins; a name with no legal suffix, or a person, is not called a company.
    assert.deepEqual(await labelsOf('This Lease is made between Copper Kettle Foods, Inc. ("Tenant") and the Landlord.\n'), [['TenantName', 'Copper Kettle Foods, Inc.']]);
    assert.deepEqual(await labelsOf('The dispute between Copper Kettle and Mara Quinn was settled.\n'), []);
  });

  test('a place is not a party: a company organised under the laws of a country', async () => {
    assert.deepEqual(await labelsOf('MAPLE GROVE FOODS LTD., a company organized under the laws of Canada (the "Canadian Borrower"), agrees.\n'), [['CanadianBorrowerName', 'MAPLE GROVE FOODS LTD.']]);
  });

  test('periods named by what is done within them: a deadline for what one must do, a period for what one may', async () => {
    // An active verb of doing names the period by its object.
    assert.deepEqual(await labelsOf("The Tenant's failure to conduct an audit within 60 days of the statement waives it.\n"), [['AuditDeadline', '60 days']]);
    // The object's head is its last word: "the insurance certificates", "the Landlord Work".
    assert.deepEqual(await labelsOf('Tenant shall furnish the insurance certificates within ten (10) days.\n'), [['CertificateDeadline', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('Landlord shall complete the Landlord Work within ninety (90) days.\n'), [['WorkDeadline', 'ninety (90) days']]);
    assert.deepEqual(await labelsOf('Parent shall make such documents available to Buyer not later than 30 days after signing.\n'), [['DocumentsDeadline', '30 days']]);
    // A date "on or before", "no later than" what the clause's verb does is its deadline.
    assert.deepEqual(await labelsOf('Landlord shall complete the Landlord Work on or before May 1, 2027.\n'), [['LandlordWorkDeadline', 'May 1, 2027']]);
    assert.deepEqual(await labelsOf('The Company shall deliver the audited financial statements not later than March 31, 2028.\n'), [['DeliveryDeadline', 'March 31, 2028']]);
    // "In no event shall … later than": the modal before the subject, the deadline of what the verb does all the same.
    assert.deepEqual(await labelsOf('In no event shall this Agreement be returned later than March 2, 2027.\n'), [['ReturnDeadline', 'March 2, 2027']]);
    assert.deepEqual(await labelsOf('In no event shall the Company deliver the shares later than March 15, 2026.\n'), [['DeliveryDeadline', 'March 15, 2026']]);
    // What "takes place" by a date is an event, as what "occurs": its date, not a place's deadline.
    assert.deepEqual(await labelsOf('The Closing shall take place no later than May 31, 2027.\n'), [['ClosingDate', 'May 31, 2027']]);
    // The period a duration measures, by its own name after it.
    assert.deepEqual(await labelsOf('Interest accrues over a three-month Interest Period from the draw.\n'), [['InterestPeriod', 'three-month']]);
    // "two-year (2-year)": the figure in brackets is the same duration's, one value.
    assert.deepEqual(await labelsOf('Company may extend this Agreement for an additional two-year (2-year) period (the "Renewal Term") by notice to Bank.\n'), [['RenewalTerm', 'two-year (2-year)']]);
    assert.deepEqual(await labelsOf('After the ten (10) day inspection period the Buyer accepts the goods.\n'), [['InspectionPeriod', 'ten (10) day']]);
    // A period opening its clause: the verb after the phrase it opens governs it; a verb with no event of its own, its object.
    assert.deepEqual(await labelsOf("Within ten (10) days of the Buyer's request, the Seller will provide certificates of origin.\n"), [['CertificatesDeadline', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('The Guarantor shall, within five Business Days of demand, reimburse each Lender for its costs.\n'), [['ReimbursementDeadline', 'five Business Days']]);
    assert.deepEqual(await labelsOf('Within ten (10) days, the weather in the valley changed.\n'), []);
    // "pay" as a noun says what is paid, not by when.
    assert.deepEqual(await labelsOf('The Director is eligible for severance pay of 12 (twelve) months of base salary.\n'), []);
    assert.deepEqual(await labelsOf('The Company shall reimburse the Consultant for such expenses within fifteen (15) days after receipt of an invoice.\n'), [['ReimbursementDeadline', 'fifteen (15) days']]);
    assert.deepEqual(await labelsOf('You will have twenty-one (21) days from receipt of this letter to review it.\n'), [['ReviewPeriod', 'twenty-one (21) days']]);
    assert.deepEqual(await labelsOf('The Seller shall notify the Buyer within 10 days of any change.\n'), [['NotificationPeriod', '10 days']]);
    assert.deepEqual(await labelsOf("The bonus will be paid to the Employee's designated bank account within 45 days after the Vesting Date.\n"), [['PaymentDeadline', '45 days']]);
  });

  test('periods named by the noun of any verb that governs them: a deadline for what one must do, a period for what one may', async () => {
    assert.deepEqual(await labelsOf('The Supplier shall deliver the spare parts to the Buyer within ten (10) days after each order.\n'), [['DeliveryDeadline', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('The Buyer shall promptly inspect the goods within 5 business days of their arrival.\n'), [['InspectionDeadline', '5 business days']]);
    assert.deepEqual(await labelsOf('The Member may submit a written appeal within thirty (30) days of the decision.\n'), [['SubmissionPeriod', 'thirty (30) days']]);
    assert.deepEqual(await labelsOf('The Holder shall have the right to convert the Note within 90 days after the Maturity Date.\n'), [['ConversionPeriod', '90 days']]);
    assert.deepEqual(await labelsOf('The Contractor shall use reasonable efforts to relocate the equipment within sixty (60) days of the request.\n'), [['RelocationDeadline', 'sixty (60) days']]);
    // A passive without a modal; a verb that carries no event passes to the noun it is said of.
    assert.deepEqual(await labelsOf('The Grant is forfeited if the Release is not signed and is not revoked within 7 days.\n'), [['RevocationPeriod', '7 days']]);
    assert.deepEqual(await labelsOf('If the petition is not dismissed within sixty (60) days of filing, the Lender may act.\n'), [['DismissalDeadline', 'sixty (60) days']]);
    assert.deepEqual(await labelsOf('Any notice of a claim shall be given within 180 days after the loss.\n'), [['NoticePeriod', '180 days']]);
    assert.deepEqual(await labelsOf('The report shall be made within 15 days after the end of each quarter.\n'), [['ReportDeadline', '15 days']]);
    assert.deepEqual(await labelsOf('The safety inspection must be completed within 72 hours of delivery.\n'), [['SafetyInspectionDeadline', '72 hours']]);
    assert.deepEqual(await labelsOf('Payment is due, unless notice thereof is given within 20 days of the invoice.\n'), [['NoticePeriod', '20 days']]);
    // How long a default may go on after notice is its cure period.
    assert.deepEqual(await labelsOf("The Lender may accelerate if such default continues for fifteen (15) days after the Borrower's receipt of written notice.\n"), [['CurePeriod', 'fifteen (15) days']]);
    assert.deepEqual(await labelsOf('The Buyer may terminate if a material breach shall continue for 30 days after notice thereof.\n'), [['CurePeriod', '30 days']]);
    // "for a period of": what goes on over it names a period, whatever the modal.
    assert.deepEqual(await labelsOf('The Holder shall be entitled to convert the Notes for a period of two (2) years after the Closing.\n'), [['ConversionPeriod', 'two (2) years']]);
    assert.deepEqual(await labelsOf('The Tenant shall renew the permit for a period of one year.\n'), [['RenewalPeriod', 'one year']]);
    assert.deepEqual(await labelsOf('The weather continued for a period of ten days.\n'), []);
    // "by notifying" within a termination: the notice's period.
    assert.deepEqual(await labelsOf('The Landlord may elect to terminate this Lease by notifying the Tenant in writing within 90 days after the casualty.\n'), [['TerminationNoticePeriod', '90 days']]);
    // No verb the table or the regular suffixes know, or no modal: nothing is named.
    assert.deepEqual(await labelsOf('The Tenant shall vacuum the carpets within 10 days.\n'), []);
    assert.deepEqual(await labelsOf('Sales rose within 30 days of the launch.\n'), []);
  });

  test('a defined term closing the clause names a period; a date a period runs through is the end date of that period', async () => {
    assert.deepEqual(await labelsOf('The Buyer shall remedy the defect within twenty (20) days of receipt of such notice (the "Remedy Period") and report.\n'), [['RemedyPeriod', 'twenty (20) days']]);
    assert.deepEqual(await labelsOf('For the period after the Closing and through March 1, 2027 (the "Non-Solicitation Period"), the Seller shall not hire.\n'), [['NonSolicitationPeriodEndDate', 'March 1, 2027']]);
    // A term after a comma belongs to something else: nothing is named by it.
    assert.deepEqual(await labelsOf('The Seller received ten (10) days, and a credit (the "Credit Period") later.\n'), []);
    // "The Company shall pay … in a lump sum in cash within 30 days": the verb governing "within" stands far back.
    assert.deepEqual(await labelsOf('The Buyer shall pay to the Seller in a lump sum in cash within 30 days after the Closing the price.\n'), [['PaymentDeadline', '30 days']]);
  });

  test('a date written on after its time is the time\'s event; "dated" before a document describes it', async () => {
    assert.deepEqual((await labelsOf('The Sublease will automatically terminate as of 11:59 p.m. on March 31, 2027.\n')).filter(([n]) => n.endsWith('Date')), [['TerminationDate', 'March 31, 2027']]);
    assert.deepEqual((await labelsOf('The Option shall expire at 5:00 p.m. Eastern Time on June 30, 2029.\n')).filter(([n]) => n.endsWith('Date')), [['ExpirationDate', 'June 30, 2029']]);
    assert.deepEqual((await labelsOf('Return this signed and dated Agreement before 5:00 pm Central Time on May 29, 2027.\n')).filter(([n]) => n.endsWith('Date')), []);
  });

  test('a bare "as of" after the parties dates what the opening sentence says its document is', async () => {
    assert.deepEqual((await labelsOf('This Consulting Agreement ("Agreement") is effective by and between Mara Quinn ("Consultant") and Pine Cone Labs, Inc. ("Company") as of March 2, 2027.\n')).filter(([n]) => n.endsWith('Date')), [['EffectiveDate', 'March 2, 2027']]);
    assert.deepEqual((await labelsOf('THIS LEASE is made and entered into by and between Grey Heron LLC ("Landlord") and Blue Finch Inc. ("Tenant") as of April 1, 2026.\n')).filter(([n]) => n.endsWith('Date')), [['LeaseDate', 'April 1, 2026']]);
    // Not the document's sentence: nothing is dated by it.
    assert.deepEqual((await labelsOf('The dispute between Grey Heron LLC ("Landlord") and Blue Finch Inc. ("Tenant") stands as of April 1, 2026.\n')).filter(([n]) => n.endsWith('Date')), []);
  });

  test('a date opening its sentence is the date of the event its verb says', async () => {
    // What is scheduled for a time or date, by its head.
    assert.deepEqual(await labelsOf('The annual meeting of members is scheduled for June 3, 2027.\n'), [['AnnualMeetingDate', 'June 3, 2027']]);
    // A witness clause's hand set on a date, a law signed, a deed recorded.
    assert.deepEqual(await labelsOf('IN WITNESS WHEREOF, the Guarantor has set his hand this 2nd day of June, 2029.\n'), [['SignatureDate', '2nd day of June, 2029']]);
    assert.deepEqual(await labelsOf('The Clean Water Act (signed into law October 18, 1972) applies.\n'), [['EnactmentDate', 'October 18, 1972']]);
    assert.deepEqual(await labelsOf('The easement was recorded March 3, 1999 in Book 12 at Page 40.\n'), [['RecordingDate', 'March 3, 1999']]);
    // The date an event "occurs" on or by: the event's, by the subject of "occurs" (its head, before an "of").
    assert.deepEqual(await labelsOf('If a Sale of the Company occurs prior to March 1, 2029, the units vest in full.\n'), [['SaleOfCompanyDate', 'March 1, 2029']]);
    assert.deepEqual(await labelsOf('If the Change of Control Event occurs on June 2, 2028 the plan ends.\n'), [['ChangeOfControlEventDate', 'June 2, 2028']]);
    assert.deepEqual(await labelsOf('If the delivery date of the second tranche of units occurs on or before May 1, 2030, the price is fixed.\n'), [['DeliveryDate', 'May 1, 2030']]);
    assert.deepEqual(await labelsOf('As of June 30, 2027, the Consultant hereby resigns from every office held.\n'), [['ResignationDate', 'June 30, 2027']]);
    assert.deepEqual(await labelsOf('On March 1, 2026, the Lease terminated by its terms.\n'), [['TerminationDate', 'March 1, 2026']]);
    // An event's word in another date's term is that date's: "continue until" a date is no effective date.
    assert.deepEqual(await labelsOf('This Agreement shall commence on the Effective Date and continue until December 31, 2028.\n'), []);
    // A noun of the event is no verb; a verb of no event names nothing.
    assert.deepEqual(await labelsOf('On March 1, 2026, the termination fee was paid.\n'), []);
    assert.deepEqual(await labelsOf('On March 1, 2026, the parties met in Boston.\n'), []);
    // A term defined as the value: a date by a date's head, a span of time by a period's or a unit of time's.
    assert.deepEqual(await labelsOf('"Outside Date" means June 30, 2027.\n'), [['OutsideDate', 'June 30, 2027']]);
    assert.deepEqual(await labelsOf('"Base Year" shall mean the twelve month period ending on June 30, 2022.\n'), [['BaseYear', 'twelve month']]);
    assert.deepEqual(await labelsOf('"Holiday Schedule" means June 30, 2027 and nothing else.\n'), []);
    // A grant is of an award, an option or a licence: a court granting a motion dates no grant.
    assert.deepEqual(await labelsOf('On January 1, 2027, the Company hereby grants to the Executive 10,000 restricted stock units.\n'), [['GrantDate', 'January 1, 2027']]);
    assert.deepEqual(await labelsOf("On July 17, 2023, the Circuit Court granted Apple's motion to stay enforcement.\n"), []);
  });

  test('a cap a clause sets on what its subject owes or spends is that subject\'s limit (a possessive kept as written, as labels write it)', async () => {
    assert.deepEqual(await labelsOf("In no event shall the Buyer's liability be greater; the Buyer's liability shall be limited to $250,000.\n"), [['BuyersLiabilityLimit', '$250,000']]);
    assert.deepEqual(await labelsOf('The moving expenses shall not exceed $12,000 in total.\n'), [['MovingExpenseLimit', '$12,000']]);
    // A party is no cap's subject.
    assert.deepEqual(await labelsOf('The Tenant shall not exceed $12,000 in total.\n'), []);
  });

  test('a capitalised term the sentence says the value is; the subject of the event a date belongs to', async () => {
    assert.deepEqual(await labelsOf('The Rent Commencement Date shall be March 1, 2027.\n'), [['RentCommencementDate', 'March 1, 2027']]);
    assert.deepEqual(await labelsOf('As used herein, the Monthly Base Rent will equal $12,500.\n'), [['MonthlyBaseRent', '$12,500']]);
    // A sentence's first word is no capitalised term; an amount's noun it still is ("Rent is $4,000": the rent).
    assert.deepEqual(await labelsOf('Rent is $4,000 per month.\n'), [['Rent', '$4,000']]);
    assert.deepEqual(await labelsOf('Tenant is $4,000 short.\n'), []);
    // In lower case after its determiner; a one-word term by the document it is of.
    assert.deepEqual(await labelsOf('The warranty period shall be twelve (12) months from delivery.\n'), [['WarrantyPeriod', 'twelve (12) months']]);
    assert.deepEqual(await labelsOf('The initial term of this Agreement shall be three (3) years.\n'), [['InitialTerm', 'three (3) years']]);
    assert.deepEqual(await labelsOf('The Term of this Lease shall be five (5) years.\n'), [['LeaseTerm', 'five (5) years']]);
    assert.deepEqual(await labelsOf('The term shall be five (5) years.\n'), []);
    // How long a document lasts is its term.
    assert.deepEqual(await labelsOf('This Agreement shall remain in full force and effect for a period of five (5) years.\n'), [['AgreementTerm', 'five (5) years']]);
    assert.deepEqual(await labelsOf('The Lease shall continue for ten (10) years.\n'), [['LeaseTerm', 'ten (10) years']]);
    assert.deepEqual(await labelsOf('The obligations shall continue for two (2) years.\n'), []);
    assert.deepEqual(await labelsOf("Tenant's obligation to pay Rent shall commence on July 1, 2026.\n"), [['RentCommencementDate', 'July 1, 2026']]);
    assert.deepEqual(await labelsOf("The Employee's employment under this Agreement shall commence on January 5, 2026.\n"), [['EmploymentStartDate', 'January 5, 2026']]);
  });

  test("addresses: the party's just before, a place's, a labelled one; nothing for a bare address", async () => {
    assert.deepEqual(
      (await labelsOf('This Agreement is between Pine Cone Labs Inc. ("Employer"), located at 40 Birch Road, Dayton, Ohio 45402, and Mara Quinn ("Employee"), residing at 9 Cedar Lane, Austin, Texas 78701.\n')).filter(([n]) => n.endsWith('Address')),
      [['EmployerAddress', '40 Birch Road, Dayton, Ohio 45402'], ['EmployeeAddress', '9 Cedar Lane, Austin, Texas 78701']],
    );
    assert.deepEqual(await labelsOf('Landlord leases to Tenant the premises located at 200 Harbor Street, Suite 5, Boston, Massachusetts 02110.\n'), [['PremisesAddress', '200 Harbor Street, Suite 5, Boston, Massachusetts 02110']]);
    assert.deepEqual(await labelsOf("Tenant's Address: 12 Elm Street, Dayton, Ohio 45402\n"), [['TenantAddress', '12 Elm Street, Dayton, Ohio 45402']]);
    assert.deepEqual(await labelsOf('We met at 12 Elm Street, Dayton, Ohio 45402 last year.\n'), []);
    // The defined term a "whose address is" clause is said of.
    assert.deepEqual(await labelsOf('Harbor Bank, N.A. (together with its successors, the "Bank"), whose address is 5 Pier Road, Dayton, Ohio 45402, and the Borrower agree.\n'), [['BankName', 'Harbor Bank, N.A.'], ['BankAddress', '5 Pier Road, Dayton, Ohio 45402']]);
    // What a firm owns is not its role: "having its principal office at" names no party.
    assert.ok(!(await labelsOf('Oak Row LLC, a Delaware limited liability company having its principal office at 5 Pier Road, Dayton, Ohio 45402, agrees.\n')).some(([n]) => /Office/.test(n)));
    // Past the role the firm at the address takes: `…, as Administrative Agent (the "Agent")`.
    assert.deepEqual(
      (await labelsOf('Notices to Harbor Bank, N.A. go to 100 Main Street, Providence, Rhode Island 02903, as Administrative Agent (the "Agent").\n')).filter(([n]) => n.endsWith('Address')),
      [['AgentAddress', '100 Main Street, Providence, Rhode Island 02903']],
    );
  });

  test('amounts: the par value of a class of stock, a head in the plural, a share of an amount, past a comparison', async () => {
    assert.deepEqual(await labelsOf('"Preferred Stock" means the preferred stock, par value $0.001 per share, of the Company.\n'), [['PreferredStockParValue', '$0.001']]);
    // "up to" is a comparison too; a royalty, an abatement and expenses are amounts.
    assert.deepEqual(await labelsOf('The Company will reimburse the Executive for relocation expenses up to $50,000.\n'), [['RelocationExpenses', '$50,000']]);
    assert.deepEqual(await labelsOf('Tenant shall be entitled to a rent abatement of $10,000.\n'), [['RentAbatement', '$10,000']]);
    assert.deepEqual(await labelsOf('Licensee shall pay Licensor a royalty of 5% of Net Sales.\n'), [['RoyaltyPercentage', '5%']]);
    assert.deepEqual(await labelsOf('The Company will pay fees $5,000.\n'), []);
    // "bonus" is no plural; a rate in money is by its unit, or the amount paid at it.
    assert.deepEqual(await labelsOf('The Executive shall be eligible for an annual bonus of up to 50% of Base Salary.\n'), [['AnnualBonusPercentage', '50%']]);
    assert.deepEqual(await labelsOf('The Consultant shall be paid an hourly rate of $150.\n'), [['HourlyRate', '$150']]);
    assert.deepEqual(await labelsOf('Executive shall receive a base salary at an annual rate of $440,000, payable monthly.\n'), [['BaseSalary', '$440,000']]);
    // The subject's head past what it is for: "the purchase price for the Shares shall be …", "… shall be equal to …".
    assert.deepEqual(await labelsOf('The purchase price for the Shares shall be Nine Million Dollars ($9,000,000.00), payable at closing.\n'), [['PurchasePrice', 'Nine Million Dollars ($9,000,000.00)']]);
    assert.deepEqual(await labelsOf('Monthly rent for the Annex shall be equal to $4,100 during the term.\n'), [['MonthlyRent', '$4,100']]);
    assert.deepEqual(await labelsOf('Tenant shall carry Plate Glass Insurance in an amount not less than $20,000 per occurrence.\n'), [['PlateGlassInsuranceAmount', '$20,000']]);
    // What a percentage says after it: the notes it is the coupon of, the share of a thing a verb happens to.
    assert.deepEqual(await labelsOf('The Issuer issued its 6.25% Senior Notes due 2031 last year.\n'), [['NoteInterestRate', '6.25%']]);
    assert.deepEqual(await labelsOf('25% of the units will vest on each anniversary of the grant.\n'), [['VestingPercentage', '25%']]);
    assert.deepEqual(await labelsOf('25% of the units were sold last year.\n'), []);
    assert.deepEqual(await labelsOf('The Company has 1,000 shares of $0.01 par value common stock.\n'), [['CommonStockParValue', '$0.01']]);
    assert.deepEqual(await labelsOf('Each unit is one share of Common Stock ($0.001 par value) of the Company.\n'), [['CommonStockParValue', '$0.001']]);
    assert.deepEqual((await labelsOf('There were 500 shares of preferred stock of Fenwick Mills, Inc., $0.01 par value per share, outstanding.\n')).filter(([n]) => n.endsWith('ParValue')), [['PreferredStockParValue', '$0.01']]);
    assert.deepEqual(await labelsOf('Quarterly operating costs of $1,250 were reported.\n'), [['QuarterlyOperatingCosts', '$1,250']]);
    assert.deepEqual(await labelsOf('The Consultant earns a commission equal to fifteen percent (15%) of net sales.\n'), [['CommissionPercentage', 'fifteen percent (15%)']]);
    assert.deepEqual(await labelsOf('No advance of less than $50,000 may be requested.\n'), [['AdvanceAmount', '$50,000']]);
    assert.deepEqual(await labelsOf('an amount equal to 10% of the Loan\n'), []);
  });

  test('signatures: a name after /s/, a person with a job title after it; a line that only says dated, by its heading', async () => {
    // The signer by the signature; the lines of fields under it by their labels (src/ingest/stages/form-labels.ts).
    assert.deepEqual(await labelsOf('By: /s/ Nora Ellis\nName: Nora Ellis\nTitle: Chief Executive Officer\n'), [
      ['SignatoryName', 'Nora Ellis'],
      ['Name', 'Nora Ellis'],
      ['Title', 'Chief Executive Officer'],
    ]);
    assert.deepEqual(await labelsOf('/s/ Owen Park\n'), [['SignatoryName', 'Owen Park']]);
    assert.deepEqual(await labelsOf('Nora Q. Ellis Chief Financial Officer\n'), [['SignatoryName', 'Nora Q. Ellis']]);
    // The title on the line under a name alone on its line, an acting or interim one too.
    assert.deepEqual(await labelsOf('Accepted by the Company.\n\nNora Q. Ellis\n\n          Interim Chief Executive Officer\n\nDate:\n'), [['SignatoryName', 'Nora Q. Ellis']]);
    assert.deepEqual(await labelsOf('Owen R. Park Deputy Chief Financial Officer\n'), [['SignatoryName', 'Owen R. Park']]);
    // A name line with no title under it signs nothing.
    assert.deepEqual(await labelsOf('Accepted by the Company.\n\nNora Q. Ellis\n\nFebruary 2027 Meeting Notes\n'), []);
    assert.deepEqual((await labelsOf('SUPPLEMENTAL INDENTURE\n\nDated as of June 1, 2030\n\namong Fenwick Mills Corp., as Issuer, and Lakeside Trust Company, as Trustee\n'))[0], ['IndentureDate', 'June 1, 2030']);
  });

  test('firms in capitals with a title word inside, a role in apposition before the name, a label set as a heading', async () => {
    assert.deepEqual(await labelsOf('NORTHERN SENIOR LENDING, INC., as the Swingline Lender\n'), [['SwinglineLenderName', 'NORTHERN SENIOR LENDING, INC.']]);
    assert.deepEqual(await labelsOf('Title: Director KESTREL HOLDINGS LLC, solely in its capacity as the Escrow Agent\n'), [
      ['Title', 'Director'],
      ['EscrowAgentName', 'KESTREL HOLDINGS LLC'],
    ]);
    assert.deepEqual(await labelsOf('Lakeside Industries Inc. and its wholly owned subsidiary, Lakeside Leasing Corporation, a Delaware corporation, agree as follows.\n'), [['SubsidiaryName', 'Lakeside Leasing Corporation']]);
    // A law's year, by the law's name (its connectors and commas kept, an article before it not).
    assert.deepEqual(await labelsOf('Title VII of The Civil Rights Act of 1964, as amended, applies.\n'), [['CivilRightsActYear', '1964']]);
    assert.deepEqual(await labelsOf('Tenant shall comply with the Americans with Disabilities Act of 1990 as amended.\n'), [['AmericansWithDisabilitiesActYear', '1990']]);
    assert.deepEqual(await labelsOf('The Act of 2010 applies.\n'), []);
    // A sentence's defined role, then the name in apposition to it (closed by its comma).
    assert.deepEqual(await labelsOf('The Guarantor, Harbor Parent Inc., hereby guarantees the obligations of the Borrower.\n'), [['GuarantorName', 'Harbor Parent Inc.']]);
    assert.deepEqual(await labelsOf('Upon notice to the Lender, Harbor Parent Inc. shall pay the amount.\n'), []);
    assert.deepEqual(await labelsOf('TENANT:\n\nBLUE FINCH LABS, INC.,\n\na Delaware corporation\n'), [['TenantName', 'BLUE FINCH LABS, INC.']]);
    // An address's care-of ends the role.
    assert.deepEqual(await labelsOf('Notices go to Lakeside Trust Company, as Trustee c/o Harbor Bank.\n'), [['TrusteeName', 'Lakeside Trust Company']]);
    // A role the sentence says the firm acts or serves as.
    assert.deepEqual(await labelsOf('Stone Realty Group has acted as broker for the Tenant.\n'), [['BrokerName', 'Stone Realty Group']]);
    assert.deepEqual(await labelsOf('Stone Realty Group has acted in good faith.\n'), []);
    // A name set alone over its role ("as trustee of …") reads as a heading; the role under it names it, and only then.
    assert.deepEqual(await labelsOf('HARBOUR TRUST NOMINEES LIMITED\n\n   as trustee of the Pell Street Funding Trust\n'), [['TrusteeName', 'HARBOUR TRUST NOMINEES LIMITED']]);
    assert.deepEqual(await labelsOf('HARBOUR TRUST NOMINEES LIMITED\n\n   The trustee of the Pell Street Funding Trust signs below.\n'), []);
  });

  test('defined terms without quotes or brackets: (the Company), hereinafter referred to as "Landlord"; a former name named as one', async () => {
    assert.deepEqual(await labelsOf('This Lease is made by Heron Realty LLC, a Delaware limited liability company, hereinafter referred to as "Landlord", and Finch Labs Inc., hereinafter called "Tenant".\n'), [['LandlordName', 'Heron Realty LLC'], ['TenantName', 'Finch Labs Inc.']]);
    assert.deepEqual(await labelsOf('Kestrel Bancorp (the Company) and its directors agree.\n'), [['CompanyName', 'Kestrel Bancorp']]);
    assert.deepEqual(await labelsOf('Osprey Inc. (formerly known as Plover Inc.) (the "Company") agrees.\n'), [['CompanyName', 'Osprey Inc.'], ['FormerCompanyName', 'Plover Inc.']]);
    assert.deepEqual(await labelsOf('Wren Holdings, Inc., a Delaware corporation (together with its subsidiaries, the "Company"), agrees.\n'), [['CompanyName', 'Wren Holdings, Inc.']]);
  });

  test('banks named whole (U.S. …, …, National Association), a party a sentence makes a lender; a document effective on a date', async () => {
    assert.deepEqual(await labelsOf('U.S. Bank National Association, as trustee (the "Trustee")\n'), [['TrusteeName', 'U.S. Bank National Association']]);
    assert.deepEqual(await labelsOf('Prairie State Bank, National Association, as Trustee\n'), [['TrusteeName', 'Prairie State Bank, National Association']]);
    assert.deepEqual(await labelsOf('Prairie State Bank, National Association has agreed to become a Lender under the Credit Agreement.\n'), [['LenderName', 'Prairie State Bank, National Association']]);
    assert.deepEqual(await labelsOf('This Sublease shall become effective on June 1, 2026.\n'), [['SubleaseEffectiveDate', 'June 1, 2026']]);
    assert.deepEqual(await labelsOf('This Agreement is effective as of June 1, 2026.\n'), [['EffectiveDate', 'June 1, 2026']]);
  });

  test('a firm the sentence says is incorporated somewhere, with no other role, is a company; a role past its appositive or address', async () => {
    assert.deepEqual(await labelsOf('The goods were sold by Kestrel Widgets Corp., a company incorporated under the laws of Ontario, last year.\n'), [['CompanyName', 'Kestrel Widgets Corp.']]);
    assert.deepEqual(await labelsOf('Signed by KESTREL HOLDINGS LLC, a Nevada limited liability company\n'), [['CompanyName', 'KESTREL HOLDINGS LLC']]);
    assert.deepEqual(await labelsOf('Harbor Lane Partners, LLC, a Virginia limited liability company, on behalf of and as agent for the owners of the Building\n'), [['AgentName', 'Harbor Lane Partners, LLC']]);
    assert.deepEqual(
      (await labelsOf('This Lease is made between Jane Roe ("Lessor") and FENWICK MINING INC., a Nevada corporation, having its offices at 12 Main Street, Reno, NV 89501 ("Lessee").\n')).filter(([n]) => n.endsWith('Name')),
      [['LessorName', 'Jane Roe'], ['LesseeName', 'FENWICK MINING INC.']],
    );
    assert.deepEqual(await labelsOf('Investment Director "Tenant" KESTREL HOLDINGS, INC., a Delaware corporation\n'), [['TenantName', 'KESTREL HOLDINGS, INC.']]);
    assert.deepEqual(await labelsOf('"LANDLORD"\n\nHARBOR LANE, LLC,\na Delaware limited liability company\n'), [['LandlordName', 'HARBOR LANE, LLC']]);
    assert.deepEqual(await labelsOf('Title: HARBOR LANE HOLDINGS, LLC, a Georgia limited liability company\n'), [['CompanyName', 'HARBOR LANE HOLDINGS, LLC']]);
    // A person, or a firm with no word of incorporation, is not named a company.
    assert.deepEqual(await labelsOf('Kestrel Widgets Corp. shipped the goods to Ontario.\n'), []);
  });

  test('a plan just before "effective on" is what is effective; a document past what it is for is what is dated', async () => {
    assert.deepEqual(await labelsOf('Awards are granted under the Fenwick Mills Corp. 2024 Equity Incentive Plan effective on May 2, 2024.\n'), [['PlanName', '2024 Equity Incentive Plan'], ['PlanEffectiveDate', 'May 2, 2024']]);
    // A cause ("due to Retirement") is not the event a date is of.
    assert.deepEqual(await labelsOf('If the Employee leaves due to Retirement prior to June 1, 2027, the award lapses.\n'), []);
    // "Executive" is a party, not the act of executing.
    assert.deepEqual(await labelsOf('The Executive shall have until June 30, 2027 to sell the shares.\n'), []);
    // A plan's short name alone ("the Plan") says no more than PlanName.
    assert.deepEqual(await labelsOf('Options are granted under its 2024 Equity Incentive Plan (the "Plan") to employees.\n'), [['PlanName', '2024 Equity Incentive Plan']]);
    assert.deepEqual(await labelsOf('The notes are issued under the Indenture for the 2031 Senior Notes dated as of March 3, 2021, as amended.\n'), [['IndentureDate', 'March 3, 2021']]);
  });

  test('a former name is named so; a state is no party; a time on its date takes the term after the date; a cause is passed over', async () => {
    assert.deepEqual(await labelsOf('Fenwick Mills, Inc. (f/k/a Harbor Acquisition Corp.), a corporation organized in the State of Nevada (the "Company"), grants the award.\n'), [['FormerCompanyName', 'Harbor Acquisition Corp.']]);
    assert.deepEqual(await labelsOf('Kestrel LLC (formerly known as Granite Widgets LLC) sold the goods.\n'), [['FormerCompanyName', 'Granite Widgets LLC']]);
    assert.deepEqual(await labelsOf('Jane Roe agrees to serve as a director of the Company as of 10:00 a.m. on March 3, 2027 (the "Effective Time").\n'), [['DirectorName', 'Jane Roe'], ['EffectiveTime', '10:00 a.m.']]);
    assert.deepEqual(await labelsOf('If the Employee terminates her employment due to Retirement or Disability before June 1, 2027, the award lapses.\n'), [['TerminationDate', 'June 1, 2027']]);
  });

  test('a definition names its first amount or rate by its term; a change "to" a value is an amount of what changes; no role from "as amended" or a term of a thing', async () => {
    assert.deepEqual(await labelsOf('"Liquidity Trigger Amount" means, at any time, an amount equal to 12.5% of the total Commitments.\n'), [['LiquidityTriggerPercentage', '12.5%']]);
    assert.deepEqual(await labelsOf('"Minimum Net Worth" means $40,000,000.\n'), [['MinimumNetWorthAmount', '$40,000,000']]);
    assert.deepEqual(await labelsOf('Harbor Bank hereby increases its Commitment to $20,000,000.\n'), [['CommitmentAmount', '$20,000,000']]);
    // (No role from "as amended": the law's year is all that is named.)
    assert.deepEqual(await labelsOf('claims under Title VII of the Civil Rights Act of 1964, as amended, and the Age Discrimination Act.\n'), [['CivilRightsActYear', '1964']]);
    assert.deepEqual(await labelsOf('The parties completed the Merger Sub Transaction (the "Closing") last week.\n'), []);
  });

  test('a period set by "within" far from its words is governed by the clause verb after its modal, or a denied participle', async () => {
    assert.deepEqual(await labelsOf('Landlord will, at its sole cost, repaint all of the existing "loading docks" which are a part of the Building within 60 days of the date hereof.\n'), []);
    assert.deepEqual(await labelsOf('Landlord will, at its expense, replace all of the existing "loading docks" which are a part of the Building within 60 days of the date hereof.\n'), [['ReplacementDeadline', '60 days']]);
    assert.deepEqual(await labelsOf('Any equipment not removed from the Building or from the yard by the Contractor within fifteen (15) days after the end of the Term is abandoned.\n'), [['RemovalDeadline', 'fifteen (15) days']]);
    // What one must give is no event of its own.
    assert.deepEqual(await labelsOf('The Contractor shall, at its own cost, provide copies of all of the permits it holds for the works within 10 days of a request.\n'), []);
  });

  test('a notice\'s addressee and kind of address; the end of reported months; a term moved "to" a value', async () => {
    assert.deepEqual(await labelsOf('If intended for Subtenant, to: Osprey Labs, 14 Harbor Road, Salem, Oregon 97301\n'), [['SubtenantAddress', '14 Harbor Road, Salem, Oregon 97301']]);
    assert.deepEqual(await labelsOf('KESTREL MILLS, INC., with a mailing address of 40 Canal Street, Suite 9, Lowell, Massachusetts 01852, agrees.\n'), [['MailingAddress', '40 Canal Street, Suite 9, Lowell, Massachusetts 01852']]);
    assert.deepEqual(await labelsOf('Revenue for the three and nine months ended September 30, 2025 rose.\n'), [['ReportingPeriodEndDate', 'September 30, 2025']]);
    assert.deepEqual(await labelsOf('The Expiration Date of the Lease is hereby extended to May 31, 2030.\n'), [['ExpirationDate', 'May 31, 2030']]);
    // A period that runs out, not one reported on.
    assert.deepEqual(await labelsOf('The option may be exercised over a term of two years ending May 31, 2030.\n'), [['TermLength', 'two years']]);
  });

  test('a period named by a term closing its clause (lower case too, or the period of what the term names); the length of a term', async () => {
    assert.deepEqual(await labelsOf('Your salary continues for nine months starting in the first pay cycle after the Release Date (the "continuation period").\n'), [['ContinuationPeriod', 'nine months']]);
    assert.deepEqual(await labelsOf('as if the Employee had worked throughout the six (6) month period following the Separation Date (the "Tail Bonus").\n'), [['TailBonusPeriod', 'six (6) month']]);
    assert.deepEqual(await labelsOf('The Sublease provides for an initial term of approximately five (5) years, commencing on the Delivery Date.\n'), [['InitialTermLength', 'five (5) years']]);
    assert.deepEqual(await labelsOf('The premises are let for a term of ten (10) years.\n'), [['TermLength', 'ten (10) years']]);
  });

  test('an amount the text only measures ("an aggregate principal amount of") is named by what it is of', async () => {
    assert.deepEqual(await labelsOf('(b) any prepayment shall be in a principal amount of $2,000,000 or a whole multiple of $500,000 in excess thereof.\n'), [['PrepaymentAmount', '$2,000,000']]);
    assert.deepEqual(await labelsOf('its commitment to make a Term B Loan on the Closing Date in an aggregate amount equal to $90,000,000.\n'), [['LoanAmount', '$90,000,000']]);
    assert.deepEqual(await labelsOf('The Issuer has outstanding an aggregate principal amount of $40,000,000.\n'), [['AggregatePrincipalAmount', '$40,000,000']]);
  });

  test('a date "or such later date" takes the term in its bracket; a document named after an effective date is what is effective', async () => {
    assert.deepEqual(await labelsOf('In no event shall the Closing occur later than June 30, 2027 (or such later date as Buyer and Seller may agree in writing, the "Termination Date").\n'), [['TerminationDate', 'June 30, 2027']]);
    assert.deepEqual(await labelsOf('WHEREAS, the parties entered into that certain Master Lease Agreement dated as of May 4, 2026, but effective as of March 1, 2026 (the "Lease").\n'), [['AgreementDate', 'May 4, 2026'], ['LeaseEffectiveDate', 'March 1, 2026']]);
  });

  test('a bracket that refers to a date by the term of its event names it ("hereinafter referred to as the "Closing"")', async () => {
    assert.deepEqual(await labelsOf('The merger of Harbor Inc. and Osprey LLC was completed on March 2, 2026 (such merger is hereinafter referred to as the "Closing").\n'), [['ClosingDate', 'March 2, 2026']]);
    assert.deepEqual(await labelsOf('The Premises shall be delivered on May 1, 2026 (the "Delivery").\n'), [['DeliveryDate', 'May 1, 2026']]);
    // A term that is no event is no name of the date.
    assert.deepEqual(await labelsOf('The goods shipped on May 1, 2026 (the "Shipment Lot") arrived.\n'), []);
  });

  test('an amount by the hour, named for nothing else, is an hourly rate', async () => {
    assert.deepEqual(await labelsOf('$85.00 per hour, per technician, with a minimum of one hour per visit.\n'), [['HourlyRate', '$85.00']]);
    assert.deepEqual(await labelsOf('Travel is reimbursed at cost, up to $500 per trip.\n'), []);
  });

  test('a rank given by its number is named by its own name ("Work Level 5"), a bare "Level 3" not', async () => {
    assert.deepEqual(await labelsOf('The Employee starts on June 1, 2026 at Salary Grade 12 of the Company scale.\n'), [['EmploymentStartDate', 'June 1, 2026'], ['SalaryGrade', '12']]);
    assert.deepEqual(await labelsOf('Parking is provided at Level 3 of the garage.\n'), []);
  });

  test('how far a time is moved ("delayed by"); how long one may take ("up to") is a period of the clause verb', async () => {
    assert.deepEqual(await labelsOf('Each milestone shall be delayed by two (2) days for each day of Owner Delay.\n'), [['DelayPeriod', 'two (2) days']]);
    assert.deepEqual(await labelsOf('The Employee may review the release with counsel of his choice by taking up to ten (10) days after he receives it.\n'), [['ReviewPeriod', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('The Contractor shall repair the defects, taking up to thirty (30) days as needed.\n'), [['RepairPeriod', 'thirty (30) days']]);
  });

  test('a period for obtaining something is named by what is obtained, past its participle modifiers', async () => {
    assert.deepEqual(await labelsOf('Buyer may use its reasonable efforts to obtain any such Pending Approval after Closing for a period of six months.\n'), [['ApprovalPeriod', 'six months']]);
  });

  test('the bound a clause sets on how long its subject takes ("the repair time is expected to exceed 90 days")', async () => {
    assert.deepEqual(await labelsOf('If the repair time is expected to exceed 90 days, Tenant may terminate.\n'), [['RepairTimeLimit', '90 days']]);
    assert.deepEqual(await labelsOf('Neither party shall exceed 90 days in any year.\n'), []);
  });

  test('a time "no later than" is the deadline of the clause verb, after the phrases it opens', async () => {
    assert.deepEqual(await labelsOf('The Paying Agent shall, no later than 11:00 a.m., London time, on each payment date, transfer the funds to the Holders.\n'), [['TransferDeadline', '11:00 a.m., London time']]);
    // A verb that carries no event names nothing.
    assert.deepEqual(await labelsOf('The Agent shall, no later than 11:00 a.m., London time, on each payment date, give notice to the Holders.\n'), []);
  });

  test('a count in words and figure is named by what it counts ("twenty five (25) vacation days"), a duration is not a count', async () => {
    assert.deepEqual(await labelsOf('The Employee is entitled to fifteen (15) sick days in each year of service.\n'), [['SickDays', 'fifteen (15)']]);
    assert.deepEqual(await labelsOf('The Buyer has ten (10) business days to object.\n'), [['ObjectionPeriod', 'ten (10) business days']]);
  });

  test('a name in capitals keeps its article; a sentence in capitals does not lend it one', async () => {
    assert.deepEqual(await labelsOf('THE GRANITE MUTUAL INSURANCE COMPANY OF OHIO, as Lender\n'), [['LenderName', 'THE GRANITE MUTUAL INSURANCE COMPANY OF OHIO']]);
    assert.deepEqual(await labelsOf('BY AND BETWEEN THE LANDLORD AND ACME LLC, AS TENANT\n'), [['TenantName', 'ACME LLC']]);
  });

  test('a label line before a name gives its role only when it names one (LENDERS:, not NOTICES: or WITNESSETH:)', async () => {
    assert.deepEqual(await labelsOf('LENDERS:\n\nHARBOR BANK, N.A., a Lender and L/C Issuer\n'), [['LenderName', 'HARBOR BANK, N.A.']]);
    assert.deepEqual(await labelsOf('NOTICES:\n\nAcme Widgets Corp., 1 Main Street, Dayton, Ohio 45402\n'), []);
    assert.deepEqual(await labelsOf('WITNESSETH:\n\nAcme Widgets Corp. agrees to sell the goods.\n'), []);
  });

  test('a bare rate "at the rate of" is the rate of the noun it is at (a percentage; money paid at a rate is not a rate of its noun)', async () => {
    assert.deepEqual(await labelsOf('Overdue amounts bear interest at the rate of 1.5% per month.\n'), [['InterestRate', '1.5%']]);
    // After a modal the word at the rate is a verb ("accrue"), not what the rate is of.
    assert.deepEqual(await labelsOf('Interest shall accrue at the rate of 5% per annum.\n'), [['InterestRate', '5%']]);
    assert.deepEqual(await labelsOf('Such amounts shall accrue at the rate of 5% per annum.\n'), [['Rate', '5%']]);
    assert.deepEqual(await labelsOf('Tenant shall pay rent at the rate of $5,000 per month.\n'), []);
  });

  test('a period after "and" with a verb of its own is not named by the verb before "and"; verbs side by side share it', async () => {
    assert.deepEqual(await labelsOf('The term shall commence on the Effective Date and continue for a period of three (3) years.\n'), []);
    assert.deepEqual(await labelsOf('The Lender shall approve or reject the request within fifteen (15) days of receipt.\n'), [['ApprovalDeadline', 'fifteen (15) days']]);
  });

  test('"as" names a role only with a role noun or a capitalised role: "as set forth", "as soon as possible" name none', async () => {
    assert.deepEqual(await labelsOf('Landlord shall deliver possession of the Premises as soon as reasonably possible.\n'), []);
    assert.deepEqual(await labelsOf('Rent shall be paid to Harbor Realty LLC as set forth in Exhibit B.\n'), []);
    assert.deepEqual(await labelsOf('Harbor Realty LLC, as escrow agent, shall hold the deposit.\n'), [['EscrowAgentName', 'Harbor Realty LLC']]);
    assert.deepEqual(await labelsOf('Harbor Bank, N.A., as Administrative Agent and Collateral Agent.\n'), [['AdministrativeAgentName', 'Harbor Bank, N.A.']]);
  });

  test('a capitalised term after a lower-case "the" is a thing the contract defines, not a party', async () => {
    assert.deepEqual(await labelsOf('The required amount of the Letter of Credit (the "Required Amount") may be reduced.\n'), []);
    assert.deepEqual(await labelsOf('Rent rises with inflation during the extended Lease Term (the "Fair Market Rental Value").\n'), []);
    assert.deepEqual(await labelsOf('This Agreement is made with Harbor Bank, N.A. (the "Lender").\n'), [['LenderName', 'Harbor Bank, N.A.']]);
  });

  test("a name made of a term's words leaves their punctuation out", async () => {
    const labels = await labelsOf('Widget Corp., a Delaware corporation with its principal place of business at 123 Innovation Drive, Techville, Delaware 12345 ("Widget Corp.").\n');
    assert.ok(labels.some(([name]) => name === 'WidgetCorpAddress'), JSON.stringify(labels));
  });

  test('verbs in -ise/-ize take -ization only where that is their noun ("authorize", not "advise"); a spanned period is no deadline; a name stops at a preposition', async () => {
    assert.deepEqual(await labelsOf('Buyer shall authorize the transfer within ten (10) days.\n'), [['AuthorizationDeadline', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('Within 30 days after receipt of the notice, Landlord shall advise Tenant of the rent.\n'), []);
    assert.deepEqual(await labelsOf('Rent shall not be less than the Base Rent payable for the 12-month period before expiration.\n'), []);
    assert.deepEqual(await labelsOf('Tenant shall carry insurance with minimum limits of $2 million per occurrence.\n'), [['MinimumLimits', '$2 million']]);
  });

  test('"I, <name>," signs only where "I" is the pronoun, not "Part I, Item 1"; an abbreviation in brackets is no role', async () => {
    assert.deepEqual(await labelsOf('I, Jane Roe, certify that the report is true.\n'), [['SignatoryName', 'Jane Roe']]);
    assert.deepEqual(await labelsOf('By signing below, I, Jane Roe, agree to the following.\n'), [['SignatoryName', 'Jane Roe']]);
    assert.deepEqual(await labelsOf('See the notes in Part I, Item 1 of this Form 10-Q.\n'), []);
    assert.deepEqual(await labelsOf('The agency is expanding the Coastal Risk and Harbor Authorization Office (CoRHAO).\n'), []);
  });

  test('a label names a role only by a role noun, over a name line, not over a sentence the name opens', async () => {
    assert.deepEqual(await labelsOf('Lessee: Acme Widgets Corp., a Delaware corporation\n'), [['LesseeName', 'Acme Widgets Corp.']]);
    assert.deepEqual(await labelsOf('Desired Outcome: Develop intelligence to protect the homeland.\n'), []);
    assert.deepEqual(await labelsOf('Community Leaders:\n\nHarbor Agency responds to incidents by engaging with community leadership.\n'), []);
    assert.deepEqual(await labelsOf('Interagency Partners:\n\nAlong with these initiatives, the agency works with partners.\n'), []);
    assert.deepEqual(await labelsOf('Senior Procurement Executive:\n\nGSA’s Senior Procurement Executive will assess contracting activity.\n'), []);
  });

  test('a description with a possessive is no role ("the Nation’s largest landlord"); an unquoted bracket is a role only by a role noun', async () => {
    assert.deepEqual(await labelsOf('Harbor Realty LLC is the Nation’s largest landlord, managing 8,800 assets.\n'), []);
    assert.deepEqual(await labelsOf('Promote a global economy that creates opportunities for Harbor Realty LLC (Joint).\n'), []);
    assert.deepEqual(await labelsOf('Harbor Realty LLC (Seller) agrees to sell the goods.\n'), [['SellerName', 'Harbor Realty LLC']]);
  });

  test('a capitalised kind of entity after "a" is no second party; a defined thing is no role; a spanned period is no deadline', async () => {
    assert.deepEqual(await labelsOf('Services go to Daltech, Inc., a Washington Corporation (the “Client”), this year.\n'), [['ClientName', 'Daltech, Inc.']]);
    assert.deepEqual(await labelsOf('Persons named by the U.S. Bureau of Industry and Security (the "BIS List") are excluded.\n'), []);
    assert.deepEqual(await labelsOf('Tenant shall pay the rent payable during the last six months of the term.\n'), []);
  });

  test('a defined term after the predicate a name opens is not the name\'s; an object is named by its head past an adjective', async () => {
    assert.deepEqual(await labelsOf('Harbor Realty LLC appealed the decision to the General Court of the Union (the “General Court”).\n'), []);
    assert.deepEqual(await labelsOf('The Archive will provide initial responses to agency questions within three days of receipt.\n'), [['ResponseDeadline', 'three days']]);
  });

  test('a plan named alone on its line heads something; "records" is mostly the noun', async () => {
    assert.deepEqual(await labelsOf('Contributing Program\n'), []);
    assert.deepEqual(await labelsOf('Employees may join the Harbor Savings Program after one year.\n'), [['PlanName', 'Harbor Savings Program']]);
    assert.deepEqual(await labelsOf('The Archive will publish guidance on permanent analog records by December 31, 2024.\n'), []);
    assert.deepEqual(await labelsOf('The Memorandum of Lease shall be recorded on June 1, 2020.\n'), [['RecordingDate', 'June 1, 2020']]);
  });

  test('a paragraph under a label is no name line; the party a thing goes to is no object of the deadline', async () => {
    assert.deepEqual(
      await labelsOf('Refugees:\n\nDepartment of State humanitarian assistance, coupled with active diplomacy, helps meet the basic needs of refugees and other vulnerable populations through food, water, shelter and healthcare.\n'),
      [],
    );
    assert.deepEqual(await labelsOf('Tenant:\n\nTrutone Lane LLC, a New York limited liability company\n'), [['TenantName', 'Trutone Lane LLC']]);
    assert.deepEqual(
      await labelsOf('Any such tenant, within ten (10) days following Landlord’s written request therefor, shall furnish to Landlord a statement of its members.\n'),
      [['StatementDeadline', 'ten (10) days']],
    );
  });

  test('a plan is named by its own words, not "The Program" or part of another name; an office\'s label names no role; a title after "Attention:" is no name; a dated statement is no agreement', async () => {
    assert.deepEqual(await labelsOf('The Company maintains a share repurchase program authorized by the Board of Directors (the “Program”). The Program does not obligate the Company to acquire any amount of its common stock.\n'), []);
    assert.deepEqual(await labelsOf('The Department will use The DHS Strategic Plan to set its priorities.\n'), [['PlanName', 'DHS Strategic Plan']]);
    assert.deepEqual(await labelsOf('Agencies will expand the Federal Risk and Authorization Management Program (FedRAMP).\n'), [['PlanName', 'Federal Risk and Authorization Management Program']]);
    assert.deepEqual(await labelsOf('The goals follow the Department of State and USAID Joint Strategic Plan.\n'), [['PlanName', 'Department of State and USAID Joint Strategic Plan']]);
    assert.deepEqual(await labelsOf('If you wish to decline your Award, you should promptly notify Apple Inc.’s Stock Plan Group of your decision.\n'), []);
    assert.deepEqual(await labelsOf('Office of the Chief Economist:\n\nDOS Lead Agency\n'), []);
    assert.deepEqual(await labelsOf('Administrative Agent:\n\nAcme Bank, N.A.\n'), [['AdministrativeAgentName', 'Acme Bank, N.A.']]);
    assert.deepEqual(await labelsOf('Notices shall go to the Building Management Office at the Project, Attention: On-Site Property Manager.\n'), []);
    assert.deepEqual(await labelsOf('Notices shall go to Acme LLC, Attention: John Smith.\n'), [['AttentionName', 'John Smith']]);
    assert.deepEqual(await labelsOf('Coverage applies to property shown on the Statement of Values dated 6/24/2021, or later reported to us.\n'), []);
    assert.deepEqual(await labelsOf('The Borrower entered into that certain Credit Agreement dated as of July 1, 2014.\n'), [['AgreementDate', 'July 1, 2014']]);
  });
  test('a job title in apposition after a name is its role; a role alone on the line over the name; hyphenated roles in Pascal case', async () => {
    assert.deepEqual(await labelsOf('Maria Okafor, Executive Vice Chairman of the Board of Directors Date:\n'), [['ExecutiveViceChairmanName', 'Maria Okafor']]);
    assert.deepEqual(await labelsOf('Name: Tom Reyes, Managing Member HARBOR INVESTMENTS, LLC\n').then((l) => l[0]), ['ManagingMemberName', 'Tom Reyes']);
    assert.deepEqual(await labelsOf('Dana Whitfield, Chief Financial Officer of the Company, signed the notice.\n'), [['ChiefFinancialOfficerName', 'Dana Whitfield']]);
    // Without the comma a title under a signature names the signer, as before.
    assert.deepEqual(await labelsOf('Gary Lindqvist Interim Chief Executive Officer Accepted and Agreed:\n'), [['SignatoryName', 'Gary Lindqvist']]);
    assert.deepEqual(await labelsOf('J. Lindqvist\n\nExecutive Vice President - Human Resources\n'), [['SignatoryName', 'J. Lindqvist']]);
    assert.deepEqual(await labelsOf('By its non-member manager,\n\nBRIGHTWATER MANAGER, LLC,\n\nA Rhode Island limited liability company\n'), [['NonMemberManagerName', 'BRIGHTWATER MANAGER, LLC']]);
    assert.deepEqual(await labelsOf('By its non-member manager, BRIGHTWATER MANAGER, LLC, A Rhode Island limited liability company\n'), [['NonMemberManagerName', 'BRIGHTWATER MANAGER, LLC']]);
    assert.deepEqual(await labelsOf('The Borrower and its general partner, Brightwater Manager, LLC, agree to the terms.\n'), [['GeneralPartnerName', 'Brightwater Manager, LLC']]);
    // A role the sentence gives ends at the lower-case word after it ("a Lender pursuant to", not a role "lender pursuant").
    assert.deepEqual(await labelsOf('Harbor Bank has agreed to become a Lender pursuant to a Joinder Agreement.\n'), [['LenderName', 'Harbor Bank']]);
  });
  test('a period that runs from a notice is not the notice\'s; a defined term after a modifier is the object of its deadline', async () => {
    assert.deepEqual(await labelsOf('Tenant shall, within 30 days after notice from Landlord, provide a substitute Letter of Credit.\n'), [['LetterOfCreditDeadline', '30 days']]);
    assert.deepEqual(await labelsOf('If the repairs are not made within thirty days of such notice, Landlord may make them.\n'), []);
    assert.deepEqual(await labelsOf('Landlord may terminate this Lease by not less than thirty (30) days written notice to Tenant.\n'), [['TerminationNoticePeriod', 'thirty (30) days']]);
    assert.deepEqual(await labelsOf('The Director may resign subject to two months of notice.\n'), [['NoticePeriod', 'two months']]);
    assert.deepEqual(await labelsOf('Within seven (7) days of the request, I will provide documentation satisfactory to the Company.\n'), [['DocumentationDeadline', 'seven (7) days']]);
  });
  test('a limit "with" which a cover is written is that cover\'s limit, named by its words as written', async () => {
    assert.deepEqual(await labelsOf('Contractor shall carry a Crime policy with a limit of no less than $5,000,000 per occurrence.\n'), [['CrimePolicyLimit', '$5,000,000']]);
    assert.deepEqual(await labelsOf('Employers Liability insurance with limits not less than $1,000,000 per accident.\n'), [['EmployersLiabilityInsuranceLimits', '$1,000,000']]);
    assert.deepEqual(await labelsOf('Excess Liability/Umbrella coverage with a limit of no less than $9,000,000 per occurrence.\n'), [['ExcessLiabilityUmbrellaCoverageLimit', '$9,000,000']]);
    // What stands before "with" must be the cover: a verb or a bracket closing an aside names nothing new.
    assert.deepEqual(await labelsOf('covering all vehicles that Company owns, hires or leases with a limit of no less than $1,000,000.\n'), [['Limit', '$1,000,000']]);
  });
  test('common phrasings: an amount the subject is, how long a term lasts, what goes on for a period, an incorporation, renewal terms', async () => {
    assert.deepEqual(await labelsOf('The purchase price for the Shares is $5,000,000.\n'), [['PurchasePrice', '$5,000,000']]);
    assert.deepEqual(await labelsOf("As of June 25, 2022, the Company's quarterly cash dividend was $0.23 per share.\n").then((l) => l.filter(([n]) => !/Date$/.test(n))), [['QuarterlyCashDividendAmount', '$0.23']]);
    // A modal ends the noun phrase: the subject before it is no part of the amount's name.
    assert.deepEqual(await labelsOf('The Buyer shall deposit $100,000 into escrow.\n'), [['Deposit', '$100,000']]);
    assert.deepEqual(await labelsOf('The non-compete period shall last for two (2) years after termination.\n'), [['NonCompetePeriod', 'two (2) years']]);
    assert.deepEqual(await labelsOf('Tenant shall pay rent for ten (10) years.\n'), [['PaymentPeriod', 'ten (10) years']]);
    assert.deepEqual(await labelsOf('Tenant shall pay the rent within ten (10) days.\n'), [['PaymentDeadline', 'ten (10) days']]);
    assert.deepEqual(await labelsOf('The Company was incorporated in Delaware on May 5, 2010.\n'), [['IncorporationDate', 'May 5, 2010']]);
    // The figure of a duration is no count of its own ("one (1) year terms" had named "one (1)" YearTerms).
    assert.deepEqual(await labelsOf('This Agreement will automatically renew for successive one (1) year terms.\n'), [['RenewalTerm', 'one (1) year']]);
  });
  test('an event a clause holds on a date, where a party\'s notices are sent, an area in square feet', async () => {
    assert.deepEqual(await labelsOf('The Company shall hold its annual meeting on May 15, 2024.\n'), [['AnnualMeetingDate', 'May 15, 2024']]);
    assert.deepEqual(await labelsOf('Management will host a conference call with investors on Thursday, November 4, 2010.\n'), [['ConferenceCallDate', 'November 4, 2010']]);
    assert.deepEqual(await labelsOf('The Company shall hold its shares on May 15, 2024.\n'), []);
    assert.deepEqual(await labelsOf('Notices to the Company shall be sent to 100 Main Street, Boston, Massachusetts 02110.\n'), [['CompanyAddress', '100 Main Street, Boston, Massachusetts 02110']]);
    assert.deepEqual(await labelsOf('The Premises consist of approximately 10,000 rentable square feet.\n'), [['RentableSquareFeet', '10,000']]);
    assert.deepEqual(await labelsOf('The Building contains 16,159 square feet.\n'), [['SquareFeet', '16,159']]);
  });
  test('a proportionate share, a price per share the subject is, the shares an option or a warrant is to purchase', async () => {
    assert.deepEqual(await labelsOf("Tenant's Proportionate Share is 12.5%.\n"), [['ProportionateShare', '12.5%']]);
    assert.deepEqual(await labelsOf('The exercise price per share is $12.50.\n'), [['ExercisePrice', '$12.50']]);
    assert.deepEqual(await labelsOf('The Company shall grant the Executive an option to purchase 100,000 shares of Common Stock.\n'), [['OptionShares', '100,000']]);
    assert.deepEqual(await labelsOf('The Holder may exercise warrants to purchase 25,000 shares at any time.\n'), [['WarrantShares', '25,000']]);
    assert.deepEqual(await labelsOf('The Company may purchase 25,000 shares at any time.\n'), []);
  });
  test("a period's or a document's start and end, a covenant not to compete, a period restated, a bound on how long", async () => {
    assert.deepEqual(await labelsOf('The Performance Period begins on January 1, 2024 and ends on December 31, 2026.\n'), [
      ['PerformancePeriodStartDate', 'January 1, 2024'],
      ['PerformancePeriodEndDate', 'December 31, 2026'],
    ]);
    assert.deepEqual(await labelsOf('The Lease shall begin on May 1, 2024.\n'), [['LeaseStartDate', 'May 1, 2024']]);
    assert.deepEqual(await labelsOf('The Initial Term shall end on April 30, 2029.\n'), [['InitialTermEndDate', 'April 30, 2029']]);
    // The subject placed by a phrase between it and its verb, far back from the date.
    assert.deepEqual(await labelsOf('The first Fiscal Year during the term of this Agreement shall commence on the Closing Date and end on the next following June 30.\n'), [['FiscalYearEndDate', 'June 30']]);
    assert.deepEqual(await labelsOf('The term of this Lease shall commence on October 15, 2018.\n'), [['CommencementDate', 'October 15, 2018']]);
    assert.deepEqual(await labelsOf('At the end of December 31, 2024 the rate resets.\n'), []);
    assert.deepEqual(await labelsOf('Employee agrees not to compete with the Company for a period of two (2) years after the Separation Date.\n'), [['NonCompetitionPeriod', 'two (2) years']]);
    assert.deepEqual(await labelsOf('The Restricted Period means the period of eighteen (18) months following termination.\n'), [['RestrictedPeriod', 'eighteen (18) months']]);
    assert.deepEqual(await labelsOf('The Company will pay COBRA premiums for up to eighteen (18) months.\n'), [['PaymentPeriod', 'eighteen (18) months']]);
    assert.deepEqual(await labelsOf('The Lender agrees to make loans in an aggregate amount not to exceed $10,000,000.\n'), [['LoanAmount', '$10,000,000']]);
  });
  test('the role a sentence says its subject is, the address of the party a clause opens on, what an amount is paid as', async () => {
    assert.deepEqual(await labelsOf('The Seller is XYZ Holdings, Inc., a Nevada corporation.\n'), [['SellerName', 'XYZ Holdings, Inc.']]);
    assert.deepEqual(await labelsOf('The Landlord shall be ABC Realty LLC.\n'), [['LandlordName', 'ABC Realty LLC']]);
    assert.deepEqual(await labelsOf('Notice to the Seller is Acme Corp.\n'), []);
    assert.deepEqual(await labelsOf("The Company's principal executive offices are located at 500 Oak Avenue, Austin, Texas 78701.\n"), [['CompanyAddress', '500 Oak Avenue, Austin, Texas 78701']]);
    assert.deepEqual(await labelsOf('The Employee resides at 12 Elm Street, Springfield, Illinois 62701.\n'), [['EmployeeAddress', '12 Elm Street, Springfield, Illinois 62701']]);
    assert.deepEqual(await labelsOf('Tenant shall deposit with Landlord the sum of $15,000 as a security deposit.\n'), [['SecurityDeposit', '$15,000']]);
    // "as a result" says why, not what the sum is paid as: the verb names it.
    assert.deepEqual(await labelsOf('Tenant shall pay $500 as a result of the breach.\n'), [['PaymentAmount', '$500']]);
  });
  test('percentages: a change a subject undergoes, the share a contribution or a match is, what it is paid as, the amount it sets', async () => {
    assert.deepEqual(await labelsOf('Base Rent shall increase by three percent (3%) annually.\n'), [['BaseRentIncreasePercentage', 'three percent (3%)']]);
    assert.deepEqual(await labelsOf("The Company shall contribute 6% of the Employee's salary to the plan.\n"), [['ContributionPercentage', '6%']]);
    assert.deepEqual(await labelsOf('The Company will match 50% of employee contributions.\n'), [['MatchPercentage', '50%']]);
    assert.deepEqual(await labelsOf('Tenant shall pay 4.5% of gross sales as percentage rent.\n'), [['PercentageRent', '4.5%']]);
    assert.deepEqual(await labelsOf('A 10% holdback will apply.\n'), [['HoldbackPercentage', '10%']]);
    // Whose costs a party pays a share of says nothing of what the share is; a change of a thing that is no amount names nothing.
    assert.deepEqual(await labelsOf('Tenant shall pay 4.5% of the costs.\n'), []);
    assert.deepEqual(await labelsOf('Traffic increased by 5% over the prior year.\n'), []);
  });

  test('deadlines set by "on or before", "by", "before" and a must; cut-off times of what is received', async () => {
    // "on or before" is a deadline even where the verb names an event of its own ("deliver" → a delivery date).
    assert.deepEqual(await labelsOf('The Seller shall deliver the audited statements on or before April 15, 2023.\n'), [['DeliveryDeadline', 'April 15, 2023']]);
    assert.deepEqual(await labelsOf('The application must be filed by May 1, 2022.\n'), [['FilingDeadline', 'May 1, 2022']]);
    assert.deepEqual(await labelsOf('Bids must be submitted by 5:00 p.m. on Friday.\n'), [['SubmissionDeadline', '5:00 p.m.']]);
    assert.deepEqual(await labelsOf('The inspection schedule will be provided by 3:00 PM.\n'), [['InspectionScheduleDeadline', '3:00 PM']]);
    assert.deepEqual(await labelsOf('Orders received after 2:00 p.m. ship the next day.\n'), [['OrderCutoffTime', '2:00 p.m.']]);
    assert.deepEqual(await labelsOf('Payments of principal and/or interest received after 12:00 noon Eastern time are considered received on the next Business Day.\n'), [['PaymentCutoffTime', '12:00 noon Eastern time']]);
    assert.deepEqual(await labelsOf('Wire transfers will be given credit the day received only if received before 3:00 p.m., Central Standard Time.\n'), [['WireTransferCutoffTime', '3:00 p.m., Central Standard Time']]);
    assert.deepEqual(await labelsOf('Funds received after 3:00 p.m. shall be credited on the next business day.\n'), [['FundsCutoffTime', '3:00 p.m.']]);
    // What one may do "prior to" a date, or an event "before" it with no obligation, sets no deadline.
    assert.deepEqual(await labelsOf('Landlord may terminate this Lease prior to June 1, 2024.\n'), [['TerminationDate', 'June 1, 2024']]);
    assert.deepEqual(await labelsOf('The parties met before June 1, 2024.\n'), []);
  });

  test('the end of what commences, the event that takes effect, an approval, a payment falling due, rent payable from a date', async () => {
    // Was `CommencementDate`: the date "and end on" is the end of what the clause says commences.
    assert.deepEqual(await labelsOf('The first Lease Year shall commence on the Commencement Date and end on December 31, 2025.\n'), [['LeaseYearEndDate', 'December 31, 2025']]);
    assert.deepEqual(await labelsOf('The Term shall commence on the Effective Date and end on June 30, 2030.\n'), [['EndDate', 'June 30, 2030']]);
    assert.deepEqual(await labelsOf("Executive's employment terminated effective as of April 30, 2022.\n"), [['TerminationDate', 'April 30, 2022']]);
    assert.deepEqual(await labelsOf('The resignation of the Chair shall become effective on March 1, 2024.\n'), [['ResignationDate', 'March 1, 2024']]);
    assert.deepEqual(await labelsOf('This Amendment shall be effective as of March 1, 2024.\n'), [['AmendmentEffectiveDate', 'March 1, 2024']]);
    assert.deepEqual(await labelsOf('The Board approved the Plan on February 2, 2021.\n'), [['ApprovalDate', 'February 2, 2021']]);
    assert.deepEqual(await labelsOf('The first payment shall be due on August 1, 2024.\n'), [['PaymentDueDate', 'August 1, 2024']]);
    assert.deepEqual(await labelsOf('Rent shall be payable commencing July 1, 2024.\n'), [['RentCommencementDate', 'July 1, 2024']]);
    // A security due on a date matures then.
    assert.deepEqual(await labelsOf('The Notes due on March 1, 2030 bear interest at 5%.\n').then((l) => l.filter(([n]) => n.endsWith('Date'))), [['MaturityDate', 'March 1, 2030']]);
  });

  test('a period the clause names before "of"; a time that measures an amount is no period', async () => {
    // Was `PaymentDeadline`, from "to pay" after it.
    assert.deepEqual(await labelsOf('Licensee shall have a grace period of fifteen (15) days to pay any late amount.\n'), [['GracePeriod', 'fifteen (15) days']]);
    assert.deepEqual(await labelsOf('Buyer shall have a due diligence period of 45 days after the Effective Date.\n'), [['DueDiligencePeriod', '45 days']]);
    assert.deepEqual(await labelsOf('The parties shall negotiate during an exclusivity period of 90 days.\n'), [['ExclusivityPeriod', '90 days']]);
    // How long or which a period is names nothing ("an additional period of", "a weighted-average period of").
    assert.deepEqual(await labelsOf('The cost is expected to be recognized over a weighted-average period of 2.7 years.\n'), []);
    // Was `PaymentDeadline`: six months of salary is an amount, not a time to pay by.
    assert.deepEqual(await labelsOf('The Employee will receive severance pay equal to six (6) months of base salary.\n'), []);
  });

  test('"within a period of", "for an additional period of", and a cap set on a "within" read as the plain words', async () => {
    assert.deepEqual(await labelsOf('The Landlord shall restore the Premises within a period of 180 days.\n'), [['RestorationDeadline', '180 days']]);
    assert.deepEqual(await labelsOf('Tenant may cure the default within a maximum period of thirty (30) days.\n'), [['CurePeriod', 'thirty (30) days']]);
    assert.deepEqual(await labelsOf('The Term shall be extended for an additional period of five (5) years.\n'), [['TermExtensionPeriod', 'five (5) years']]);
    assert.deepEqual(await labelsOf('The agreement will remain in effect for an initial period of three (3) years.\n'), [['AgreementTerm', 'three (3) years']]);
    // "not to exceed" caps the "within" before it, past a comma or right after "a period".
    assert.deepEqual(await labelsOf('The bonus shall be paid to you within a reasonable time following the audit, not to exceed sixty (60) days.\n'), [['PaymentDeadline', 'sixty (60) days']]);
    assert.deepEqual(await labelsOf('The Landlord shall restore the Premises within a period not to exceed 180 days.\n'), [['RestorationDeadline', '180 days']]);
    // A cap with no "within" before it stays unnamed.
    assert.deepEqual(await labelsOf('The bonus is discretionary, not to exceed sixty (60) days of salary.\n'), []);
  });

  test('a date or period a thing is extended to or by is named by the thing', async () => {
    assert.deepEqual(await labelsOf('The Bank agrees to extend its Commitment as to the Term Loan to March 31, 2026.\n'), [['CommitmentExtensionDate', 'March 31, 2026']]);
    assert.deepEqual(await labelsOf('Tenant may extend the Term for a period of five (5) years.\n'), [['TermExtensionPeriod', 'five (5) years']]);
    assert.deepEqual(await labelsOf('The Term of the Sublease shall be extended for an additional period of two (2) years.\n'), [['TermExtensionPeriod', 'two (2) years']]);
    assert.deepEqual(await labelsOf('The Lease Term is hereby extended to December 31, 2030.\n'), [['LeaseTermExtensionDate', 'December 31, 2030']]);
    // What is extended must be said: a pronoun names nothing.
    assert.deepEqual(await labelsOf('The parties agree to extend it to June 1, 2024.\n'), []);
  });

  test('a date that comes back each month or quarter, a term "each" value is, and a making that dates no document', async () => {
    assert.deepEqual(await labelsOf('Sublessee shall pay in advance on or before the 1st day of each month.\n'), [['MonthlyPaymentDate', '1st day of each month']]);
    assert.deepEqual(await labelsOf('Rent is payable on the first day of each calendar month.\n'), [['MonthlyPaymentDate', 'first day of each calendar month']]);
    assert.deepEqual(await labelsOf('Tenant shall have the option to extend the Lease Term for two additional periods of 60 months each (each an "Extension Term").\n'), [['ExtensionTerm', '60 months']]);
    assert.deepEqual(await labelsOf('Awards will be made as of January 1, 2020 (each a "Grant Date").\n'), [['GrantDate', 'January 1, 2020']]);
    // A day of a period, or after an event its term names.
    assert.deepEqual(await labelsOf('The Option shall expire on the 90th day following the Termination Date.\n'), [['ExpirationDate', '90th day following the Termination Date']]);
    assert.deepEqual(await labelsOf('The Effective Date will be the eighth day after Mr. Garrison signs it.\n').then((l) => l.filter(([n]) => n.endsWith('Date'))), []);
    // A bound the date must keep to is not the date: only the notes' due date is their maturity.
    assert.deepEqual(await labelsOf('"2020 Notes" means the Senior Notes due April 1, 2020 or any refinancing thereof to a maturity date earlier than the 91st day after the Stated Termination Date.\n').then((l) => l.filter(([n]) => n.endsWith('Date'))), [['MaturityDate', 'April 1, 2020']]);
    // Was AgreementDate: what "will be made" is no document.
    assert.deepEqual(await labelsOf('Awards will be made as of March 1, 2021.\n'), []);
    assert.deepEqual(await labelsOf('This Agreement is made and entered into as of January 1, 2018 by and between Acme Corp. and Beta LLC.\n').then((l) => l.filter(([n]) => n.endsWith('Date'))), [['AgreementDate', 'January 1, 2018']]);
  });

  test('a deadline opening its clause is what the clause after it reaches or does by then', async () => {
    assert.deepEqual(await labelsOf('If on or before March 1, 2025, Tenant does not obtain the Building Permit, Tenant may terminate.\n'), [['BuildingPermitDeadline', 'March 1, 2025']]);
    assert.deepEqual(await labelsOf('If on or prior to June 30, 2024, Landlord achieves Substantial Completion, the Rent shall begin.\n'), [['SubstantialCompletionDeadline', 'June 30, 2024']]);
    // No defined term reached or done: nothing is named.
    assert.deepEqual(await labelsOf('If on or before March 1, 2025, the weather is bad, Tenant may terminate.\n'), []);
  });

  test("the share of a cost a party bears is named by the cost", async () => {
    assert.deepEqual(await labelsOf('The costs of the appraisal shall be borne 50% by Landlord and 50% by Tenant.\n'), [['CostPercentage', '50%']]);
    assert.deepEqual(await labelsOf('Transfer taxes will be shared 50% by each party.\n'), [['TransferTaxPercentage', '50%']]);
    // A share paid in the past, or of no cost, is none.
    assert.deepEqual(await labelsOf('The votes were shared 50% by each party.\n'), []);
  });

  test('a sum a verb of handing over governs is the amount of what it does', async () => {
    assert.deepEqual(await labelsOf('The Lender will lend the Borrower up to $70,000.\n'), [['LoanAmount', '$70,000']]);
    assert.deepEqual(await labelsOf('The Buyer shall pay the Seller $10,000 at Closing.\n'), [['PaymentAmount', '$10,000']]);
    assert.deepEqual(await labelsOf('Tenant shall pay to Landlord the sum of $5,000 upon execution.\n'), [['PaymentAmount', '$5,000']]);
    // A sum by the month is a rate, and a past payment reported is no term of the contract.
    assert.deepEqual(await labelsOf('Tenant shall pay Landlord $500 per month.\n'), []);
    assert.deepEqual(await labelsOf('The Company paid $5,000 to the consultant.\n'), []);
  });

  test('a cap on what a subject owes or spends, past "of" and the words that only measure it', async () => {
    assert.deepEqual(await labelsOf('The maximum aggregate liability of Supplier shall not exceed $1,000,000.\n'), [['SupplierLiabilityLimit', '$1,000,000']]);
    assert.deepEqual(await labelsOf('In no event shall the total liability of either party exceed $5,000,000.\n'), [['LiabilityLimit', '$5,000,000']]);
    assert.deepEqual(await labelsOf('A report is due if the total cost of their equipment exceeds $250,000 in a year.\n'), [['EquipmentCostLimit', '$250,000']]);
    // A party is no amount; an amount a subject must exceed is no cap.
    assert.deepEqual(await labelsOf('Tenant shall not exceed $5,000 in charges.\n'), []);
    assert.deepEqual(await labelsOf('The fees shall exceed $500.\n'), []);
  });

  test('how many equal parts an amount is paid in is no part of its name', async () => {
    // Was `ThreeEqualInstallments`.
    assert.deepEqual(await labelsOf('The Purchase Price shall be paid in three equal installments of $100,000 each.\n'), [['Installments', '$100,000']]);
    assert.deepEqual(await labelsOf('Rent is payable in twelve equal monthly installments of $5,000.\n'), [['MonthlyInstallments', '$5,000']]);
  });

  test('of two defined terms, the one that ends in a role names the party', async () => {
    // Was `NsaReitName`: a short name of its own is no role.
    assert.deepEqual(await labelsOf('NATIONAL STORAGE AFFILIATES TRUST, a Maryland real estate investment trust ("NSA REIT" or the "Parent Guarantor"), and the Lenders agree.\n'), [['ParentGuarantorName', 'NATIONAL STORAGE AFFILIATES TRUST']]);
    assert.deepEqual(await labelsOf('Blue Heron Partners LP ("BHP Fund" or the "Investor") agrees.\n'), [['InvestorName', 'Blue Heron Partners LP']]);
  });

  test('a defined term a clause must reach or do by a date names the deadline whole', async () => {
    assert.deepEqual(await labelsOf('Landlord shall achieve Substantial Completion on or before March 1, 2025.\n'), [['SubstantialCompletionDeadline', 'March 1, 2025']]);
    assert.deepEqual(await labelsOf('Tenant shall obtain the Certificate of Occupancy no later than June 1, 2024.\n'), [['CertificateOfOccupancyDeadline', 'June 1, 2024']]);
    // A verb that is an event of its own names it.
    assert.deepEqual(await labelsOf('The Buyer shall pay the Purchase Price no later than June 1, 2024.\n'), [['PaymentDeadline', 'June 1, 2024']]);
  });

  test('what a company reports: a dividend\'s payment and record dates, income, a benefit, a rate on something', async () => {
    assert.deepEqual(await labelsOf('The Company declared a cash dividend of $0.24 per share, payable on August 17, 2023 to shareholders of record as of August 14, 2023.\n'), [
      ['CashDividendAmount', '$0.24'],
      ['PaymentDate', 'August 17, 2023'],
      // Was `RecordingDate`: "of record" is who holds, not a recording.
      ['RecordDate', 'August 14, 2023'],
    ]);
    assert.deepEqual(await labelsOf('Net income was $19.9 billion for the quarter.\n'), [['NetIncome', '$19.9 billion']]);
    assert.deepEqual(await labelsOf('The Company had an unrecognized tax benefit of $18.0 billion.\n'), [['UnrecognizedTaxBenefit', '$18.0 billion']]);
    assert.deepEqual(await labelsOf('The average interest rate on commercial paper was 5.0%.\n'), [['AverageInterestRate', '5.0%']]);
  });

  test('a period that runs from one date to another: its start and its end', async () => {
    assert.deepEqual(await labelsOf('The policy period is from June 1, 2024 to June 1, 2025.\n'), [['PolicyPeriodStartDate', 'June 1, 2024'], ['PolicyPeriodEndDate', 'June 1, 2025']]);
    assert.deepEqual(await labelsOf('The Lease Term shall run from March 1, 2024 through February 28, 2029.\n'), [['LeaseTermStartDate', 'March 1, 2024'], ['LeaseTermEndDate', 'February 28, 2029']]);
    // A change over a span is no period's.
    assert.deepEqual(await labelsOf('Sales increased from June 1, 2024 to June 1, 2025.\n'), []);
  });

  test('a plural role defined after a list of names is the role of each', async () => {
    assert.deepEqual(await labelsOf('Acme Holdings LLC and Beta Partners LP (together, the "Purchasers") shall pay.\n'), [['PurchaserName', 'Acme Holdings LLC'], ['PurchaserName', 'Beta Partners LP']]);
    assert.deepEqual(await labelsOf('Acme Holdings LLC ("Acme") and Beta Partners LP ("Beta" and, together with Acme, the "Borrowers") shall pay.\n'), [['BorrowerName', 'Acme Holdings LLC'], ['BorrowerName', 'Beta Partners LP']]);
    assert.deepEqual(await labelsOf('This Agreement is made by Orbit Labs LLC ("Orbit"), and Nova Devices Corporation ("Nova") (collectively, the "Parties").\n'), [['PartyName', 'Orbit Labs LLC'], ['PartyName', 'Nova Devices Corporation']]);
    // A name with a role of its own keeps it.
    assert.deepEqual(await labelsOf('Acme Corp. ("Buyer") and Beta LLC and Gamma LLC (together, the "Sellers") agree.\n'), [['BuyerName', 'Acme Corp.'], ['SellerName', 'Beta LLC'], ['SellerName', 'Gamma LLC']]);
  });

  test("the time of an event its date just named, with the time's zone", async () => {
    assert.deepEqual(await labelsOf('The Closing shall take place on March 1, 2024 at 10:00 a.m. Eastern Time.\n'), [['ClosingDate', 'March 1, 2024'], ['ClosingTime', '10:00 a.m. Eastern Time']]);
    assert.deepEqual(await labelsOf('The Company will host a conference call on November 4, 2010 at 3:00 p.m. EDT to discuss earnings.\n'), [['ConferenceCallDate', 'November 4, 2010'], ['ConferenceCallTime', '3:00 p.m. EDT']]);
    // A time after a date no event names is not named by it.
    assert.deepEqual(await labelsOf('We met on March 1, 2024 at 10:00 a.m.\n'), []);
  });

  test('a plural role after a list of firms in capitals, their suffixes with full stops', async () => {
    assert.deepEqual(await labelsOf('ACME HOLDINGS LTD., BETA CORP., and GAMMA L.P. (collectively, the "SELLERS") agree.\n'), [['SellerName', 'ACME HOLDINGS LTD.'], ['SellerName', 'BETA CORP.'], ['SellerName', 'GAMMA L.P.']]);
  });

  test("whose employment it is, is the employee", async () => {
    assert.deepEqual(await labelsOf("Jane Smith's employment with the Company will terminate on June 1, 2024.\n"), [['EmployeeName', 'Jane Smith'], ['TerminationDate', 'June 1, 2024']]);
    // A firm's "employment practices" are no employee's.
    assert.deepEqual(await labelsOf("Acme Corp.'s employment practices are fair.\n"), []);
  });

  test("a party's role in capitals right after its firm's name (a signature block run together)", async () => {
    assert.deepEqual(await labelsOf('Blue River Holdings LLC LANDLORD\n'), [['LandlordName', 'Blue River Holdings LLC']]);
    assert.deepEqual(await labelsOf('Siga Technologies, Inc. TENANT S:\\Corvallis\n'), [['TenantName', 'Siga Technologies, Inc.']]);
  });

  test("a signature block's role on a line of its own: in capitals under the name, or a capitalised \"Its\" line", async () => {
    // The role alone on its line is read as a heading; it still names the firm above it.
    assert.deepEqual(await labelsOf('Harbor Point Holdings, LLC\n\nLANDLORD\n\nBy: ____________\n'), [['LandlordName', 'Harbor Point Holdings, LLC']]);
    assert.deepEqual(await labelsOf('By: Blue Heron Partners, Inc.,\n\na Delaware corporation,\n\nIts Sole General Partner\n'), [['GeneralPartnerName', 'Blue Heron Partners, Inc.']]);
    // A capitalised sentence after a line that ends one is no role of it.
    assert.deepEqual(await labelsOf('The notice was sent to Blue Heron Partners, Inc.\n\nAs Tenant knows, rent is due.\n'), []);
  });
  test('a trade name: where the firm does business is a place, not a party; a jurisdiction in brackets is part of a name; a firm\'s stop ends no line of a sentence', async () => {
    assert.deepEqual(await labelsOf('Kestrel Foods, Inc. doing business in Oregon as Kestrel Market as Tenant\n'), [['TenantName', 'Kestrel Market']]);
    assert.deepEqual(await labelsOf('Morgan Stanley (Asia) Limited shall act as Agent.\n'), [['AgentName', 'Morgan Stanley (Asia) Limited']]);
    assert.deepEqual(await labelsOf('BLUE HERON HOLDINGS, LLC\n\ndoing business as Heron Marine (NV) Inc.\n\nas Landlord\n'), [['LandlordName', 'Heron Marine (NV) Inc.']]);
  });
});

