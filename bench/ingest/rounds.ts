// Where a batch's CPU goes (bench/README.md): the PDFs of ../shared/corpus/kgrag uploaded to one built
// server BENCH_ROUNDS times in a row (the first round on a fresh server, the others warm), all 16 at
// once, each round waiting until every document is Ready. Per round: wall time from the first upload
// to the last Ready, the server's CPU (its threads, and its children such as tesseract), pages/s, its RSS after, and
// with BENCH_THREADS=1 the CPU of each of the server's threads.
//
//   npm run build && npx tsx bench/ingest/rounds.ts
//
// Each round's documents are deleted after it (not measured), so a round reads back its own 16.
//
// Environment: BENCH_ROUNDS (3), BENCH_THREADS (0), BENCH_NODE_ARGS (node flags for the server, space
// separated), BENCH_CORPUS; every QUIRE_* variable set here is passed to the server (to compare
// settings: `QUIRE_INITIAL_OLD_SPACE_MB=0 npx tsx bench/ingest/rounds.ts`).
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../../test/helpers/quire.js';
import { checkDist, startDistQuire, uploadDocument } from '../lib/quire-dist.js';
import { envNumber, MiB, procStatusBytes, waitForQuiet } from '../lib/machine.js';
import { pdfsUnder } from '../lib/corpus.js';

const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const CORPUS_DIR = process.env.BENCH_CORPUS ? path.resolve(process.env.BENCH_CORPUS) : path.join(CORPUS, 'kgrag');
const files = pdfsUnder(CORPUS_DIR).map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(f) }));

/** CPU seconds of the process: its threads, and its children it has waited for. */
function processCpu(pid: number): number {
  const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

/** CPU seconds of each thread of the process, by thread id. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const st = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

checkDist();
const extraEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('QUIRE_')));
await waitForQuiet();
const q = await startDistQuire({ extraEnv, nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) });
const pid = q.process.pid!;
const auth = { authorization: `Bearer ${q.key}` };
await new Promise((r) => setTimeout(r, 1500)); // the threads started ahead finish loading
await waitForQuiet(); // and whatever else the server does at start
const rows: { round: number; wall: number; cpu: number; pagesPerS: number }[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const cpu0 = processCpu(pid);
    const threads0 = threadCpu(pid);
    const t0 = performance.now();
    const ids = await Promise.all(files.map((f) => uploadDocument(q, f.name, f.bytes)));
    let pageCount = 0;
    for (;;) {
      const body = (await (await fetch(`${q.api}/documents?limit=100`, { headers: auth })).json()) as { documents: { id: string; status: string; pageCount?: number }[] };
      const docs = body.documents.filter((d) => ids.includes(d.id));
      if (docs.length === ids.length && docs.every((d) => d.status === 'Ready' || d.status === 'Error')) {
        pageCount = docs.reduce((n, d) => n + (d.pageCount ?? 0), 0);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const wall = (performance.now() - t0) / 1000;
    const cpu = processCpu(pid) - cpu0;
    rows.push({ round, wall, cpu, pagesPerS: pageCount / wall });
    console.log(`round ${round} (${round === 0 ? 'fresh' : 'warm'}): ${wall.toFixed(2)} s, server CPU ${cpu.toFixed(2)} s, ${(pageCount / wall).toFixed(1)} pages/s, RSS ${(procStatusBytes(pid, 'VmRSS') / MiB).toFixed(0)} MiB`);
    if (process.env.BENCH_THREADS === '1') {
      for (const [tid, cpu] of threadCpu(pid)) {
        const used = cpu - (threads0.get(tid) ?? 0);
        if (used >= 0.05) console.log(`  thread ${tid}${tid === String(pid) ? ' (main)' : ''}: ${used.toFixed(2)} s`);
      }
    }
    for (const id of ids) {
      const r = await fetch(`${q.api}/documents/${id}`, { method: 'DELETE', headers: auth });
      if (r.status !== 204) throw new Error(`delete of ${id}: ${r.status} ${await r.text()}`);
    }
    await new Promise((r) => setTimeout(r, 300)); // the deletions' own work is over before the next round
  }
  const warm = rows.slice(1);
  if (warm.length >= 2) {
    const mean = (k: 'wall' | 'cpu' | 'pagesPerS') => warm.reduce((n, r) => n + r[k], 0) / warm.length;
    console.log(`warm rounds (${warm.length}): mean ${mean('wall').toFixed(2)} s, server CPU ${mean('cpu').toFixed(2)} s, ${mean('pagesPerS').toFixed(1)} pages/s; last ${warm.at(-1)!.pagesPerS.toFixed(1)} pages/s`);
  }
} finally {
  await q.stop();
}
