// Upload benchmark (bench/README.md): one 300 MB file via multipart (`POST /documents/content`) and
// via a chunked upload session (2 chunks in flight), MB/s against `dd` writing the same bytes, RSS
// growth of the server, and the SHA-256 of the stored content against the source.
//
//   npx tsx bench/upload/run.ts
//
// Quire runs as `serve --no-worker` (no ingestion during the measurement), a fresh server and data
// directory for each method. The source file and the data directories live under os.tmpdir() (the
// same filesystem as dd's output) and are removed at the end.
//
// Environment: BENCH_UPLOAD_BYTES (default 300,000,000: 300 MB, below the 300 MiB limit),
// BENCH_RUNS (runs of each method, default 2), BENCH_DD_RUNS (default 5), BENCH_IN_FLIGHT (chunks in flight, default 2),
// BENCH_QUIET_WAIT (s, default 180), BENCH_CLIENT (curl when installed, else node). Results also go to
// bench/results/upload-<timestamp>.json.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startQuire, type Quire } from '../../test/helpers/quire.js';
import { cpuSeconds, cpuWindow, envNumber, fmtMiB, gitState, machine, printTable, procStatusBytes, sampleRss, waitForQuiet, median } from '../lib/machine.js';
import { cleanUp, tempDir } from '../lib/cleanup.js';

const BYTES = Math.round(envNumber('BENCH_UPLOAD_BYTES', 300_000_000));
const RUNS = Math.max(1, Math.round(envNumber('BENCH_RUNS', 2)));
const IN_FLIGHT = Math.max(1, Math.round(envNumber('BENCH_IN_FLIGHT', 2)));
const DD_RUNS = Math.max(1, Math.round(envNumber('BENCH_DD_RUNS', 5)));
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const MB = 1e6;

const TARGET_RATIO = 0.3;
const TARGET_RSS_GROWTH = 150 * MB;

// ---------------------------------------------------------------------------------------------
// Clean-up (the source file is 300 MB): also on Ctrl-C.


// ---------------------------------------------------------------------------------------------

/**
 * Writes `bytes` of printable text (base64 of random bytes, 76 characters a line), so the file is
 * a valid .txt should anything read it. Returns its SHA-256.
 */
async function writeSource(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  try {
    let left = bytes;
    while (left > 0) {
      // 1 MiB-ish blocks: 57 random bytes give one 76-character base64 line plus '\n'.
      const lines: string[] = [];
      const raw = randomBytes(57 * 13_797);
      for (let i = 0; i < raw.length; i += 57) lines.push(raw.subarray(i, i + 57).toString('base64'));
      let block = Buffer.from(lines.join('\n') + '\n');
      if (block.length > left) block = block.subarray(0, left);
      fs.writeSync(fd, block);
      hash.update(block);
      left -= block.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function timeCommand(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve((performance.now() - t0) / 1000) : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

interface DdResult {
  fsync: boolean;
  seconds: number;
  mbPerSec: number;
  otherCpu: number;
}

/**
 * Writes back all dirty pages (`sync`) so a measurement does not pay for the writeback of the one
 * before it (or of the source file).
 */
function flushDirty(): void {
  spawnSync('sync');
}

async function ddOnce(src: string, dir: string, fsync: boolean): Promise<DdResult> {
  const out = path.join(dir, 'dd.out');
  flushDirty();
  await waitForQuiet();
  // dd is this process's reaped child.
  const children = () => cpuSeconds(process.pid, true) - cpuSeconds(process.pid);
  const c0 = children();
  const cpu = cpuWindow(() => []);
  const seconds = await timeCommand('dd', [`if=${src}`, `of=${out}`, 'bs=1M', ...(fsync ? ['conv=fsync'] : [])]);
  const c = cpu();
  const used = (children() - c0) / c.seconds;
  fs.rmSync(out, { force: true });
  return { fsync, seconds, mbPerSec: BYTES / MB / seconds, otherCpu: Math.max(0, c.other - used) };
}

// ---------------------------------------------------------------------------------------------
// HTTP with node:http, streaming from the file

interface HttpAnswer {
  status: number;
  body: string;
}

/**
 * The client. curl (when installed; BENCH_CLIENT=node forces the Node client) sends a whole file at close
 * to 3 GB/s here, while the Node client in this process tops out near 1.2 GB/s even into a server
 * that discards everything, which would cap every measure below it. The same client serves the
 * bare-server references and Quire, so their ratios stay like for like.
 */
const CLIENT: 'curl' | 'node' = process.env.BENCH_CLIENT === 'node' || spawnSync('curl', ['--version']).status !== 0 ? 'node' : 'curl';

/** A multipart/form-data body: text fields, then `file` streamed from `src` (bytes start..end-1). */
function sendMultipart(
  url: string,
  key: string,
  fields: Record<string, string>,
  file: { src: string; name: string; start: number; end: number },
  agent: http.Agent,
): Promise<HttpAnswer> {
  // A chunk is a slice of the file: the Node client over a keep-alive connection beats starting a
  // curl per chunk and feeding it through a pipe.
  const whole = file.start === 0 && file.end === fs.statSync(file.src).size;
  return CLIENT === 'curl' && whole ? curlMultipart(url, key, fields, file) : nodeMultipart(url, key, fields, file, agent);
}

/** curl -F with the whole file. */
function curlMultipart(url: string, key: string, fields: Record<string, string>, file: { src: string; name: string }): Promise<HttpAnswer> {
  const args = ['-sS', '-X', 'POST', '-H', `authorization: Bearer ${key}`, '-H', 'Expect:', '-w', '\n%{http_code}'];
  for (const [k, v] of Object.entries(fields)) args.push('-F', `${k}=${v}`);
  args.push('-F', `file=@${file.src};filename=${file.name};type=application/octet-stream`, url);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`curl exited with ${code}`));
      const nl = out.lastIndexOf('\n');
      resolve({ status: Number(out.slice(nl + 1)), body: out.slice(0, nl) });
    });
  });
}

