import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, freePort, startQuire } from '../helpers/quire.js';
import { client } from '../helpers/http.js';
import { scratchDir, scratchEnv } from '../helpers/scratch.js';

const built = fs.existsSync(path.join(ROOT, 'dist/main.js'));

test('npm start serves the built app until SIGTERM, finishing an in-flight upload', { skip: built ? false : 'dist/ is missing: npm ci (or npm run build) builds it' }, async () => {
  const port = await freePort();
  const dataDir = scratchDir('quire-start-');
  const key = 'lifecycle-key-0123456789';
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...scratchEnv(), PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_KEY: key, QUIRE_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (d) => (output += d));
  npm.stderr.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => npm.on('exit', (code, signal) => resolve({ code, signal })));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${origin}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal((await fetch(`${origin}/healthz`)).status, 200, output);

  // Begin an upload, send half of it, then ask the service to stop.
  const boundary = 'lifecycle-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\n\r\n`),
    Buffer.alloc(256 * 1024, 0x62),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${origin}/v1preview1/documents/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write(body.subarray(0, 100_000));
    setTimeout(() => {
      npm.kill('SIGTERM');
      setTimeout(() => req.end(body.subarray(100_000)), 500);
    }, 300);
  });
  const r = await response;
  assert.equal(r.status, 201, r.body);
  assert.equal(JSON.parse(r.body).name, 'slow.txt');
  // npm itself re-raises the signal it was stopped with; the service inside must have stopped cleanly.
  const end = await exited;
  assert.ok(end.code === 0 || end.signal === 'SIGTERM', `npm ended with ${JSON.stringify(end)}:\n${output}`);
  assert.match(output, /"msg":"stopped"/, output);
  assert.doesNotMatch(output, /"level":50/, output);
  await assert.rejects(fetch(`${origin}/healthz`));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('data, keys and cursors survive a restart', async () => {
  // API only: this is about what persists, not ingestion (whose graceful stop may wait for a document).
  const first = await startQuire({ args: ['serve', '--no-worker'] });
  const c = client(first.api, first.key);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await c.upload({ bytes: `r${i}`, name: `r${i}.txt` })).json.id);
  const page = await c.get('/documents?limit=1');
  assert.equal(await first.stop(), 0, first.logs());

  const second = await startQuire({ dataDir: first.dataDir, extraEnv: { QUIRE_BOOTSTRAP_KEY: first.key }, args: ['serve', '--no-worker'] });
  const c2 = client(second.api, second.key);
  assert.equal(second.key, first.key);
  const rest = await c2.get(page.json.next.replace(first.origin, second.origin));
  assert.equal(rest.status, 200, rest.text);
  assert.deepEqual(rest.json.documents.map((d: { id: string }) => d.id), [ids[1]]);
  assert.equal((await c2.get(`/documents/${ids[2]}/content`)).text, 'r2');
  assert.equal(await second.stop(), 0, second.logs());
  fs.rmSync(first.dataDir, { recursive: true, force: true });
});
