/**
 * Values from prose over real HTTP, on SQLite and on PostgreSQL: a docset of generated leases gets
 * its parties, dates and periods from their sentences, each value with a box that lies on inked
 * text of its page image; and a docset learns from values set by hand (after three corrections the
 * other documents get theirs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client, until } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';

interface Lease {
  landlord: string;
  tenant: string;
  commencement: string;
  cure: string;
}

const LEASES: Lease[] = [
  { landlord: 'Harbor Point Holdings, LLC', tenant: 'Bright Owl Bakery Inc.', commencement: 'April 1, 2026', cure: 'thirty (30) days' },
  { landlord: 'Cedar Row Properties LP', tenant: 'Meridian Dental Group, P.C.', commencement: 'July 15, 2025', cure: 'fifteen (15) days' },
  { landlord: 'Granite Bay Realty Corp.', tenant: 'Sable Creek Outfitters LLC', commencement: 'January 9, 2027', cure: 'ten (10) business days' },
];

const leaseText = (l: Lease): string =>
  `LEASE AGREEMENT\n\nThis Lease Agreement (this "Lease") is made as of ${l.commencement.replace(/\d{4}$/, (y) => String(Number(y) - 1))} by and between ${l.landlord}, a Delaware limited liability company ("Landlord"), ` +
  `and ${l.tenant}, a California corporation ("Tenant").\n\n` +
  `1. Term. The term of this Lease shall commence on ${l.commencement} and shall continue for sixty (60) months thereafter.\n\n` +
  `2. Default. If Tenant fails to perform any obligation and does not cure the failure within ${l.cure} after written notice from Landlord, Landlord may terminate this Lease.\n`;

const SUPPLIERS = [
  ['Pinecrest Mills Corp.', 'Harlow Foods LLC'],
  ['Ridgeway Metals Inc.', 'Saltmarsh Grocers LLC'],
  ['Tallow Creek Farms Co.', 'Birchwood Markets Inc.'],
  ['Ironbridge Dairy Corp.', 'Kestrel Provisions LLC'],
  ['Mapleton Grain Inc.', 'Oakhurst Pantry LLC'],
] as const;

/** Share of dark pixels of a page image inside a box (300 DPI pixels, as the API gives them). */
async function inkIn(png: Buffer, box: { left: number; top: number; width: number; height: number }): Promise<number> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const w = Math.max(1, Math.min(Math.round(box.width), img.width - Math.round(box.left)));
  const h = Math.max(1, Math.min(Math.round(box.height), img.height - Math.round(box.top)));
  const data = ctx.getImageData(Math.round(box.left), Math.round(box.top), w, h).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 300) dark++;
  return dark / (w * h);
}