function nodeMultipart(
  url: string,
  key: string,
  fields: Record<string, string>,
  file: { src: string; name: string; start: number; end: number },
  agent: http.Agent,
): Promise<HttpAnswer> {
  const boundary = `----quirebench${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + (file.end - file.start) + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file.src, { start: file.start, end: file.end - 1, highWaterMark: 1024 * 1024 });
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/**
 * The ceiling a Node.js server can reach here, measured in the same run with the same client: a bare
 * `node:http` server (no framework, no multipart parsing) that either discards the request body or
 * does the least an upload must (SHA-256 of every byte and a write to a file in the same directory).
 */
const BARE_SERVER = `
const http = require('node:http'), fs = require('node:fs'), crypto = require('node:crypto');
const [mode, out] = process.argv.slice(1);
http.createServer(async (req, res) => {
  const hash = crypto.createHash('sha256');
  const ws = mode === 'discard' ? null : fs.createWriteStream(out);
  for await (const chunk of req) {
    if (!ws) continue;
    hash.update(chunk);
    if (!ws.write(chunk)) await new Promise((r) => ws.once('drain', r));
  }
  if (ws) await new Promise((r) => ws.end(r));
  res.end(hash.digest('hex'));
}).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

type BareMode = 'discard' | 'hash+write';

async function bareRun(mode: BareMode, src: string, dir: string): Promise<{ mode: BareMode; seconds: number; mbPerSec: number; otherCpu: number }> {
  const out = path.join(dir, 'bare.out');
  const child = spawn(process.execPath, ['-e', BARE_SERVER, mode === 'discard' ? 'discard' : 'write', out], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
      child.once('exit', () => reject(new Error('the bare server exited')));
    });
    flushDirty();
    await waitForQuiet();
    const window = cpuWindow(() => [child.pid!]);
    const agent = new http.Agent({ keepAlive: true });
    const t0 = performance.now();
    const answer = await sendMultipart(`http://127.0.0.1:${port}/`, 'none', {}, { src, name: 'big.txt', start: 0, end: BYTES }, agent);
    const seconds = (performance.now() - t0) / 1000;
    agent.destroy();
    if (answer.status !== 200) throw new Error(`bare server answered ${answer.status}`);
    return { mode, seconds, mbPerSec: BYTES / MB / seconds, otherCpu: window().other };
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(out, { force: true });
  }
}

async function postJson(url: string, key: string, json: unknown): Promise<HttpAnswer> {
  const r = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
  return { status: r.status, body: await r.text() };
}

