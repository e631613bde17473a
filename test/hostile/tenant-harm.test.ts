/**
 * Issue 46 (tenants that cannot hurt each other), over real HTTP against a real server, on SQLite and
 * on PostgreSQL: bad input and races answer a 4xx Problem, never a 5xx, and lose nothing stored.
 *  - more `metadata.*` filters than allowed: 400 (REST and `/ops`), the allowed number answers;
 *  - concurrent creates of one docset name or one property label: one 201, the others 409;
 *  - a docset deleted while an upload goes into it: the upload is a 201 or a 404;
 *  - deletes racing moves between docsets: every docset's `documentCount` stays true;
 *  - a replacing artifact upload whose form turns out malformed: the artifact keeps its old bytes;
 *  - a webhook URL naming a private address in an IPv4-embedding IPv6 form or an odd IPv4 spelling: 400;
 *  - an expired workspace: 403 on every authenticated route; `quire workspaces set-expiry`;
 *  - a bootstrap key revoked through the API stays revoked after a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onBothDatabases } from '../helpers/postgres.js';
import { startQuire, type Quire } from '../helpers/quire.js';
import { client, type Res } from '../helpers/http.js';

type Client = ReturnType<typeof client>;

/** The documented limit of `metadata.*` filters in one query (README): as many as a document holds. */
const MAX_METADATA_FILTERS = 10;

function assertProblem(r: Res, status: number, detail?: RegExp) {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
  assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  if (detail) assert.match(r.json.detail, detail);
}

const statuses = (rs: Res[]) => rs.map((r) => r.status).sort().join(',');
const noServerError = (rs: Res[], what: string) => {
  const bad = rs.filter((r) => r.status >= 500);
  assert.equal(bad.length, 0, `${what}: ${bad.map((r) => `${r.status} ${r.text}`).join('; ')}`);
};

async function uploadText(c: Client, name: string, fields: Record<string, string> = {}): Promise<Res> {
  return c.upload({ bytes: `hello ${name}\n`, name }, fields);
}