function proseSuite(dialect: string, start: () => Promise<Quire>, teardown: () => Promise<void>) {
  describe(`values from prose (${dialect})`, () => {
    let q: Quire;
    let c: Client;

    const ready = async (ids: string[]) => {
      for (const id of ids) await until(`document ${id} Ready`, async () => ((await c.get(`/documents/${id}`)).json.status === 'Ready' ? true : undefined));
    };
    const uploadAll = async (docsetId: string, texts: string[], stem: string) => {
      const ids: string[] = [];
      for (const [i, bytes] of texts.entries()) {
        const r = await c.upload({ bytes, name: `${stem}-${i + 1}.txt` }, { 'docset.id': docsetId });
        assertJson(r, 201);
        ids.push(r.json.id);
      }
      await ready(ids);
      return ids;
    };

    before(async () => {
      q = await start();
      c = client(q.api, q.key);
    });

    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('a docset of leases gets each party, date and period from its sentences, with a box on the page', async () => {
      const ds = await c.post('/docsets', { json: { name: `Leases ${dialect}` } });
      assertJson(ds, 201);
      const docsetId = ds.json.id;
      const ids = await uploadAll(docsetId, LEASES.map(leaseText), 'lease');
      const props: Record<string, keyof Lease> = { 'Landlord Name': 'landlord', 'Tenant Name': 'tenant', 'Commencement Date': 'commencement', 'Cure Period': 'cure' };
      for (const label of Object.keys(props)) assertJson(await c.post(`/docsets/${docsetId}/properties`, { json: { label } }), 201);
      for (const [i, id] of ids.entries()) {
        const values = await until(`the values of ${id}`, async () => {
          const r = await c.get(`/docsets/${docsetId}/document-properties/${id}`);
          assertJson(r);
          const list = r.json.properties as { label: string; value: string | null; confidence: number | null; location: { page: number; boundingBox: { left: number; top: number; width: number; height: number } } | null }[];
          return list.length === 4 && list.every((p) => p.value !== null) ? list : undefined;
        });
        for (const v of values) {
          assert.equal(v.value, LEASES[i]![props[v.label]!], `${v.label} of lease ${i + 1}`);
          assert.ok(v.confidence !== null && v.confidence >= 0.6, `${v.label}: confident`);
          assert.ok(v.location && v.location.page === 1, `${v.label}: on page 1`);
          const page = await c.get(`/documents/${id}/pages/1/content`);
          assert.equal(page.status, 200);
          const ink = await inkIn(page.buffer, v.location!.boundingBox);
          assert.ok(ink > 0.02, `${v.label}: the box lies on printed text (${(ink * 100).toFixed(1)}% ink)`);
        }
      }
      const xml = (await c.get(`/docsets/${docsetId}/documents/${ids[0]}/dgml`)).text;
      assert.match(xml, /<docset:TenantName>Bright Owl Bakery Inc\.<\/docset:TenantName>/);
      assert.match(xml, /<docset:CurePeriod>thirty \(30\) days<\/docset:CurePeriod>/);
    });

    test('after a user corrects the value in three documents, the docset\'s other documents get theirs', async () => {
      const ds = await c.post('/docsets', { json: { name: `Supply ${dialect}` } });
      assertJson(ds, 201);
      const docsetId = ds.json.id;
      const texts = SUPPLIERS.map(
        ([supplier, customer]) => `This Supply Agreement is made by and between ${supplier}, a Delaware corporation (the "Supplier"), and ${customer}, a Texas company (the "Customer").\n`,
      );
      const ids = await uploadAll(docsetId, texts, 'supply');
      const made = await c.post(`/docsets/${docsetId}/properties`, { json: { label: 'Counterparty' } });
      assertJson(made, 201);
      const propertyId = made.json.id;
      const valueOf = async (id: string) => (await c.get(`/docsets/${docsetId}/properties/${propertyId}/documents/${id}`)).json;
      // Extraction has run when every document has a value or candidates.
      await until('first extraction', async () => {
        const all = await Promise.all(ids.map(valueOf));
        return all.every((v) => v.value !== null || v.candidates.length) ? true : undefined;
      });
      for (const i of [3, 4]) assert.notEqual((await valueOf(ids[i]!)).value, SUPPLIERS[i]![1], 'the label alone names neither role');
      for (const i of [0, 1, 2]) {
        const set = await c.put(`/docsets/${docsetId}/properties/${propertyId}/documents/${ids[i]}`, { json: { value: SUPPLIERS[i]![1] } });
        assertJson(set);
        assert.equal(set.json.source, 'manual');
      }
      for (const i of [3, 4]) {
        const v = await until(`the learned value of document ${i + 1}`, async () => {
          const got = await valueOf(ids[i]!);
          return got.value === SUPPLIERS[i]![1] ? got : undefined;
        });
        assert.equal(v.source, 'extracted');
      }
    });
  });
}

proseSuite('SQLite', () => startQuire({}), async () => {});
if (findPgBin()) {
  let cluster: PgCluster | undefined;
  proseSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_prose') });
    },
    async () => {
      await cluster?.stop();
    },
  );
} else {
  describe('values from prose (PostgreSQL)', () => {
    test('PostgreSQL', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
