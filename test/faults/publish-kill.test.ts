/**
 * SIGKILL while a project version is being published (its files generated, staged and committed
 * with the version's rows in one transaction), then a restart on the same data: the version is
 * complete or absent, never partial — before the restart (what the kill left) and after it (the
 * publish job runs again once its lease has expired and publishes the whole version).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'libsql';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, until } from '../helpers/http.js';

const DOCS = 40;
const ENV = { QUIRE_PROJECT_DEBOUNCE_MS: '200', QUIRE_JOB_LEASE_MS: '1500', QUIRE_JOB_RETRY_MS: '100' };

/**
 * Every recorded version of the project, each checked complete: one report-values.xml per document
 * of the docset, each artifact's blob present with the SHA-256 its row names, and the project's
 * latest version pointing at the newest recorded one. Returns the versions.
 */
function assertVersionsComplete(q: Quire, projectId: string, docIds: string[], when: string): number[] {
  const db = new Database(path.join(q.dataDir, 'quire.db'), { readonly: true });
  try {
    const versions = (db.prepare('SELECT version FROM project_versions WHERE project_id = ? ORDER BY version').all(projectId) as { version: number }[]).map((r) => Number(r.version));
    const latest = Number((db.prepare('SELECT latest_version AS v FROM projects WHERE id = ?').get(projectId) as { v: number }).v);
    assert.equal(latest, versions.at(-1) ?? 0, `${when}: the project's latest version is the newest recorded one`);
    const orphanVersions = db.prepare('SELECT DISTINCT version FROM artifacts WHERE project_id = ? AND version NOT IN (SELECT version FROM project_versions WHERE project_id = ?)').all(projectId, projectId);
    assert.deepEqual(orphanVersions, [], `${when}: no artifact rows of an unrecorded version`);
    for (const v of versions) {
      const rows = db.prepare('SELECT name, document_id AS documentId, blob_key AS blobKey, sha256 FROM artifacts WHERE project_id = ? AND version = ?').all(projectId, v) as { name: string; documentId: string | null; blobKey: string; sha256: string }[];
      const perDocument = rows.filter((r) => r.name === 'report-values.xml').map((r) => r.documentId).sort();
      assert.deepEqual(perDocument, [...docIds].sort(), `${when}: version ${v} has a report-values.xml for every document`);
      for (const r of rows) {
        const file = path.join(q.dataDir, 'blobs', r.blobKey);
        assert.ok(fs.existsSync(file), `${when}: version ${v}'s ${r.name} has its blob`);
        assert.equal(createHash('sha256').update(fs.readFileSync(file)).digest('hex'), r.sha256, `${when}: version ${v}'s ${r.name} has the bytes its row names`);
      }
    }
    return versions;
  } finally {
    db.close();
  }
}

test('faults: SIGKILL while a project version is published: complete or absent, and complete after the restart', async (t) => {
  const q1 = await startQuire({ extraEnv: ENV });
  const c1 = client(q1.api, q1.key);
  const ds = await c1.post('/docsets', { json: { name: 'killed while publishing' } });
  assertJson(ds, 201);
  const docIds: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    const r = await c1.upload({ bytes: `Agreement number A-${i}\nThe parties agree.\n`.repeat(30), name: `doc-${String(i).padStart(2, '0')}.txt` }, { 'docset.id': ds.json.id });
    assertJson(r, 201);
    docIds.push(r.json.id);
  }
  for (const id of docIds) await until(`document ${id} Ready`, async () => ((await c1.get(`/documents/${id}`)).json.status === 'Ready' ? true : undefined), 120_000, 100);

  const p = await c1.post('/projects', { json: { name: 'report', type: 'TabularReport', 'docset.id': ds.json.id, items: [{ label: 'Agreement number' }], autoConfirmDocuments: true } });
  assertJson(p, 201);
  const projectId = p.json.id as string;
  // Killed at the first sign of the publish job writing: a staged file or a committed artifact.
  const staging = path.join(q1.dataDir, 'blobs', '.staging');
  const committedDir = path.join(q1.dataDir, 'blobs', 'projects', projectId);
  let phase = '';
  const deadline = Date.now() + 60_000;
  while (!phase && Date.now() < deadline) {
    if (fs.existsSync(committedDir) && fs.readdirSync(committedDir).length > 0) phase = `committing (${fs.readdirSync(committedDir).length} files renamed)`;
    else if (fs.existsSync(staging) && fs.readdirSync(staging).length > 0) phase = `generating (${fs.readdirSync(staging).length} files staged)`;
    else await new Promise((r) => setTimeout(r, 2));
  }
  assert.ok(phase, 'the publish job never started writing');
  q1.process.kill('SIGKILL');
  await q1.exited;
  t.diagnostic(`killed while ${phase}`);
  const atKill = assertVersionsComplete(q1, projectId, docIds, 'after the kill');
  t.diagnostic(`versions recorded at the kill: [${atKill.join(', ')}]`);

  const q2 = await startQuire({ dataDir: q1.dataDir, extraEnv: { ...ENV, QUIRE_BOOTSTRAP_KEY: q1.key } });
  try {
    const c2 = client(q2.api, q2.key);
    await until('version 1 after the restart', async () => (Number((await c2.get(`/projects/${projectId}`)).json.artifacts.version ?? 0) >= 1 ? true : undefined), 90_000, 200);
    // Let a re-run that found the version already published settle.
    await new Promise((r) => setTimeout(r, 1500));
    const versions = assertVersionsComplete(q2, projectId, docIds, 'after the restart');
    assert.deepEqual(versions, [1], 'one version: the inputs did not change');
    // And through the API: every file of the latest version downloads with its SHA-256.
    const listed = (await c2.get(`/projects/${projectId}/artifacts/latest?limit=100`)).json.artifacts as { name: string; url: string; document?: { id: string } }[];
    assert.equal(listed.filter((a) => a.name === 'report-values.xml').length, DOCS);
    const referenced = new Set<string>();
    const db = new Database(path.join(q2.dataDir, 'quire.db'), { readonly: true });
    for (const r of db.prepare('SELECT blob_key AS k FROM artifacts WHERE project_id = ?').all(projectId) as { k: string }[]) referenced.add(path.basename(r.k));
    db.close();
    const onDisk = fs.existsSync(committedDir) ? fs.readdirSync(committedDir) : [];
    const orphans = onDisk.filter((f) => !referenced.has(f));
    t.diagnostic(`artifact blobs on disk ${onDisk.length}, referenced ${referenced.size}, unreferenced ${orphans.length}`);
  } finally {
    assert.equal(await q2.stop(), 0, q2.logs());
  }
});
