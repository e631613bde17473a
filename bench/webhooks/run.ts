// Webhook delivery benchmark (bench/README.md): 10,000 events to a receiver on 127.0.0.1 that
// verifies every signature (standardwebhooks), through a real Quire process (fan-out, delivery job,
// keep-alive sender).
//
//   npx tsx bench/webhooks/run.ts [--postgres]
//
// Two phases, each of BENCH_EVENTS (default 10,000) `Documents.Create` events written straight into
// the events table (the outbox) from this process, as the API's transactions write them, so no
// ingestion competes for the 2 cores:
//   burst  all events in one go: deliveries/s from the first commit to the last receipt
//   paced  BENCH_RATE events/s (default 400) in 10 ms ticks: lag from an event's commit to its
//          receipt (p50, p99, max), the figure a live system sees
// Environment: BENCH_EVENTS, BENCH_RATE, BENCH_WEBHOOKS (webhooks hearing every event, default 1),
// BENCH_WAIT_MS (how long to wait for the last delivery, default 300000).
// Results also go to bench/results/webhooks-<database>-<timestamp>.json.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type net from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { Store } from '../../src/store/db/index.js';
import { loadConfig } from '../../src/runtime/config.js';
import { newId } from '../../src/model/ids.js';
import { ROOT, startQuire } from '../../test/helpers/quire.js';
import { startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';

const { values: flags } = parseArgs({ options: { postgres: { type: 'boolean', default: false } } });
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 400);
const HOOKS = Number(process.env.BENCH_WEBHOOKS ?? 1);

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const verifier = new Webhook(secret);
/** webhook-id -> first receipt time, per receiver path. */
const received = new Map<string, number>();
let invalid = 0;
let duplicates = 0;

const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      verifier.verify(raw, req.headers as Record<string, string>);
    } catch {
      invalid++;
      return void res.writeHead(400).end();
    }
    const key = `${req.url} ${req.headers['webhook-id']}`;
    if (received.has(key)) duplicates++;
    else received.set(key, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const port = (receiver.address() as net.AddressInfo).port;

let cluster: PgCluster | undefined;
const databaseUrl = flags.postgres ? await (cluster = await startPgCluster()).createDatabase('quire_bench_webhooks') : undefined;
const q = await startQuire({ ...(databaseUrl ? { databaseUrl } : {}), extraEnv: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_LOG_LEVEL: 'warn', QUIRE_WORKSPACE_MAX_WEBHOOKS: '0' } });
const store = await Store.open(loadConfig(q.env).database, { migrate: false });

async function api(method: string, path: string, body?: unknown) {
  const r = await fetch(`${q.api}${path}`, { method, headers: { authorization: `Bearer ${q.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<{ id: string }>;
}

const workspaceId = (await api('GET', '/workspace')).id;
for (let i = 0; i < HOOKS; i++) await api('POST', '/webhooks', { target: 'Documents', url: `http://127.0.0.1:${port}/hook-${i}`, secret });

/** Writes `n` events in one transaction; returns their ids and commit time. */
async function writeEvents(n: number): Promise<{ ids: string[]; at: number }> {
  const ids: string[] = [];
  await store.tx(async (s) => {
    for (let i = 0; i < n; i++) {
      const id = newId();
      ids.push(id);
      await s.events.insert({ id, workspaceId, type: 'Documents.Create', payload: { documentId: newId(), name: `bench-${id}.pdf`, docsetId: null }, createdAt: Date.now() });
    }
  });
  return { ids, at: Date.now() };
}

async function waitAll(ids: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const keys = ids.flatMap((id) => Array.from({ length: HOOKS }, (_, i) => `/hook-${i} ${id}`));
  while (Date.now() < deadline) {
    if (keys.every((k) => received.has(k))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function lags(committed: Map<string, number>) {
  const out: number[] = [];
  for (const [id, at] of committed) for (let i = 0; i < HOOKS; i++) out.push(received.get(`/hook-${i} ${id}`)! - at);
  out.sort((a, b) => a - b);
  return { p50: pct(out, 50), p99: pct(out, 99), max: out[out.length - 1]! };
}

const results: Record<string, unknown> = { database: flags.postgres ? 'postgres' : 'sqlite', events: EVENTS, webhooks: HOOKS };
try {
  // Burst: every event at once.
  const start = Date.now();
  const committed = new Map<string, number>();
  for (let done = 0; done < EVENTS; done += 1000) {
    const { ids, at } = await writeEvents(Math.min(1000, EVENTS - done));
    for (const id of ids) committed.set(id, at);
  }
  const ok = await waitAll([...committed.keys()], Number(process.env.BENCH_WAIT_MS ?? 300_000));
  if (!ok) console.log(q.logs().slice(-4000));
  const lastReceipt = Math.max(...[...received.values()]);
  const seconds = (lastReceipt - start) / 1000;
  results.burst = { complete: ok, seconds, deliveriesPerSecond: Math.round((EVENTS * HOOKS) / seconds), lagMs: lags(committed) };
  console.log('burst', results.burst);

  // Paced: RATE events/s.
  const paced = new Map<string, number>();
  const perTick = Math.max(1, Math.round(RATE / 100));
  const t0 = Date.now();
  let written = 0;
  while (written < EVENTS) {
    const n = Math.min(perTick, EVENTS - written);
    const { ids, at } = await writeEvents(n);
    for (const id of ids) paced.set(id, at);
    written += n;
    const due = t0 + (written / RATE) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const writeSeconds = (Date.now() - t0) / 1000;
  const pacedOk = await waitAll([...paced.keys()], Number(process.env.BENCH_WAIT_MS ?? 300_000));
  if (!pacedOk) console.log(q.logs().slice(-4000));
  results.paced = { complete: pacedOk, rate: Math.round(EVENTS / writeSeconds), lagMs: lags(paced) };
  console.log('paced', results.paced);
  results.invalidSignatures = invalid;
  results.duplicates = duplicates;
  results.at = new Date().toISOString();
  console.log(JSON.stringify(results));
  const dir = path.join(ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `webhooks-${results.database}-${Date.now()}.json`), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await store.close();
  await q.stop();
  receiver.close();
  cluster?.stop();
}
