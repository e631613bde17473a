/**
 * The labels found in a docset (`GET /v1preview1/docsets/{id}/labels`) and turning one into a
 * property (`POST …/labels/{name}/property`), over real HTTP on SQLite and on PostgreSQL: a docset of
 * generated leases and an employment agreement lists `LandlordName`, `TenantName`, `CompanyName`, …
 * with their document counts and an example from the document it names; pages follow `next`; only the
 * docset's Ready documents count (one moved out stops counting); a label becomes the property
 * "Tenant Name" once (201, then 200), whose values extraction finds in every lease and the list then
 * links; clauses are listed as labels of kind clause (the leases' "1. Term."), which are no property
 * (422); unknown labels are 404, bad names and cursors 400, another workspace's docset 404, and the
 * scopes are those of reading and writing properties. The OpenAPI document describes both routes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import path from 'node:path';
import { CORPUS, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, assertProblem, client, collectPages, type Client, until } from '../helpers/http.js';
import { findPgBin, startPgCluster, type PgCluster } from '../helpers/postgres.js';

interface Lease {
  landlord: string;
  tenant: string;
  commencement: string;
}

const LEASES: Lease[] = [
  { landlord: 'Harbor Point Holdings, LLC', tenant: 'Bright Owl Bakery Inc.', commencement: 'April 1, 2026' },
  { landlord: 'Cedar Row Properties LP', tenant: 'Meridian Dental Group, P.C.', commencement: 'July 15, 2025' },
  { landlord: 'Granite Bay Realty Corp.', tenant: 'Sable Creek Outfitters LLC', commencement: 'January 9, 2027' },
];

const leaseText = (l: Lease): string =>
  `LEASE AGREEMENT\n\nThis Lease is made by and between ${l.landlord}, a Delaware limited liability company ("Landlord"), and ${l.tenant}, a California corporation ("Tenant").\n\n` +
  `1. Term. The term of this Lease shall commence on ${l.commencement} and shall continue for sixty (60) months thereafter.\n\n` +
  `2. Default. If Tenant fails to perform any obligation and does not cure the failure within thirty (30) days after written notice from Landlord, Landlord may terminate this Lease.\n`;

const EMPLOYMENT =
  'EMPLOYMENT AGREEMENT\n\nThis Employment Agreement is entered into as of June 2, 2025 by and between Northwind Analytics, Inc., a Delaware corporation (the "Company"), and Dana Whitfield ("Executive").\n\n' +
  'The Company shall pay Executive a base salary of $185,000 per year.\n';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

function labelsSuite(dialect: string, start: () => Promise<Quire>, teardown: () => Promise<void>) {
  describe(`docset labels (${dialect})`, () => {
    let q: Quire;
    let c: Client;
    let docsetId: string;
    let leaseIds: string[];
    let employmentId: string;
    let keys: Record<'read' | 'write' | 'webhooks' | 'otherWorkspace', string>;

    const ready = async (ids: string[]) => {
      for (const id of ids) await until(`document ${id} Ready`, async () => ((await c.get(`/documents/${id}`)).json.status === 'Ready' ? true : undefined));
    };
    const upload = async (dsId: string, bytes: string, name: string) => {
      const r = await c.upload({ bytes, name }, { 'docset.id': dsId });
      assertJson(r, 201);
      return r.json.id as string;
    };
    const labelsOf = async (dsId: string): Promise<Json[]> => {
      const r = await c.get(`/docsets/${dsId}/labels?limit=100`);
      assertJson(r);
      assert.equal(r.json.next, null);
      return r.json.labels;
    };
    const key = async (workspace: string, scopes: string) => {
      const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes, '--name', `labels-${scopes}`]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };

    before(async () => {
      q = await start();
      c = client(q.api, q.key);
      const ds = await c.post('/docsets', { json: { name: `Leases ${dialect}` } });
      assertJson(ds, 201);
      docsetId = ds.json.id;
      leaseIds = [];
      for (const [i, l] of LEASES.entries()) leaseIds.push(await upload(docsetId, leaseText(l), `lease-${i + 1}.txt`));
      employmentId = await upload(docsetId, EMPLOYMENT, 'employment.txt');
      await ready([...leaseIds, employmentId]);
      assert.equal((await q.cli(['workspaces', 'create', 'labels-b'])).code, 0);
      keys = {
        read: await key('default', 'read:documents'),
        write: await key('default', 'write:documents'),
        webhooks: await key('default', 'read:webhooks'),
        otherWorkspace: await key('labels-b', 'admin'),
      };
    });

    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test("the docset's labels: the parties of every lease and the employer, with document counts and examples from their documents", async () => {
      const r = await c.get(`/docsets/${docsetId}/labels`);
      assertJson(r);
      assert.equal(r.json.pendingDocuments, 0);
      const labels: Json[] = r.json.labels;
      const byName = new Map(labels.map((l) => [l.name, l]));
      for (const name of ['LandlordName', 'TenantName']) {
        const l = byName.get(name);
        assert.ok(l, `${name} is found (got ${labels.map((x) => x.name).join(', ')})`);
        assert.equal(l.documentCount, LEASES.length, `${name}: in every lease`);
        assert.ok(l.occurrences >= LEASES.length);
        assert.equal(l.property, null);
      }
      assert.equal(byName.get('TenantName').label, 'Tenant Name');
      assert.equal(byName.get('LandlordName').label, 'Landlord Name');
      const tenant = byName.get('TenantName');
      const i = leaseIds.indexOf(tenant.example.document.id);
      assert.ok(i >= 0, 'the example comes from a lease');
      assert.equal(tenant.example.value, LEASES[i]!.tenant, 'the example is the tenant of the document it names');
      assert.equal(tenant.example.document.url, `${q.api}/documents/${leaseIds[i]}`);
      const company = byName.get('CompanyName');
      assert.ok(company, 'the employer is found');
      assert.deepEqual([company.documentCount, company.example.value, company.example.document.id], [1, 'Northwind Analytics, Inc.', employmentId]);
      // Most documents first, then by name, a value before a clause of the same name.
      for (let k = 1; k < labels.length; k++) {
        const [a, b] = [labels[k - 1], labels[k]];
        const sameName = a.name === b.name && a.kind === 'value' && b.kind === 'clause';
        assert.ok(a.documentCount > b.documentCount || (a.documentCount === b.documentCount && (a.name < b.name || sameName)), `${a.name} (${a.documentCount}) before ${b.name} (${b.documentCount})`);
      }
      assert.ok(['TenantName', 'LandlordName', 'CompanyName'].every((n) => byName.get(n).kind === 'value'));
      // The names are DGML's: the lease's DGML carries the same element.
      const xml = (await c.get(`/docsets/${docsetId}/documents/${leaseIds[0]}/dgml`)).text;
      assert.match(xml, /<docset:TenantName>(?:<dgc:Org>)?Bright Owl Bakery Inc\.(?:<\/dgc:Org>)?<\/docset:TenantName>/);
    });

    test("the docset's clauses are labels too (kind clause): a run-in heading in every lease, with its opening as example; a clause label is no property (422)", async () => {
      const labels = await labelsOf(docsetId);
      const term = labels.find((l) => l.kind === 'clause' && l.name === 'Term');
      assert.ok(term, `the leases' "1. Term." clause is found (got ${labels.map((l) => `${l.kind}:${l.name}`).join(', ')})`);
      assert.equal(term.documentCount, LEASES.length);
      assert.equal(term.label, 'Term');
      assert.equal(term.property, null);
      const i = leaseIds.indexOf(term.example.document.id);
      assert.ok(i >= 0, 'the example comes from a lease');
      assert.equal(term.example.value, `Term. The term of this Lease shall commence on ${LEASES[i]!.commencement} and shall continue for sixty (60) months thereafter.`);
      assert.ok(labels.every((l) => l.kind === 'value' || l.kind === 'clause'));
      // The name is DGML's: the element around the clause.
      const xml = (await c.get(`/docsets/${docsetId}/documents/${leaseIds[0]}/dgml`)).text;
      assert.match(xml, /<docset:Term>\s*<dg:chunk[^>]*>Term\. The term of this Lease/);
      assertProblem(await c.post(`/docsets/${docsetId}/labels/Term/property`), 422, /kind "clause"/);
      const props = await c.get(`/docsets/${docsetId}/properties`);
      assert.ok(!props.json.properties.some((p: Json) => p.labelId === 'Term'), 'nothing was created');
    });

    test('pages of two follow `next` to the same labels in the same order; a cursor is refused by another docset', async () => {
      const whole = (await labelsOf(docsetId)).map((l) => l.name);
      assert.ok(whole.length > 2, 'more than one page of two');
      const { items, urls } = await collectPages(c, `/docsets/${docsetId}/labels?limit=2`, 'labels');
      assert.deepEqual(items.map((l: Json) => l.name), whole);
      assert.equal(urls.length, Math.ceil(whole.length / 2));
      const second = urls[1]!;
      const other = await c.post('/docsets', { json: { name: `Other ${dialect}` } });
      assertJson(other, 201);
      assertProblem(await c.get(second.replace(docsetId, other.json.id)), 400, /different list/);
      assertProblem(await c.get(`/docsets/${docsetId}/labels?cursor=garbage`), 400);
      assertProblem(await c.get(`/docsets/${docsetId}/labels?limit=0`), 400);
      assertProblem(await c.get(`/docsets/${docsetId}/labels?limit=101`), 400);
      // An empty docset has no labels.
      const empty = await c.get(`/docsets/${other.json.id}/labels`);
      assertJson(empty);
      assert.deepEqual([empty.json.labels, empty.json.next, empty.json.pendingDocuments], [[], null, 0]);
    });

    test('only Ready documents of the docset count: a lease moved out stops counting, and counts in its new docset', async () => {
      const ds = await c.post('/docsets', { json: { name: `Moved ${dialect}` } });
      assertJson(ds, 201);
      const extra = await upload(docsetId, leaseText({ landlord: 'Quarry Lane Estates LLC', tenant: 'Velvet Fern Florists Inc.', commencement: 'May 5, 2026' }), 'lease-extra.txt');
      await ready([extra]);
      const count = async (dsId: string, name: string) => (await labelsOf(dsId)).find((l) => l.name === name)?.documentCount ?? 0;
      assert.equal(await count(docsetId, 'TenantName'), LEASES.length + 1);
      assertJson(await c.put(`/docsets/${ds.json.id}/documents/${extra}`));
      assert.equal(await count(docsetId, 'TenantName'), LEASES.length);
      assert.equal(await count(ds.json.id, 'TenantName'), 1);
      assert.equal((await labelsOf(ds.json.id)).find((l) => l.name === 'TenantName').example.value, 'Velvet Fern Florists Inc.');
    });

    test('a label becomes the property "Tenant Name" (201, then 200 with the same property); extraction fills its values; the list links it', async () => {
      const made = await c.post(`/docsets/${docsetId}/labels/TenantName/property`);
      assertJson(made, 201);
      assert.equal(made.json.label, 'Tenant Name');
      assert.equal(made.json.labelId, 'TenantName');
      assert.equal(made.json.docset.id, docsetId);
      assert.equal(made.json.url, `${q.api}/docsets/${docsetId}/properties/${made.json.id}`);
      const again = await c.post(`/docsets/${docsetId}/labels/TenantName/property`, { json: {} });
      assertJson(again, 200);
      assert.equal(again.json.id, made.json.id);
      const props = await c.get(`/docsets/${docsetId}/properties`);
      assert.equal(props.json.properties.filter((p: Json) => p.labelId === 'TenantName').length, 1);
      for (const [i, id] of leaseIds.entries()) {
        const v = await until(`the Tenant Name of lease ${i + 1}`, async () => {
          const r = await c.get(`/docsets/${docsetId}/properties/${made.json.id}/documents/${id}`);
          assertJson(r);
          return r.json.value !== null ? r.json : undefined;
        });
        assert.equal(v.value, LEASES[i]!.tenant);
        assert.equal(v.source, 'extracted');
      }
      const listed = (await labelsOf(docsetId)).find((l) => l.name === 'TenantName');
      assert.deepEqual(listed.property, { id: made.json.id, url: made.json.url });
      // A property defined by hand under the same label id is the label's too.
      const landlord = await c.post(`/docsets/${docsetId}/properties`, { json: { label: 'Landlord Name' } });
      assertJson(landlord, 201);
      const existing = await c.post(`/docsets/${docsetId}/labels/LandlordName/property`);
      assertJson(existing, 200);
      assert.equal(existing.json.id, landlord.json.id);
    });

    test("a form's values are labels named by their fields: two NTSB reports list AircraftDamage and Location; the property one becomes is found in the same cells", async () => {
      const ds = await c.post('/docsets', { json: { name: `Accident reports ${dialect}` } });
      assertJson(ds, 201);
      const reports = [
        { file: '20080102X00002.pdf', location: 'Chevroux, France' },
        { file: '20080108X00029.pdf', location: 'Arteaga, Mexico' },
      ];
      const ids: string[] = [];
      for (const r of reports) {
        const made = await c.upload({ path: path.join(CORPUS, 'kgrag/ntsb-aviation-incident-accident-reports', r.file) }, { 'docset.id': ds.json.id });
        assertJson(made, 201);
        ids.push(made.json.id);
      }
      await ready(ids);
      const byName = new Map((await labelsOf(ds.json.id)).map((l) => [l.name, l]));
      for (const name of ['AircraftDamage', 'Location', 'AccidentNumber', 'AircraftMake', 'TotalInjuries']) {
        const l = byName.get(name);
        assert.ok(l, `${name} is found (got ${[...byName.keys()].join(', ')})`);
        assert.deepEqual([l.kind, l.documentCount], ['value', 2], name);
      }
      const location = byName.get('Location');
      assert.equal(location.example.value, reports[ids.indexOf(location.example.document.id)]!.location);
      assert.equal(byName.get('AircraftDamage').example.value, 'Destroyed');
      // No field label is a clause's name or a value's name twice over; the headings are still clauses.
      assert.ok(!byName.has('AircraftDamageDestroyed') && byName.get('AircraftDamage').label === 'Aircraft Damage');
      const xml = (await c.get(`/docsets/${ds.json.id}/documents/${ids[0]}/dgml`)).text;
      assert.match(xml, /<xhtml:td [^>]*><docset:AircraftDamage>Destroyed<\/docset:AircraftDamage><\/xhtml:td>/);
      assert.match(xml, /<xhtml:td [^>]*>Aircraft Damage:<\/xhtml:td>/, 'the label cell stays as written');
      // The label as a property: its values come from the cells beside "Aircraft Damage:", and the property's tag replaces the found name.
      const made = await c.post(`/docsets/${ds.json.id}/labels/AircraftDamage/property`);
      assertJson(made, 201);
      for (const id of ids) {
        const v = await until(`the Aircraft Damage of ${id}`, async () => {
          const r = await c.get(`/docsets/${ds.json.id}/properties/${made.json.id}/documents/${id}`);
          assertJson(r);
          return r.json.value !== null ? r.json : undefined;
        });
        assert.equal(v.value, 'Destroyed');
      }
      const tagged = (await c.get(`/docsets/${ds.json.id}/documents/${ids[1]}/dgml`)).text;
      assert.match(tagged, /<docset:AircraftDamage>Destroyed<\/docset:AircraftDamage>/);
      assert.equal(tagged.match(/<docset:AircraftDamage>/g)?.length, xml.match(/<docset:AircraftDamage>/g)?.length, 'one element per value, not one inside another');
    });

    test('unknown labels are 404, malformed names 400, unknown docsets 404: Problem JSON, never 5xx', async () => {
      assertProblem(await c.post(`/docsets/${docsetId}/labels/SecurityDepositAmount/property`), 404, /has no label "SecurityDepositAmount"/);
      assertProblem(await c.post(`/docsets/${docsetId}/labels/tenantname/property`), 404);
      for (const bad of ['2020Rent', 'Tenant%20Name', 'a%3Ab', '%3Cx%3E', '-x', 'x'.repeat(201)]) {
        const r = await c.post(`/docsets/${docsetId}/labels/${bad}/property`);
        // Past the router's 200-character parameter bound: 414.
        assert.ok([400, 404, 414].includes(r.status), `${bad}: ${r.status}`);
        assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
      }
      assertProblem(await c.post(`/docsets/${docsetId}/labels/2020Rent/property`), 400, /not a label name/);
      assertProblem(await c.get('/docsets/zzzzzzzzzzzz/labels'), 404);
      assertProblem(await c.post('/docsets/zzzzzzzzzzzz/labels/TenantName/property'), 404);
      assertProblem(await c.get('/docsets/bad!id/labels'), 400);
    });

    test("another workspace's key gets 404 for this docset, as for an unknown one, and sees nothing of it", async () => {
      for (const [method, path] of [
        ['GET', `/docsets/${docsetId}/labels`],
        ['POST', `/docsets/${docsetId}/labels/TenantName/property`],
        ['POST', `/docsets/${docsetId}/labels/CompanyName/property`],
      ] as const) {
        const theirs = await c.req(method, path, { key: keys.otherWorkspace });
        const unknown = await c.req(method, path.replace(docsetId, 'zzzzzzzzzzzz'), { key: keys.otherWorkspace });
        assertProblem(theirs, 404);
        assert.equal(theirs.json.detail.replace(docsetId, '<id>'), unknown.json.detail.replace('zzzzzzzzzzzz', '<id>'));
        for (const secret of ['Bright Owl', 'Northwind', 'Harbor Point', 'Tenant Name']) assert.ok(!theirs.text.includes(secret), `${method} ${path} names ${secret}`);
      }
      // Nothing was created in A's docset by B.
      const props = await c.get(`/docsets/${docsetId}/properties`);
      assert.ok(!props.json.properties.some((p: Json) => p.labelId === 'CompanyName'));
    });

    test('scopes: listing needs read:documents, turning a label into a property write:documents', async () => {
      assertJson(await c.get(`/docsets/${docsetId}/labels`, { key: keys.read }));
      assertProblem(await c.get(`/docsets/${docsetId}/labels`, { key: keys.write }), 403, /read:documents/);
      assertProblem(await c.get(`/docsets/${docsetId}/labels`, { key: keys.webhooks }), 403);
      assertProblem(await c.get(`/docsets/${docsetId}/labels`, { key: null }), 401);
      assertProblem(await c.post(`/docsets/${docsetId}/labels/CompanyName/property`, { key: keys.read }), 403, /write:documents/);
      assertProblem(await c.post(`/docsets/${docsetId}/labels/CompanyName/property`, { key: null }), 401);
      const made = await c.post(`/docsets/${docsetId}/labels/CompanyName/property`, { key: keys.write });
      assertJson(made, 201);
      assert.equal(made.json.label, 'Company Name');
    });

    test('the OpenAPI document describes both routes, their scopes, answers and Problems', async () => {
      const doc: Json = await (await fetch(`${q.origin}/openapi.json`)).json();
      const list = doc.paths['/v1preview1/docsets/{docsetId}/labels']?.get;
      const make = doc.paths['/v1preview1/docsets/{docsetId}/labels/{name}/property']?.post;
      assert.ok(list && make, 'both routes are documented');
      assert.equal(list['x-scope'], 'read:documents');
      assert.equal(make['x-scope'], 'write:documents');
      assert.match(list.description, /pendingDocuments/);
      assert.deepEqual(Object.keys(list.responses).sort(), ['200', '400', '401', '403', '404']);
      assert.deepEqual(Object.keys(make.responses).sort(), ['200', '201', '400', '401', '403', '404', '422']);
      const item = list.responses['200'].content['application/json'].schema.properties.labels.items;
      for (const f of ['kind', 'name', 'label', 'documentCount', 'occurrences', 'example', 'property']) assert.ok(item.properties[f], `labels[].${f}`);
      assert.deepEqual(JSON.stringify(item.properties.kind).match(/"(value|clause)"/g), ['"value"', '"clause"']);
      assert.ok(list.parameters.some((p: Json) => p.name === 'cursor' && p.in === 'query'));
    });
  });
}

labelsSuite('SQLite', () => startQuire({}), async () => {});
if (findPgBin()) {
  let cluster: PgCluster | undefined;
  labelsSuite(
    'PostgreSQL',
    async () => {
      cluster = await startPgCluster();
      return startQuire({ databaseUrl: await cluster.createDatabase('quire_labels') });
    },
    async () => {
      await cluster?.stop();
    },
  );
} else {
  describe('docset labels (PostgreSQL)', () => {
    test('PostgreSQL', { skip: 'PostgreSQL server binaries (initdb, pg_ctl) are not installed' }, () => {});
  });
}
