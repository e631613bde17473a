// bench/load: a mixed load on one built Quire (SQLite, API and job consumers in one process, as `npm start`
// runs it): reads, lists, uploads of small files (which its job consumers then ingest) and property writes.
//  1. Find the rate: 15-second steps at rising request rates until p99 > 200 ms or errors appear;
//     the highest step that held is the sustained rate.
//  2. Three consecutive 60-second runs at that rate: p99, errors (must be 0) and the server's RSS after
//     each, to see whether memory flattens (no leak).
// See bench/README.md for the figures. A measurement, not a test: exit 0 either way.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon, { type Request as AcRequest } from 'autocannon';
import { ROOT } from '../../test/helpers/quire.js';
import { checkDist, startDistQuire, type DistQuire } from '../lib/quire-dist.js';
import { envNumber, gitState, machine, printTable, procStatusBytes, waitForQuiet, MiB } from '../lib/machine.js';
import { cleanUp, tempDir } from '../lib/cleanup.js';

const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);
const STEP_S = envNumber('BENCH_STEP', 15);
const RUN_S = envNumber('BENCH_DURATION', 60);
const RUNS = envNumber('BENCH_RUNS', 3);
const RATES = (process.env.BENCH_RATES ?? '100,200,400,600,800,1000,1400,1800,2400').split(',').map(Number);
const P99_TARGET_MS = 200;
const SEED_DOCS = 20;

async function api(q: DistQuire, p: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${q.api}${p}`, { ...init, headers: { authorization: `Bearer ${q.key}`, ...(init.headers ?? {}) } });
}

interface Seed {
  docset: string;
  documents: string[];
}

async function seed(q: DistQuire): Promise<Seed> {
  const docset = ((await (await api(q, '/docsets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Load' }) })).json()) as { id: string }).id;
  const documents: string[] = [];
  for (let i = 0; i < SEED_DOCS; i++) {
    const form = new FormData();
    form.append('docset.id', docset);
    form.append('file', new Blob([`Agreement ${i}\n\nEffective Date: January ${1 + (i % 28)}, 2024.\nParty: Example ${i} Corp.\n`]), `seed-${i}.txt`);
    documents.push(((await (await api(q, '/documents/content', { method: 'POST', body: form })).json()) as { id: string }).id);
  }
  for (;;) {
    const r = (await (await api(q, `/documents?limit=100`)).json()) as { documents: { status: string }[] };
    if (r.documents.filter((d) => d.status === 'Ready').length >= SEED_DOCS) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  return { docset, documents };
}

/** One cycle of the mix, 10 requests: 5 reads, 2 lists, 1 docset listing, 1 upload, 1 property write. */
function mix(q: DistQuire, s: Seed): AcRequest[] {
  const auth = { authorization: `Bearer ${q.key}` };
  let n = 0;
  const doc = () => s.documents[n++ % s.documents.length]!;
  const boundary = `----quireload${randomBytes(8).toString('hex')}`;
  const upload = (i: number) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="load-${i}.txt"\r\nContent-Type: text/plain\r\n\r\nA short note number ${i}.\r\n--${boundary}--\r\n`;
  let uploads = 0;
  const read: AcRequest = { method: 'GET', headers: auth, setupRequest: (r) => ({ ...r, path: `/v1preview1/documents/${doc()}` }) };
  return [
    read,
    { method: 'GET', path: '/v1preview1/documents?limit=50', headers: auth },
    read,
    { method: 'GET', path: `/v1preview1/docsets/${s.docset}/documents?limit=50`, headers: auth },
    read,
    {
      method: 'POST',
      path: '/v1preview1/documents/content',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      setupRequest: (r) => ({ ...r, body: upload(uploads++) }),
    },
    read,
    { method: 'GET', path: '/v1preview1/documents?limit=50&status=Ready', headers: auth },
    read,
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (r) => ({ ...r, path: `/v1preview1/docsets/${s.docset}/document-properties/${doc()}`, body: JSON.stringify({ label: 'Reviewer', value: `R${n}` }) }),
    },
  ];
}

