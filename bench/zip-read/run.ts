// ZIP read benchmark (bench/README.md, issue 46): how the ingest job reads a stored ZIP archive from
// S3 (a moto server) to expand it, three ways, each in a fresh process:
//   whole   - the archive read into memory and checked, then expanded from the buffer (before issue 46);
//   ranged  - SHA-256 checked in 4 MiB ranged GETs, then expanded by ranged GETs (yauzl's random
//             access reader over BlobStore.read with a range: what the ingest job does);
//   spool   - one streamed GET to a temporary file (hashed on the way), expanded from the file, removed.
// Every member is inflated and drained (not stored: storing costs the same whichever way the archive
// is read). Each method also runs with a delay added before every request (BENCH_ZIP_LATENCY_MS,
// default 20: a typical S3 first-byte latency; moto on loopback answers in about 1 ms). Reported:
// time, requests (GET and HEAD), bytes asked for, and the process's peak RSS.
//
//   npx tsx bench/zip-read/run.ts
//
// Environment: BENCH_ZIP_LATENCY_MS (default 20), BENCH_QUIET_WAIT (s, default 180). Results also go
// to bench/results/zip-read-<timestamp>.json.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ROOT } from '../../test/helpers/quire.js';
import { startS3 } from '../../test/helpers/s3.js';
import { makeZip } from '../../test/helpers/zip.js';
import { S3BlobStore } from '../../src/store/blobs/s3.js';
import type { BlobStore } from '../../src/store/blobs/blob-store.js';
import { expandZip, type ArchiveSource } from '../../src/ingest/readers/zip/zip.js';
import { verifiedBytes, verifiedSource } from '../../src/ingest/jobs/handoff.js';
import type { DocumentRecord } from '../../src/model/records.js';
import { envNumber, gitState, machine, printTable, procStatusBytes, waitForQuiet, MiB } from '../lib/machine.js';
import { cleanUp, onCleanUp } from '../lib/cleanup.js';
import { writeResults } from '../lib/results.js';

const METHODS = ['whole', 'ranged', 'spool'] as const;
type Method = (typeof METHODS)[number];
const LATENCY_MS = envNumber('BENCH_ZIP_LATENCY_MS', 20);
const BUCKET = 'zip-read';
const fmtMiB = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

interface ChildResult {
  ms: number;
  requests: number;
  bytesAsked: number;
  members: number;
  inflated: number;
  peakRss: number;
}