/** Streams GET url into SHA-256; returns the hex digest and the byte count. */
function downloadHash(url: string, key: string): Promise<{ sha256: string; bytes: number; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}` } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${url}: ${res.statusCode}`));
          res.resume();
          return;
        }
        const hash = createHash('sha256');
        let bytes = 0;
        res.on('data', (d: Buffer) => {
          hash.update(d);
          bytes += d.length;
        });
        res.on('end', () => resolve({ sha256: hash.digest('hex'), bytes, seconds: (performance.now() - t0) / 1000 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// One upload against a fresh server

type Method = 'multipart' | 'chunked';

interface UploadResult {
  method: Method;
  run: number;
  seconds: number;
  mbPerSec: number;
  /** Chunked only: the chunks, and finalize alone. */
  chunks?: number;
  chunkSize?: number;
  chunksSeconds?: number;
  finalizeSeconds?: number;
  baselineRssBytes: number;
  peakRssBytes: number;
  rssGrowthBytes: number;
  /** VmHWM at the end minus the baseline VmRSS (a cross-check of the 100 ms samples). */
  hwmGrowthBytes: number;
  serverCpu: number;
  otherCpu: number;
  documentId: string;
  sha256Stored: string;
  sha256Reported: string;
  sha256Match: boolean;
  downloadMbPerSec: number;
}

async function uploadRun(method: Method, run: number, src: string, sourceSha: string): Promise<UploadResult> {
  const dataDir = tempDir('quire-bench-upload-');
  const q: Quire = await startQuire({ dataDir, args: ['serve', '--no-worker'] });
  const pid = q.process.pid!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  try {
    flushDirty();
    await waitForQuiet();
    // Let start-up garbage settle; then the baseline.
    await new Promise((r) => setTimeout(r, 1000));
    const baselineRssBytes = procStatusBytes(pid, 'VmRSS');
    const rss = sampleRss(pid, 100, false);
    const cpu = cpuWindow(() => [pid]);
    const t0 = performance.now();
    let documentId: string;
    let sha256Reported: string;
    const extra: Partial<UploadResult> = {};
    if (method === 'multipart') {
      const r = await sendMultipart(`${q.api}/documents/content`, q.key, {}, { src, name: 'big.txt', start: 0, end: BYTES }, agent);
      if (r.status !== 201) throw new Error(`multipart upload: ${r.status} ${r.body.slice(0, 500)}`);
      ({ id: documentId, sha256: sha256Reported } = JSON.parse(r.body) as { id: string; sha256: string });
    } else {
      const s = await postJson(`${q.api}/documents/uploads/session`, q.key, { fileName: 'big.txt', fileSize: BYTES });
      if (s.status !== 201) throw new Error(`create session: ${s.status} ${s.body}`);
      const { sessionId, chunkSize } = JSON.parse(s.body) as { sessionId: string; chunkSize: number };
      const offsets: number[] = [];
      for (let o = 0; o < BYTES; o += chunkSize) offsets.push(o);
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < offsets.length) {
            const o = offsets[next++]!;
            const r = await sendMultipart(
              `${q.api}/documents/uploads/session/${sessionId}/chunk`,
              q.key,
              { byteOffset: String(o) },
              { src, name: 'big.txt', start: o, end: Math.min(BYTES, o + chunkSize) },
              agent,
            );
            if (r.status !== 200) throw new Error(`chunk at ${o}: ${r.status} ${r.body.slice(0, 500)}`);
          }
        }),
      );
      const tChunks = performance.now();
      const f = await postJson(`${q.api}/documents/uploads/session/${sessionId}/finalize`, q.key, undefined);
      if (f.status !== 201) throw new Error(`finalize: ${f.status} ${f.body.slice(0, 500)}`);
      ({ id: documentId, sha256: sha256Reported } = JSON.parse(f.body) as { id: string; sha256: string });
      extra.chunks = offsets.length;
      extra.chunkSize = chunkSize;
      extra.chunksSeconds = (tChunks - t0) / 1000;
      extra.finalizeSeconds = (performance.now() - tChunks) / 1000;
    }
    const seconds = (performance.now() - t0) / 1000;
    const c = cpu();
    const samples = rss.stop();
    const hwm = procStatusBytes(pid, 'VmHWM');
    const dl = await downloadHash(`${q.api}/documents/${documentId}/content`, q.key);
    if (dl.bytes !== BYTES) throw new Error(`downloaded ${dl.bytes} bytes, expected ${BYTES}`);
    const result: UploadResult = {
      method,
      run,
      seconds,
      mbPerSec: BYTES / MB / seconds,
      ...extra,
      baselineRssBytes,
      peakRssBytes: samples.peakProcess,
      rssGrowthBytes: samples.peakProcess - baselineRssBytes,
      hwmGrowthBytes: hwm - baselineRssBytes,
      serverCpu: c.server,
      otherCpu: c.other,
      documentId,
      sha256Stored: dl.sha256,
      sha256Reported,
      sha256Match: dl.sha256 === sourceSha,
      downloadMbPerSec: BYTES / MB / dl.seconds,
    };
    console.log(
      `  ${method} run ${run + 1}: ${seconds.toFixed(2)} s, ${result.mbPerSec.toFixed(0)} MB/s` +
        (method === 'chunked' ? ` (chunks ${extra.chunksSeconds!.toFixed(2)} s, finalize ${extra.finalizeSeconds!.toFixed(2)} s)` : '') +
        `, RSS ${fmtMiB(baselineRssBytes)} → peak ${fmtMiB(samples.peakProcess)} (+${(result.rssGrowthBytes / MB).toFixed(0)} MB; VmHWM +${(result.hwmGrowthBytes / MB).toFixed(0)} MB)` +
        `, sha256 ${result.sha256Match ? 'equal' : 'DIFFERENT'}, server cpu ${(100 * c.server).toFixed(0)}%, other cpu ${(100 * c.other).toFixed(0)}%`,
    );
    return result;
  } finally {
    agent.destroy();
    await q.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}


// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = new Date();
  const git = gitState();
  if (git) console.log(`measuring commit ${git.commit.slice(0, 12)}${git.srcDirty ? ' with uncommitted changes under src/' : ''}`);
  const work = tempDir('quire-bench-upload-src-');
  const src = path.join(work, 'big.txt');
  const tGen = performance.now();
  const sourceSha = await writeSource(src, BYTES);
  console.log(`source: ${(BYTES / MB).toFixed(0)} MB (${fmtMiB(BYTES)}) of printable text in ${((performance.now() - tGen) / 1000).toFixed(1)} s, sha256 ${sourceSha.slice(0, 16)}…, ${work}`);

  console.log(`== dd bs=1M (same file, same filesystem), ${DD_RUNS} runs each, without and with conv=fsync (after one warm-up)`);
  await ddOnce(src, work, false); // warm-up: the binary, the source in the page cache
  const dd: DdResult[] = [];
  for (let i = 0; i < DD_RUNS; i++) {
    for (const fsync of [false, true]) {
      const r = await ddOnce(src, work, fsync);
      dd.push(r);
      console.log(`  dd${fsync ? ' conv=fsync' : ''}: ${r.seconds.toFixed(2)} s, ${r.mbPerSec.toFixed(0)} MB/s, other cpu ${(100 * r.otherCpu).toFixed(0)}%`);
    }
  }
  const ddPlain = median(dd.filter((d) => !d.fsync).map((d) => d.mbPerSec));
  const ddFsync = median(dd.filter((d) => d.fsync).map((d) => d.mbPerSec));

  console.log(`client: ${CLIENT}`);
  console.log(`== bare node:http server, the same multipart upload, ${RUNS} runs each: body discarded, and SHA-256 + written to a file`);
  const bare: Awaited<ReturnType<typeof bareRun>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ['discard', 'hash+write'] as BareMode[]) {
      const r = await bareRun(mode, src, work);
      bare.push(r);
      console.log(`  ${mode}: ${r.seconds.toFixed(2)} s, ${r.mbPerSec.toFixed(0)} MB/s, other cpu ${(100 * r.otherCpu).toFixed(0)}%`);
    }
  }
  const bareMb = (mode: BareMode) => median(bare.filter((b) => b.mode === mode).map((b) => b.mbPerSec));

  console.log(`== Quire serve --no-worker (SQLite), a fresh server per upload, ${RUNS} runs of each method, ${IN_FLIGHT} chunks in flight`);
  const results: UploadResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const method of ['multipart', 'chunked'] as Method[]) results.push(await uploadRun(method, i, src, sourceSha));
  }

  const summary = (['multipart', 'chunked'] as Method[]).map((method) => {
    const rs = results.filter((r) => r.method === method);
    const mbPerSec = median(rs.map((r) => r.mbPerSec));
    const growth = Math.max(...rs.map((r) => Math.max(r.rssGrowthBytes, r.hwmGrowthBytes)));
    const shaOk = rs.every((r) => r.sha256Match && r.sha256Reported === sourceSha);
    return {
      method,
      mbPerSec,
      seconds: median(rs.map((r) => r.seconds)),
      ratio: mbPerSec / ddPlain,
      ratioFsync: mbPerSec / ddFsync,
      rssGrowthBytes: growth,
      shaOk,
      serverCpu: median(rs.map((r) => r.serverCpu)),
      otherCpu: Math.max(...rs.map((r) => r.otherCpu)),
      pass: { ratio: mbPerSec / ddPlain >= TARGET_RATIO, rss: growth <= TARGET_RSS_GROWTH, sha256: shaOk },
    };
  });

  console.log('');
  const rows: string[][] = [['measure', 'seconds', 'MB/s', 'vs dd', 'vs dd fsync', 'RSS growth', 'sha256', 'server cpu', 'other cpu', 'targets']];
  rows.push(['dd bs=1M', median(dd.filter((d) => !d.fsync).map((d) => d.seconds)).toFixed(2), ddPlain.toFixed(0), '1.00', (ddPlain / ddFsync).toFixed(2), '', '', '', `${(100 * Math.max(...dd.filter((d) => !d.fsync).map((d) => d.otherCpu))).toFixed(0)}%`, 'reference']);
  rows.push(['dd bs=1M conv=fsync', median(dd.filter((d) => d.fsync).map((d) => d.seconds)).toFixed(2), ddFsync.toFixed(0), (ddFsync / ddPlain).toFixed(2), '1.00', '', '', '', `${(100 * Math.max(...dd.filter((d) => d.fsync).map((d) => d.otherCpu))).toFixed(0)}%`, '']);
  for (const mode of ['discard', 'hash+write'] as BareMode[]) {
    const mb = bareMb(mode);
    rows.push([`bare node:http, ${mode === 'discard' ? 'body discarded' : 'SHA-256 + file'}`, (BYTES / MB / mb).toFixed(2), mb.toFixed(0), (mb / ddPlain).toFixed(2), (mb / ddFsync).toFixed(2), '', '', '', `${(100 * Math.max(...bare.filter((b) => b.mode === mode).map((b) => b.otherCpu))).toFixed(0)}%`, 'the ceiling of a Node server here']);
  }
  for (const s of summary) {
    rows.push([
      s.method === 'multipart' ? 'POST /documents/content (multipart)' : `chunked session (${IN_FLIGHT} in flight) + finalize`,
      s.seconds.toFixed(2),
      s.mbPerSec.toFixed(0),
      s.ratio.toFixed(2),
      s.ratioFsync.toFixed(2),
      `${(s.rssGrowthBytes / MB).toFixed(0)} MB`,
      s.shaOk ? 'equal' : 'DIFFERENT',
      `${(100 * s.serverCpu).toFixed(0)}%`,
      `${(100 * s.otherCpu).toFixed(0)}%`,
      `≥ ${TARGET_RATIO} of dd: ${s.pass.ratio ? 'PASS' : 'FAIL'}; RSS ≤ 150 MB: ${s.pass.rss ? 'PASS' : 'FAIL'}; sha256: ${s.pass.sha256 ? 'PASS' : 'FAIL'}`,
    ]);
  }
  printTable(rows, new Set([1, 2, 3, 4, 5, 7, 8]));
  for (const s of summary) console.log(`${s.method}: ${(s.mbPerSec / bareMb('hash+write')).toFixed(2)} of the bare server doing SHA-256 + file, ${(s.mbPerSec / bareMb('discard')).toFixed(2)} of it discarding the body`);
  console.log(`(MB = 10^6 bytes; medians of ${RUNS} runs (dd: ${DD_RUNS}); RSS growth is the largest of the runs, peak VmRSS sampled every 100 ms or VmHWM, minus VmRSS before the upload; the ratio target is against dd without fsync, as Quire does not fsync)`);

  const out = {
    date: started.toISOString(),
    command: 'npx tsx bench/upload/run.ts',
    git,
    machine: machine(),
    settings: { bytes: BYTES, runs: RUNS, ddRuns: DD_RUNS, inFlight: IN_FLIGHT, client: CLIENT, server: 'serve --no-worker, SQLite, fresh per upload', tmpdir: os.tmpdir() },
    targets: { ratioMin: TARGET_RATIO, ratioAgainst: 'dd bs=1M without fsync', rssGrowthMaxBytes: TARGET_RSS_GROWTH },
    sourceSha256: sourceSha,
    dd,
    ddMedianMbPerSec: { plain: ddPlain, fsync: ddFsync },
    bare,
    bareMedianMbPerSec: { discard: bareMb('discard'), hashWrite: bareMb('hash+write') },
    results,
    summary,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `upload-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nresults: ${path.relative(ROOT, file)}`);
  if ([...dd, ...results].some((r) => r.otherCpu > 0.15)) console.log('warning: other processes used more than 15% of a core during some measurements; see "other cpu"');
  console.log(summary.every((s) => s.pass.ratio && s.pass.rss && s.pass.sha256) ? 'targets: met' : 'targets: NOT MET (see FAIL above)');
}

main()
  .catch((err: unknown) => {
    console.error((err as Error)?.stack ?? String(err));
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