interface Measured {
  rate: number;
  seconds: number;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
  rssAfterMiB: number;
}

async function measure(q: DistQuire, s: Seed, rate: number, seconds: number): Promise<Measured> {
  const lat: number[] = [];
  const statuses: Record<string, number> = {};
  const inst = autocannon({ url: q.origin, connections: CONNECTIONS, duration: seconds, requests: mix(q, s), ...({ overallRate: rate } as object), timeout: 10 });
  inst.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    lat.push(ms);
  });
  const r = await inst;
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN;
  return {
    rate,
    seconds: r.duration,
    requests: lat.length,
    reqPerSec: lat.length / r.duration,
    p50: pct(50),
    p99: pct(99),
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    statuses,
    rssAfterMiB: procStatusBytes(q.process.pid!, 'VmRSS') / MiB,
  };
}

const line = (m: Measured) =>
  `${m.rate} req/s asked: ${m.reqPerSec.toFixed(0)} done, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, errors ${m.errors}, non-2xx ${m.non2xx}, RSS ${m.rssAfterMiB.toFixed(0)} MiB`;

async function main() {
  checkDist();
  console.log(`measuring commit ${gitState()?.commit.slice(0, 12) ?? '?'}: ${CONNECTIONS} connections, mix of 5 reads, 3 lists, 1 upload, 1 property write`);
  const q = await startDistQuire({ dataDir: tempDir('quire-load-'), extraEnv: { QUIRE_RATE_LIMIT: '0' } });
  try {
    const s = await seed(q);
    console.log(`seeded ${s.documents.length} Ready documents; RSS ${(procStatusBytes(q.process.pid!, 'VmRSS') / MiB).toFixed(0)} MiB`);
    await waitForQuiet();
    console.log(`== rate steps of ${STEP_S} s`);
    const steps: Measured[] = [];
    let sustained: number | null = null;
    for (const rate of RATES) {
      const m = await measure(q, s, rate, STEP_S);
      steps.push(m);
      console.log(`  ${line(m)}`);
      const held = m.p99 <= P99_TARGET_MS && m.errors === 0 && m.non2xx === 0 && m.reqPerSec >= 0.95 * rate;
      if (!held) break;
      sustained = rate;
    }
    const runs: Measured[] = [];
    if (sustained !== null) {
      console.log(`== ${RUNS} runs of ${RUN_S} s at ${sustained} req/s`);
      for (let i = 0; i < RUNS; i++) {
        const m = await measure(q, s, sustained, RUN_S);
        runs.push(m);
        console.log(`  run ${i + 1}: ${line(m)}`);
      }
      printTable(
        [
          ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'RSS after MiB', `p99 ≤ ${P99_TARGET_MS} ms, 0 errors`],
          ...runs.map((m, i) => [String(i + 1), m.reqPerSec.toFixed(0), m.p50.toFixed(1), m.p99.toFixed(1), String(m.errors), String(m.non2xx), m.rssAfterMiB.toFixed(0), m.p99 <= P99_TARGET_MS && m.errors + m.non2xx === 0 ? 'PASS' : 'FAIL']),
        ],
        new Set([1, 2, 3, 4, 5, 6]),
      );
      const growth = runs.slice(1).map((m, i) => m.rssAfterMiB - runs[i]!.rssAfterMiB);
      console.log(`RSS growth between runs: ${growth.map((g) => `${g >= 0 ? '+' : ''}${g.toFixed(0)} MiB`).join(', ')}`);
    } else {
      console.log(`no rate held p99 ≤ ${P99_TARGET_MS} ms without errors`);
    }
    const out = path.join(ROOT, 'bench/results', `load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), git: gitState(), machine: machine(), connections: CONNECTIONS, steps, sustained, runs }, null, 2));
    console.log(`results: ${path.relative(ROOT, out)}`);
  } finally {
    await q.stop();
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanUp);