/** The store, counting requests and bytes asked for, each request delayed by `latencyMs`. */
function metered(blobs: BlobStore, latencyMs: number, size: number, count: { requests: number; bytesAsked: number }): BlobStore {
  const wait = () => (latencyMs ? new Promise((r) => setTimeout(r, latencyMs)) : Promise.resolve());
  return new Proxy(blobs, {
    get(target, prop) {
      if (prop === 'read') {
        return async (key: string, range?: { start: number; end: number }) => {
          count.requests++;
          count.bytesAsked += range ? range.end - range.start + 1 : size;
          await wait();
          return target.read(key, range);
        };
      }
      if (prop === 'stat') {
        return async (key: string) => {
          count.requests++;
          await wait();
          return target.stat(key);
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Spool: the archive streamed to a file under `dir` while hashed, then random access to the file. */
async function spooled(blobs: BlobStore, doc: DocumentRecord, dir: string): Promise<{ source: ArchiveSource; remove: () => void }> {
  const file = path.join(dir, `${doc.id}.zip`);
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _e, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(await blobs.read(doc.blobKey), tap, fs.createWriteStream(file));
  if (hash.digest('hex') !== doc.sha256) throw new Error('damaged');
  const size = fs.statSync(file).size;
  return {
    source: { size, read: async (start, end) => fs.createReadStream(file, { start, end }) },
    remove: () => fs.rmSync(file, { force: true }),
  };
}

async function child(): Promise<void> {
  const env = JSON.parse(process.env.BENCH_ZIP_CHILD!) as { endpoint: string; key: string; size: number; sha256: string; method: Method; latencyMs: number; tmp: string };
  const s3 = new S3BlobStore({ bucket: BUCKET, region: 'us-east-1', endpoint: env.endpoint, forcePathStyle: true, prefix: '', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const count = { requests: 0, bytesAsked: 0 };
  const blobs = metered(s3, env.latencyMs, env.size, count);
  const doc = { id: 'bench', blobKey: env.key, size: env.size, sha256: env.sha256 } as DocumentRecord;
  const started = performance.now();
  let remove = () => {};
  let archive: Buffer | ArchiveSource;
  if (env.method === 'whole') archive = await verifiedBytes(blobs, doc);
  else if (env.method === 'ranged') archive = await verifiedSource(blobs, doc);
  else ({ source: archive, remove } = await spooled(blobs, doc, env.tmp));
  const { members, close } = await expandZip(archive);
  let inflated = 0;
  for (const m of members) for await (const c of m.open()) inflated += (c as Buffer).length;
  close();
  remove();
  const ms = performance.now() - started;
  s3.close();
  const out: ChildResult = { ms, ...count, members: members.length, inflated, peakRss: procStatusBytes(process.pid, 'VmHWM') };
  process.stdout.write(JSON.stringify(out));
}

function runChild(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...process.execArgv, process.argv[1]!], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
    c.on('error', reject);
    c.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Text that deflates about 2:1 (hex of random bytes). */
const hexText = (bytes: number) => Buffer.from(randomBytes(Math.ceil(bytes / 2)).toString('hex').slice(0, bytes));

async function main(): Promise<void> {
  const started = new Date();
  const otherCpu = await waitForQuiet();
  const s3 = await startS3();
  onCleanUp(() => s3.stop());
  await s3.createBucket(BUCKET);
  const store = new S3BlobStore({ bucket: BUCKET, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, prefix: '', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  onCleanUp(() => store.close());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-read-'));
  onCleanUp(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const archives = [
    { name: '1000 × 4 KiB', zip: makeZip(Array.from({ length: 1000 }, (_, i) => ({ name: `small/m${i}.txt`, data: hexText(4096), deflate: true }))) },
    { name: '100 × 1 MiB', zip: makeZip(Array.from({ length: 100 }, (_, i) => ({ name: `large/m${i}.txt`, data: hexText(1024 * 1024), deflate: true }))) },
  ];
  const rows: string[][] = [['archive', 'size', 'method', 'added latency', 'time', 'requests', 'bytes asked', 'peak RSS']];
  const results: unknown[] = [];
  for (const a of archives) {
    const key = `archives/${a.name.replace(/\W+/g, '-')}.zip`;
    const staged = await store.stage(Readable.from([a.zip]), { maxBytes: Number.MAX_SAFE_INTEGER });
    await store.commit(staged.tempKey, key);
    for (const latencyMs of [0, LATENCY_MS]) {
      for (const method of METHODS) {
        const spec = { endpoint: s3.endpoint, key, size: a.zip.length, sha256: staged.sha256, method, latencyMs, tmp };
        // Not spawnSync: moto's log is piped to this process, which must keep reading it.
        const r = await runChild({ ...process.env, BENCH_ZIP_CHILD: JSON.stringify(spec) });
        if (r.status !== 0) throw new Error(`${method} failed: ${r.stderr}`);
        const c = JSON.parse(r.stdout) as ChildResult;
        results.push({ archive: a.name, archiveBytes: a.zip.length, method, latencyMs, ...c });
        rows.push([a.name, fmtMiB(a.zip.length), method, `${latencyMs} ms`, `${(c.ms / 1000).toFixed(2)} s`, String(c.requests), fmtMiB(c.bytesAsked), fmtMiB(c.peakRss)]);
      }
    }
  }
  printTable(rows, new Set([1, 4, 5, 6, 7]));
  console.log(`other cpu: ${otherCpu.toFixed(2)} cores while waiting`);
  writeResults('zip-read', started, { machine: machine(), git: gitState(), latencyMs: LATENCY_MS, results });
}

if (process.env.BENCH_ZIP_CHILD) {
  await child();
} else {
  try {
    await main();
  } finally {
    await cleanUp();
  }
}
