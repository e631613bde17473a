/**
 * The client commands of `quire` (src/cli/) against a real server process, run as a user runs them
 * (a child process with QUIRE_URL and QUIRE_API_KEY): a folder upload with --wait, its progress
 * lines and summary; a chunked upload killed mid-way and resumed with only the missing chunks; the
 * JSON of listings against the API; dgml, pages, props, projects + export; webhooks; error exits.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CORPUS, ROOT, freePort, runCli, startQuire, type CliResult, type Quire } from '../helpers/quire.js';
import { client, collectPages, until, type Client } from '../helpers/http.js';
import { scratchDir, scratchEnv } from '../helpers/scratch.js';

const corpus = fs.existsSync(CORPUS) ? CORPUS : '/work/shared/corpus';
const NTSB = ['20080102X00002.pdf', '20080108X00029.pdf'].map((f) => path.join(corpus, 'kgrag/ntsb-aviation-incident-accident-reports', f));
/** 440,124 bytes: 7 chunks of 64 KiB. */
const BIG = path.join(corpus, 'pdf/A - Package Proposal.pdf');
const CHUNK = 65536;

let q: Quire;
let c: Client;
let tmp: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(args, { ...env, ...extra });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const parsed = (r: CliResult): any => {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

/** Uploaded by the folder test: file name -> document id. */
const uploaded = new Map<string, string>();

before(async () => {
  q = await startQuire({ extraEnv: { QUIRE_UPLOAD_CHUNK_BYTES: String(CHUNK), QUIRE_PROJECT_DEBOUNCE_MS: '200', QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  c = client(q.api, q.key);
  tmp = scratchDir('quire-cli-client-');
  env = {
    ...scratchEnv(),
    PATH: process.env.PATH,
    HOME: tmp,
    QUIRE_URL: q.origin,
    QUIRE_API_KEY: q.key,
    QUIRE_CLI_STATE_DIR: path.join(tmp, 'state'),
  };
});

after(async () => {
  await q?.stop();
  if (q) fs.rmSync(q.dataDir, { recursive: true, force: true });
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('upload a folder with --wait: a line per file, every document Ready, a summary table, exit 0', async () => {
  const dir = path.join(tmp, 'batch');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.copyFileSync(NTSB[0]!, path.join(dir, path.basename(NTSB[0]!)));
  fs.copyFileSync(NTSB[1]!, path.join(dir, 'sub', path.basename(NTSB[1]!)));
  fs.writeFileSync(path.join(dir, 'sub', 'note.txt'), 'Quarterly note\n\nThe aircraft was inspected on 3 March 2024 by Jane Roe.\n');
  fs.writeFileSync(path.join(dir, '.hidden.txt'), 'skipped');
  fs.writeFileSync(path.join(dir, 'readme.md'), 'skipped: not a format the server takes');

  const r = await cli(['upload', dir, '--docset', 'cli-docs', '--metadata', 'batch=one', '--wait']);
  assert.equal(r.code, 0, r.stderr);
  // stderr is not a TTY here: plain lines, no escape sequences.
  assert.ok(!r.stderr.includes('\x1b['), r.stderr);
  assert.match(r.stderr, /^created docset cli-docs \(\w+\)$/m);
  for (const name of ['20080102X00002.pdf', '20080108X00029.pdf', 'note.txt']) {
    assert.match(r.stderr, new RegExp(`^uploaded batch/(sub/)?${name.replace('.', '\\.')} \\(.+\\) -> \\w+$`, 'm'));
    assert.match(r.stderr, new RegExp(`^Ready +batch/(sub/)?${name.replace('.', '\\.')} \\(\\w+, \\d+ pages?\\)$`, 'm'));
  }
  assert.match(r.stderr, /^3 file\(s\): 3 uploaded, 0 failed$/m);
  assert.doesNotMatch(r.stderr, /hidden|readme/);

  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /^file +document +status +pages +error$/);
  assert.equal(lines.length, 4, r.stdout);
  for (const line of lines.slice(1)) {
    const [file, id, status, pages] = line.split(/\s{2,}/);
    assert.equal(status, 'Ready', line);
    const doc = (await c.get(`/documents/${id}`)).json;
    assert.equal(doc.status, 'Ready');
    assert.equal(String(doc.pageCount), pages);
    assert.equal(doc.name, path.basename(file!));
    assert.match((await c.get(`/documents/${id}/metadata`)).text, /"batch"/);
    uploaded.set(doc.name, id!);
  }
  const docset = (await c.get(`/documents/${uploaded.get('note.txt')}`)).json.docset.id;
  assert.equal((await c.get(`/docsets/${docset}`)).json.name, 'cli-docs');
});

test('on a terminal (QUIRE_PROGRESS=bars) upload draws a bar per file and an overall bar', async () => {
  const file = path.join(tmp, 'bars.txt');
  fs.writeFileSync(file, 'A line to upload with bars.\n'.repeat(200));
  const r = await cli(['upload', file, '--docset', 'cli-docs', '--json'], { QUIRE_PROGRESS: 'bars' });
  assert.equal(r.code, 0, r.stderr);
  // --json: stdout is only the JSON summary, whatever is drawn on stderr.
  const [one] = JSON.parse(r.stdout);
  assert.equal(one.status, 'New');
  assert.equal(one.document.name, 'bars.txt');
  assert.equal((await c.get(`/documents/${one.document.id}`)).json.size, fs.statSync(file).size);
  assert.match(r.stderr, /\x1b\[\d+A\x1b\[J/, 'the live area is redrawn in place');
  assert.match(r.stderr, /total +\[#{24}\] 100% .*1\/1 files/);
  // A line logged while bars are drawn starts where the live area was cleared ("\x1b[2A\x1b[J"), if it was drawn by then.
  assert.match(r.stderr, /^(?:\x1b\[\d+A\x1b\[J)?uploaded .*bars\.txt/m);
});

/** A proxy in front of the server that counts chunk requests and can kill the client after N of them. */
function chunkProxy(target: string) {
  let forwarded = 0;
  let completed = 0;
  let killAfter = Infinity;
  /** Counts resets: a request held before one stops waiting (its client is gone). */
  let generation = 0;
  let victim: import('node:child_process').ChildProcess | null = null;
  const server = http.createServer((req, res) => {
    const isChunk = /\/chunk$/.test(req.url ?? '');
    if (isChunk && forwarded >= killAfter) {
      // Held, never forwarded: once the chunks already forwarded are stored, the client dies.
      const held = generation;
      void until('forwarded chunks stored', async () => (completed >= killAfter || generation !== held ? true : undefined), 30_000, 20).then(() => {
        if (generation === held) victim?.kill('SIGKILL');
      });
      return;
    }
    if (isChunk) forwarded++;
    const up = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode!, upRes.headers);
      upRes.pipe(res);
      upRes.on('end', () => isChunk && completed++);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return {
    server,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`))),
    killAfterChunks: (n: number, child: import('node:child_process').ChildProcess) => ((killAfter = n), (victim = child)),
    passThrough: () => (killAfter = Infinity),
    get forwarded() {
      return forwarded;
    },
    reset: () => ((forwarded = 0), (completed = 0), generation++),
  };
}

test('a chunked upload killed mid-way resumes: the second run sends only the missing chunks', async () => {
  const file = path.join(tmp, 'big', path.basename(BIG));
  fs.mkdirSync(path.dirname(file));
  fs.copyFileSync(BIG, file);
  const size = fs.statSync(file).size;
  const chunks = Math.ceil(size / CHUNK);
  assert.ok(chunks >= 5, `${chunks} chunks`);
  const proxy = chunkProxy(q.origin);
  const url = await proxy.listen();
  try {
    const args = ['upload', file, '--chunk-threshold', '64K', '--url', url];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args], { env, cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    proxy.killAfterChunks(3, child);
    assert.equal(await exited, 'SIGKILL', stderr);
    assert.match(stderr, new RegExp(`^uploading .+ in ${chunks} chunks of 64 KiB \\(session (\\w+)\\)$`, 'm'));
    const sessionId = /\(session (\w+)\)/.exec(stderr)![1]!;
    const state = (await c.get(`/documents/uploads/session/${sessionId}`)).json;
    assert.equal(state.status, 'in-progress');
    assert.equal(state.receivedOffsets.length, 3);
    assert.equal(fs.readdirSync(env.QUIRE_CLI_STATE_DIR!).length, 1, 'the session is remembered');

    proxy.passThrough();
    proxy.reset();
    const again = await cli(args);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, new RegExp(`^resuming .+: 3 of ${chunks} chunks already sent \\(session ${sessionId}\\)$`, 'm'));
    assert.equal(proxy.forwarded, chunks - 3, 'only the missing chunks were sent');
    const id = again.stdout.trim().split('\n')[1]!.split(/\s{2,}/)[1]!;
    const doc = (await c.get(`/documents/${id}`)).json;
    assert.equal(doc.size, size);
    assert.equal(doc.sha256, createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
    assert.equal(fs.readdirSync(env.QUIRE_CLI_STATE_DIR!).length, 0, 'the state is dropped once finalized');
    assert.equal((await c.get(`/documents/uploads/session/${sessionId}`)).json.status, 'finalized');
  } finally {
    proxy.server.closeAllConnections();
    proxy.server.close();
  }
});

test('docs ls --json is valid JSON matching the API, with filters and --all', async () => {
  // Documents uploaded without --wait by the tests before (bars.txt) settle first: one turning Ready
  // between the CLI's list and the API's would make them differ.
  await until('every document settled', async () => {
    const docs = (await collectPages(c, '/documents?limit=100', 'documents')).items as unknown as { status: string }[];
    return docs.every((d) => ['Ready', 'Error', 'OverQuota'].includes(d.status)) ? true : undefined;
  });
  const all = parsed(await cli(['docs', 'ls', '--all', '--json']));
  const api = (await collectPages(c, '/documents?limit=100', 'documents')).items;
  assert.deepEqual(all.map((d: { id: string }) => d.id).sort(), api.map((d) => d.id).sort());
  assert.deepEqual(all.find((d: { id: string }) => d.id === uploaded.get('note.txt')), (await c.get(`/documents/${uploaded.get('note.txt')}`)).json);

  const inDocset = parsed(await cli(['docs', 'ls', '--docset', 'cli-docs', '--status', 'Ready', '--min-pages', '2', '--json']));
  const docsetId = (await c.get(`/documents/${uploaded.get('note.txt')}`)).json.docset.id;
  const apiFiltered = (await c.get(`/documents?docset.id=${docsetId}&status=Ready&minPages=2&limit=100`)).json.documents;
  assert.deepEqual(inDocset.map((d: { id: string }) => d.id).sort(), apiFiltered.map((d: { id: string }) => d.id).sort());
  assert.ok(inDocset.length >= 2);

  const one = await cli(['docs', 'ls', '--limit', '1', '--json']);
  assert.equal(parsed(one).length, 1);
  assert.equal(one.stderr, '', 'nothing but JSON, and no note, under --json');
  const human = await cli(['docs', 'ls', '--prefix', '2008']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^id +name +status +pages +size +docset +created$/m);
  assert.equal(human.stdout.trim().split('\n').length, 3);
  assert.equal(parsed(await cli(['docs', 'get', uploaded.get('note.txt')!, '--json'])).id, uploaded.get('note.txt'));
  assert.equal(parsed(await cli(['docsets', 'ls', '--json'])).find((d: { name: string }) => d.name === 'cli-docs').id, docsetId);

  const made = parsed(await cli(['docsets', 'create', 'cli-scratch', '--json']));
  const renamed = await cli(['docsets', 'rename', 'cli-scratch', 'cli-scratch-2']);
  assert.equal(renamed.code, 0, renamed.stderr);
  assert.match(renamed.stdout, /renamed docset cli-scratch to cli-scratch-2/);
  assert.equal((await c.get(`/docsets/${made.id}`)).json.name, 'cli-scratch-2');
  const taken = await cli(['docsets', 'rename', made.id, 'cli-docs']);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /already exists/);
  assert.equal((await cli(['docsets', 'rm', made.id])).code, 0);
});

test('dgml --out writes the DGML; pages --out writes a PNG per page', async () => {
  const id = uploaded.get('20080102X00002.pdf')!;
  const out = path.join(tmp, 'doc.xml');
  const r = await cli(['dgml', id, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(fs.readFileSync(out), (await c.get(`/documents/${id}/dgml`)).buffer);
  const docsetId = (await c.get(`/documents/${id}`)).json.docset.id;
  const viaDocset = await cli(['dgml', id, '--docset', 'cli-docs']);
  assert.equal(viaDocset.code, 0, viaDocset.stderr);
  assert.equal(viaDocset.stdout, (await c.get(`/docsets/${docsetId}/documents/${id}/dgml`)).text);

  const dir = path.join(tmp, 'pages');
  const p = await cli(['pages', id, '--out', dir, '--dpi', '50', '--json']);
  const written = parsed(p);
  const pageCount = (await c.get(`/documents/${id}`)).json.pageCount;
  assert.equal(written.length, pageCount);
  const files = fs.readdirSync(dir).sort();
  assert.deepEqual(files, Array.from({ length: pageCount }, (_, i) => `page-${String(i + 1).padStart(3, '0')}.png`));
  for (const f of files) assert.deepEqual(fs.readFileSync(path.join(dir, f)).subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  assert.deepEqual(fs.readFileSync(path.join(dir, files[0]!)), (await c.get(`/documents/${id}/pages/1/content?dpi=50`)).buffer);
});

test('docs download writes the original bytes; text and text --markdown print what the API serves; ping names the workspace', async () => {
  const id = uploaded.get('20080102X00002.pdf')!;
  const out = path.join(tmp, 'original.pdf');
  const d = await cli(['docs', 'download', id, '--out', out, '--json']);
  const got = parsed(d);
  assert.equal(got.size, fs.statSync(NTSB[0]!).size);
  assert.deepEqual(fs.readFileSync(out), fs.readFileSync(NTSB[0]!));
  // Without --out: the document's own name in the current folder; `--out -` streams to stdout.
  const here = path.join(tmp, 'here');
  fs.mkdirSync(here);
  const named = await runCli(['docs', 'download', id], { ...env }, here);
  assert.equal(named.code, 0, named.stderr);
  assert.deepEqual(fs.readFileSync(path.join(here, '20080102X00002.pdf')), fs.readFileSync(NTSB[0]!));
  const piped = await cli(['docs', 'download', id, '--out', '-']);
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(Buffer.from(piped.stdout, 'latin1').length > 0, true);

  const text = await cli(['text', id]);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stdout, (await c.get(`/documents/${id}/content?format=text`)).text);
  assert.match(text.stdout, /\w{4,}/);
  const md = await cli(['text', id, '--markdown']);
  assert.equal(md.code, 0, md.stderr);
  assert.equal(md.stdout, (await c.get(`/documents/${id}/content?format=markdown`)).text);
  assert.notEqual(md.stdout, text.stdout);

  const ping = await cli(['ping', '--json']);
  const answer = parsed(ping);
  assert.equal(answer.url, q.origin);
  assert.equal(answer.workspace.id, (await c.get('/workspace')).json.id);
  const human = await cli(['ping']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^workspace: +\S+/m);
  const refused = await cli(['ping'], { QUIRE_API_KEY: 'qk_not-a-key-at-all' });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^quire: 401 Unauthorized/);
});

test('props set stores a manual value; props ls and get show it', async () => {
  const id = uploaded.get('20080102X00002.pdf')!;
  const r = await cli(['props', 'set', 'cli-docs', id, 'Reviewer Note', 'Checked & fine']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Reviewer Note = "Checked & fine" \(manual\)/);
  const docsetId = (await c.get(`/documents/${id}`)).json.docset.id;
  const values = (await c.get(`/docsets/${docsetId}/document-properties/${id}`)).json.properties;
  const v = values.find((x: { label: string }) => x.label === 'Reviewer Note');
  assert.equal(v.value, 'Checked & fine');
  assert.equal(v.source, 'manual');
  const ls = parsed(await cli(['props', 'ls', 'cli-docs', '--json']));
  assert.deepEqual(ls, (await c.get(`/docsets/${docsetId}/properties`)).json.properties);
  const got = parsed(await cli(['props', 'get', docsetId, id, '--json']));
  assert.equal(got.find((x: { label: string }) => x.label === 'Reviewer Note').value, 'Checked & fine');
});

test('projects create, then export --out writes every artifact of the version', async () => {
  const made = parsed(await cli(['projects', 'create', '--name', 'CLI report', '--type', 'TabularReport', '--docset', 'cli-docs', '--item', 'Reviewer Note', '--item', 'Accident Number', '--json']));
  assert.equal(made.type, 'TabularReport');
  assert.deepEqual(made.items.map((i: { label: string }) => i.label), ['Reviewer Note', 'Accident Number']);
  assert.equal(parsed(await cli(['projects', 'get', made.id, '--json'])).id, made.id);
  assert.ok(parsed(await cli(['projects', 'ls', '--json'])).some((p: { id: string }) => p.id === made.id));

  const dir = path.join(tmp, 'export');
  const r = await cli(['export', made.id, '--version', 'latest', '--out', dir, '--wait', '300', '--json']);
  const result = parsed(r);
  const version = result.version;
  assert.match(version, /^\d+$/);
  const artifacts = (await collectPages(c, `/projects/${made.id}/artifacts/${version}?limit=100`, 'artifacts')).items as unknown as {
    name: string;
    size: number;
    document: { id: string } | null;
    downloadUrl: string;
  }[];
  assert.ok(artifacts.some((a) => a.name === 'report.xlsx'));
  assert.ok(artifacts.filter((a) => a.name === 'report-values.xml').length >= 3, 'per-document artifacts');
  const expected = artifacts.map((a) => (a.document ? path.join(a.document.id, a.name) : a.name)).sort();
  const onDisk = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
  assert.deepEqual(onDisk, expected);
  for (const a of artifacts) {
    const file = path.join(dir, a.document ? a.document.id : '', a.name);
    assert.deepEqual(fs.readFileSync(file), (await c.get(a.downloadUrl)).buffer, a.name);
  }
  // The same version by number, as a table for people.
  const again = await cli(['export', made.id, '--version', version, '--out', path.join(tmp, 'export2')]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`exported version ${version}: ${artifacts.length} artifact\\(s\\)`));
});

test('webhooks create, ls, deliveries and rm', async () => {
  const made = parsed(await cli(['webhooks', 'create', 'http://127.0.0.1:9/hook', '--target', 'Documents', '--event', 'Documents.Delete', '--json']));
  assert.deepEqual(made.events, ['Documents.Delete']);
  // `url` is the webhook's own resource, `webhookUrl` the receiver; the tables show the receiver.
  assert.equal(made.url, `${q.api}/webhooks/${made.id}`);
  assert.equal(made.webhookUrl, 'http://127.0.0.1:9/hook');
  assert.ok(parsed(await cli(['webhooks', 'ls', '--json'])).some((h: { id: string }) => h.id === made.id));
  const table = await cli(['webhooks', 'ls']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout.split('\n').find((l) => l.includes(made.id)) ?? '', /http:\/\/127\.0\.0\.1:9\/hook/);
  const shown = await cli(['webhooks', 'get', made.id]);
  assert.match(shown.stdout, /receiver:\s+http:\/\/127\.0\.0\.1:9\/hook/);
  const short = await cli(['webhooks', 'create', 'http://127.0.0.1:9/short', '--target', 'Documents', '--secret', 's3cr3t-bars']);
  assert.equal(short.code, 0, short.stderr);
  assert.match(short.stdout, /-> http:\/\/127\.0\.0\.1:9\/short\)/);
  assert.ok(Array.isArray(parsed(await cli(['webhooks', 'deliveries', made.id, '--json']))));
  const rm = await cli(['webhooks', 'rm', made.id]);
  assert.equal(rm.code, 0, rm.stderr);
  assert.equal((await c.get(`/webhooks/${made.id}`)).status, 404);
});

test('errors: a server refusal is one line and exit 1; a usage error exit 2', async () => {
  const closed = await freePort();
  const cases: [string[], NodeJS.ProcessEnv, number, RegExp][] = [
    [['docs', 'ls'], { QUIRE_API_KEY: 'qk_not-a-key-at-all' }, 1, /^quire: 401 Unauthorized: .+\n$/],
    [['docs', 'get', 'nosuchdocument'], {}, 1, /^quire: 404 Not Found: .*nosuchdocument.*\n$/],
    [['dgml', 'nosuchdocument', '--out', path.join(tmp, 'x.xml')], {}, 1, /^quire: 404 Not Found: /],
    [['export', 'nosuchproject', '--out', path.join(tmp, 'x')], {}, 1, /^quire: 404 Not Found: /],
    [['docs', 'ls', '--docset', 'no such docset'], {}, 1, /^quire: no docset with the id or name "no such docset"\n$/],
    [['docs', 'ls'], { QUIRE_URL: `http://127.0.0.1:${closed}` }, 1, new RegExp(`^quire: cannot reach http://127\\.0\\.0\\.1:${closed}: ECONNREFUSED\n$`)],
    [['docs', 'ls', '--bogus'], {}, 2, /^quire: Unknown option '--bogus'/],
    [['docs'], {}, 2, /^quire: usage: quire docs ls/],
    [['upload'], {}, 2, /^quire: usage: quire upload PATH/],
    [['upload', path.join(tmp, 'does-not-exist')], {}, 2, /^quire: no such file or folder: /],
    [['pages', 'x'], {}, 2, /^quire: pages needs --out DIR\n$/],
    [['docs', 'ls', '--limit', 'many'], {}, 2, /^quire: --limit must be an integer/],
    [['docs', 'ls'], { QUIRE_API_KEY: '' }, 2, /^quire: no API key: set QUIRE_API_KEY or pass --key KEY\n$/],
  ];
  for (const [args, extra, code, pattern] of cases) {
    const r = await cli(args, extra);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
  // A failed upload is reported in the summary and the exit code.
  const bad = path.join(tmp, 'bad.txt');
  fs.writeFileSync(bad, '');
  const r = await cli(['upload', bad, path.join(tmp, 'bars.txt'), '--wait']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /bad\.txt +failed +400 Bad Request: /);
  assert.match(r.stdout, /bars\.txt +\w+ +Ready +\d+/);
  assert.match(r.stderr, /2 file\(s\): 1 uploaded, 1 failed/);
  const help = await runCli(['help'], { PATH: process.env.PATH });
  assert.match(help.stdout, /client commands/);
  assert.match((await runCli(['upload', '--help'], { PATH: process.env.PATH })).stdout, /^quire upload PATH…/);
});
