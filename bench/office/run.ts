// Office documents to `Ready` through LibreOffice: the Word files of ../shared/corpus/office uploaded
// together to a built server, BENCH_ROUNDS times in a row (each round waits until all are Ready, then
// deletes them), with a resident LibreOffice per reading thread (the default) and with
// QUIRE_OFFICE_IDLE_MS=0 (a LibreOffice started for each conversion, as before). The reference, in
// the same run: the same files converted by `soffice --headless --convert-to pdf`, one process each,
// as many at a time as the server has reading threads.
//
//   npm run build && npx tsx bench/office/run.ts
//
// Per round: wall time from the first upload to the last Ready, and the machine's busy CPU-seconds
// over it (LibreOffice's processes included; a quiet machine is waited for first). Results also go
// to bench/results/office-<timestamp>.json. Environment: BENCH_ROUNDS (4).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CORPUS, ROOT } from '../../test/helpers/quire.js';
import { checkDist, startDistQuire, uploadDocument } from '../lib/quire-dist.js';
import { envNumber, gitState, machine, machineBusySeconds, median, printTable, waitForQuiet } from '../lib/machine.js';

const ROUNDS = Math.max(2, Math.round(envNumber('BENCH_ROUNDS', 4)));
const THREADS = Math.max(1, os.availableParallelism());
const dir = path.join(CORPUS, 'office');
const files = fs
  .readdirSync(dir)
  .filter((f) => /\.(docx|doc)$/i.test(f))
  .sort()
  .map((f) => ({ name: f, bytes: fs.readFileSync(path.join(dir, f)) }));

interface Round {
  wall: number;
  cpu: number;
}

async function timed(run: () => Promise<void>): Promise<Round> {
  const cpu0 = machineBusySeconds();
  const t0 = performance.now();
  await run();
  return { wall: (performance.now() - t0) / 1000, cpu: machineBusySeconds() - cpu0 };
}

/** One `soffice --convert-to pdf` per file, THREADS at a time, each with a profile of its own. */
async function reference(): Promise<Round> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-office-'));
  try {
    const queue = files.map((f, i) => {
      const input = path.join(work, `${i}-${f.name}`);
      fs.writeFileSync(input, f.bytes);
      return { input, profile: path.join(work, `profile-${i}`) };
    });
    return await timed(async () => {
      const next = async (): Promise<void> => {
        const job = queue.shift();
        if (!job) return;
        await new Promise<void>((resolve, reject) => {
          const p = spawn('soffice', [`-env:UserInstallation=file://${job.profile}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', work, job.input], { stdio: 'ignore' });
          p.on('error', reject);
          p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice exited with ${code}`))));
        });
        return next();
      };
      await Promise.all(Array.from({ length: THREADS }, next));
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** ROUNDS rounds on one server started with `env`. */
async function quire(env: NodeJS.ProcessEnv): Promise<Round[]> {
  const q = await startDistQuire({ extraEnv: env });
  const auth = { authorization: `Bearer ${q.key}` };
  const rounds: Round[] = [];
  try {
    await new Promise((r) => setTimeout(r, 1500));
    for (let round = 0; round < ROUNDS; round++) {
      await waitForQuiet();
      let ids: string[] = [];
      rounds.push(
        await timed(async () => {
          ids = await Promise.all(files.map((f) => uploadDocument(q, f.name, f.bytes)));
          for (;;) {
            const body = (await (await fetch(`${q.api}/documents?limit=100`, { headers: auth })).json()) as { documents: { id: string; status: string; processing?: { pagination?: string } }[] };
            const docs = body.documents.filter((d) => ids.includes(d.id));
            if (docs.some((d) => d.status === 'Error')) throw new Error('a document ended in Error');
            if (docs.length === ids.length && docs.every((d) => d.status === 'Ready')) {
              const paths = new Set(docs.map((d) => d.processing?.pagination));
              if (paths.size !== 1 || !paths.has('libreoffice')) throw new Error(`not all through LibreOffice: ${[...paths].join(', ')}`);
              break;
            }
            await new Promise((r) => setTimeout(r, 50));
          }
        }),
      );
      for (const id of ids) await fetch(`${q.api}/documents/${id}`, { method: 'DELETE', headers: auth });
    }
  } finally {
    await q.stop();
  }
  return rounds;
}

checkDist();
console.log(`${files.length} Word files (${files.map((f) => f.name).join(', ')}), ${ROUNDS} rounds, ${THREADS} reading threads`);
const refRounds: Round[] = [];
for (let i = 0; i < ROUNDS; i++) {
  await waitForQuiet();
  refRounds.push(await reference());
}
const resident = await quire({});
const ownEach = await quire({ QUIRE_OFFICE_IDLE_MS: '0' });
const refWall = median(refRounds.map((r) => r.wall));
const fmt = (x: number) => x.toFixed(2);
const rows = [
  ['', 'first round s', 'later rounds s (median)', 'later ÷ soffice', 'machine CPU-s a later round'],
  ['soffice --convert-to pdf, one process a file', fmt(refRounds[0]!.wall), fmt(refWall), '1.00', fmt(median(refRounds.map((r) => r.cpu)))],
  ...([['Quire, resident LibreOffice (default)', resident], ['Quire, QUIRE_OFFICE_IDLE_MS=0', ownEach]] as const).map(([name, rs]) => {
    const later = rs.slice(1);
    return [name, fmt(rs[0]!.wall), fmt(median(later.map((r) => r.wall))), fmt(median(later.map((r) => r.wall)) / refWall), fmt(median(later.map((r) => r.cpu)))];
  }),
];
printTable(rows, new Set([1, 2, 3, 4]));
const out = path.join(ROOT, 'bench/results', `office-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ machine: machine(), git: gitState(), files: files.map((f) => f.name), rounds: ROUNDS, reference: refRounds, resident, ownEach }, null, 2));
console.log(`results: ${path.relative(ROOT, out)}`);