onBothDatabases('tenant harm', 'quire_tenant_harm', (dialect, database, teardown) => {
  describe(`bad input and races never answer 5xx (${dialect})`, () => {
    let q: Quire;
    let c: Client;
    let db: Awaited<ReturnType<typeof database>>;
    before(async () => {
      db = await database();
      q = await startQuire({
        ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: db.file.replace(/\/quire\.db$/, '') }),
        extraEnv: { QUIRE_WORKER_CONCURRENCY: '1' },
      });
      c = client(q.api, q.key);
    });
    after(async () => {
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('more metadata filters than allowed: 400 on REST and /ops; the allowed number answers', async () => {
      const params = (n: number) => Array.from({ length: n }, (_, i) => `metadata.${i.toString(36)}=x`).join('&');
      assertProblem(await c.get(`/documents?${params(1000)}`), 400, new RegExp(`at most ${MAX_METADATA_FILTERS} metadata`));
      assertProblem(await c.get(`/documents?${params(MAX_METADATA_FILTERS + 1)}`), 400, /metadata/);
      const ok = await c.get(`/documents?${params(MAX_METADATA_FILTERS)}`);
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.json.documents, []);
      const ds = (await c.post('/docsets', { json: { name: 'filters' } })).json;
      assertProblem(await c.get(`/docsets/${ds.id}/documents?${params(MAX_METADATA_FILTERS + 1)}`), 400, /metadata/);

      const ops = client(q.origin, q.key);
      const pairs = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'x' }));
      assertProblem(await ops.post('/ops/SearchDocuments', { json: { metadata: pairs(1000) } }), 400);
      assertProblem(await ops.post('/ops/SearchDocuments', { json: { metadata: pairs(MAX_METADATA_FILTERS + 1) } }), 400);
      const opsOk = await ops.post('/ops/SearchDocuments', { json: { metadata: pairs(MAX_METADATA_FILTERS) } });
      assert.equal(opsOk.status, 200, opsOk.text);
    });

    test('concurrent creates of one docset name: one 201, the others 409', async () => {
      for (let round = 0; round < 6; round++) {
        const rs = await Promise.all(Array.from({ length: 8 }, () => c.post('/docsets', { json: { name: `same ${round}` } })));
        noServerError(rs, 'docset creates');
        assert.equal(rs.filter((r) => r.status === 201).length, 1, statuses(rs));
        for (const r of rs) if (r.status !== 201) assertProblem(r, 409, /already exists/);
      }
    });

    test('concurrent creates of one property label: one 201, the others 409', async () => {
      const ds = (await c.post('/docsets', { json: { name: 'properties race' } })).json;
      for (let round = 0; round < 6; round++) {
        const rs = await Promise.all(Array.from({ length: 8 }, () => c.post(`/docsets/${ds.id}/properties`, { json: { label: `Same Label ${round}` } })));
        noServerError(rs, 'property creates');
        assert.equal(rs.filter((r) => r.status === 201).length, 1, statuses(rs));
        for (const r of rs) if (r.status !== 201) assertProblem(r, 409);
      }
    });

    test('a docset deleted while an upload goes into it: the upload is a 201 or a 404, never a 5xx', async () => {
      const answers: Res[] = [];
      for (let round = 0; round < 30; round++) {
        const ds = (await c.post('/docsets', { json: { name: `doomed ${round}` } })).json;
        const upload = uploadText(c, `doomed-${round}.txt`, { 'docset.id': ds.id });
        await new Promise((r) => setTimeout(r, round % 10));
        const del = c.del(`/docsets/${ds.id}`);
        const [u, d] = await Promise.all([upload, del]);
        answers.push(u, d);
        assert.ok([201, 404].includes(u.status), `upload: ${u.status} ${u.text}`);
        assert.ok([204, 404, 409].includes(d.status), `delete: ${d.status} ${d.text}`);
        if (u.status === 404) assertProblem(u, 404, /docset/i);
        if (d.status === 409) {
          // The upload committed a document into the docset while it was being deleted: a repeat succeeds.
          assertProblem(d, 409);
          assert.equal(d.headers.get('x-should-retry'), 'true');
          assert.equal((await c.del(`/docsets/${ds.id}`)).status, 204);
        }
        assertProblem(await c.get(`/docsets/${ds.id}`), 404);
        if (u.status === 201) {
          const doc = (await c.get(`/documents/${u.json.id}`)).json;
          assert.ok(doc.docset === undefined || doc.docset === null || doc.docset.id === ds.id);
        }
      }
      noServerError(answers, 'uploads into a deleted docset');
    });

    test('deletes racing moves between docsets: documentCount stays true', async () => {
      const a = (await c.post('/docsets', { json: { name: 'move from' } })).json;
      const b = (await c.post('/docsets', { json: { name: 'move to' } })).json;
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await uploadText(c, `mover-${i}.txt`, { 'docset.id': a.id });
        assert.equal(r.status, 201, r.text);
        ids.push(r.json.id);
      }
      const moves: Res[] = [];
      const deletes: Res[] = [];
      for (let round = 0; round < 2; round++) {
        const batch = ids.slice(round * 20, round * 20 + 20);
        await Promise.all(
          batch.map(async (id, i) => {
            const move = c.put(`/docsets/${b.id}/documents/${id}`);
            const del = c.del(`/documents/${id}`);
            const [m, d] = i % 2 ? await Promise.all([move, del]) : (await Promise.all([del, move])).reverse();
            moves.push(m!);
            deletes.push(d!);
          }),
        );
      }
      // The counts first: they drifted on PostgreSQL (a delete took one off the docset it had read before a move).
      for (const ds of [a, b]) {
        const listed = (await c.get(`/docsets/${ds.id}/documents?limit=100`)).json.documents.length;
        const counted = (await c.get(`/docsets/${ds.id}`)).json.documentCount;
        assert.equal(counted, listed, `docset ${ds.name}: documentCount ${counted}, documents ${listed}`);
        assert.equal(listed, 0);
      }
      noServerError([...moves, ...deletes], 'moves and deletes');
      for (const m of moves) {
        assert.ok([200, 201, 404, 409].includes(m.status), `move: ${m.status} ${m.text}`);
        // Deleted first: 404 (409 only if it had been moved elsewhere meanwhile); never a deadlock's 409.
        if (m.status === 409) assertProblem(m, 409, /was moved by another request/);
      }
      for (const d of deletes) assert.equal(d.status, 204, `delete: ${d.status} ${d.text}`);
    });

    test('a replacing artifact upload with a malformed form keeps the artifact as it was', async () => {
      const ds = (await c.post('/docsets', { json: { name: 'artifact keep' } })).json;
      const p = await c.post('/projects', { json: { name: 'keep', type: 'TabularReport', 'docset.id': ds.id } });
      assert.equal(p.status, 201, p.text);
      const path = `/projects/${p.json.id}/artifacts/latest/content`;
      const form = new FormData();
      form.append('file', new Blob(['a,b\r\n1,2\r\n']), 'mine.csv');
      const first = await c.post(path, { body: form });
      assert.equal(first.status, 201, first.text);

      const boundary = 'quireboundary46';
      const malformed = [
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="mine.csv"\r\nContent-Type: text/csv\r\n\r\nreplaced,bytes\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="stray"\r\n\r\nno end`,
      ].join('');
      const second = await c.post(path, { body: Buffer.from(malformed), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      assertProblem(second, 400);

      const stray = new FormData();
      stray.append('file', new Blob(['replaced again\r\n']), 'mine.csv');
      stray.append('after', 'the file');
      assertProblem(await c.post(path, { body: stray }), 400, /last part/);

      const kept = await c.get(`/projects/${p.json.id}/artifacts/latest/${first.json.id}`);
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.json.size, first.json.size);
      const bytes = await c.get(`/projects/${p.json.id}/artifacts/latest/${first.json.id}/content`);
      assert.equal(bytes.status, 200);
      assert.equal(bytes.text, 'a,b\r\n1,2\r\n');
    });

    test('webhooks to IPv4-embedding IPv6 forms of private addresses are refused at creation', async () => {
      for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::ffff:7f00:1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::a00:1]', '[2002:7f00:1::1]', '[2001::1]', '2130706433', '0x7f.1']) {
        assertProblem(await c.post('/webhooks', { json: { target: 'Documents', url: `http://${host}:8080/hook` } }), 400, /private, loopback/);
      }
    });

    test('an expired workspace answers 403 on every authenticated route; set-expiry sets and clears it', async () => {
      assert.equal((await q.cli(['workspaces', 'create', 'expiring'])).code, 0);
      const made = await q.cli(['keys', 'create', '--workspace', 'expiring', '--scopes', 'admin']);
      assert.equal(made.code, 0, made.stderr);
      const key = made.stdout.trim();
      const e = client(q.api, key);
      const ops = client(q.origin, key);
      assert.equal((await e.get('/workspace')).status, 200);

      const past = await q.cli(['workspaces', 'set-expiry', 'expiring', '2001-02-03T04:05:06Z']);
      assert.equal(past.code, 0, past.stderr);
      assert.match(past.stdout, /expires 2001-02-03T04:05:06\.000Z/);
      const listed = await q.cli(['workspaces', 'list']);
      assert.match(listed.stdout, /expiring.*2001-02-03T04:05:06\.000Z/);
      for (const r of [await e.get('/workspace'), await e.get('/documents'), await e.post('/docsets', { json: { name: 'x' } }), await ops.post('/ops/SearchDocuments', { json: {} })]) {
        assertProblem(r, 403, /workspace "expiring" expired on 2001-02-03T04:05:06\.000Z/);
      }
      // Another workspace is untouched.
      assert.equal((await c.get('/workspace')).status, 200);

      assert.equal((await q.cli(['workspaces', 'set-expiry', 'expiring', 'never'])).code, 0);
      const back = await e.get('/workspace');
      assert.equal(back.status, 200, back.text);
      assert.equal(back.json.expired, false);

      const future = await q.cli(['workspaces', 'set-expiry', 'expiring', '2999-01-01']);
      assert.equal(future.code, 0, future.stderr);
      assert.equal((await e.get('/documents')).status, 200);

      const bad = await q.cli(['workspaces', 'set-expiry', 'expiring', 'tomorrowish']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /ISO 8601/);
      const unknown = await q.cli(['workspaces', 'set-expiry', 'nosuch', 'never']);
      assert.equal(unknown.code, 1);
    });

    test('a bootstrap key revoked through the API stays revoked after a restart', async () => {
      const keys = (await c.get('/workspace/keys')).json;
      const boot = keys.keys.find((k: { name: string }) => k.name === 'bootstrap');
      assert.ok(boot, JSON.stringify(keys));
      assert.equal((await c.del(`/workspace/keys/${boot.id}`)).status, 204);
      assertProblem(await c.get('/workspace'), 401);
      assert.equal(await q.stop(), 0);
      q = await startQuire({
        ...(db.kind === 'postgres' ? { databaseUrl: db.url } : { dataDir: q.dataDir }),
        extraEnv: { QUIRE_BOOTSTRAP_KEY: q.key, QUIRE_WORKER_CONCURRENCY: '1' },
      });
      assertProblem(await client(q.api, q.key).get('/workspace'), 401);
      assert.match(q.logs(), /QUIRE_BOOTSTRAP_KEY.*revoked/);
    });
  });
});
