/**
 * The README's first screen, used as a newcomer would: its curl flow run by bash against a real
 * server started with the README's own key, and its Python snippets parsed by Python (run where
 * the Docugami SDK or LangChain's loader is installed; this machine's package index is not reachable).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CORPUS, ROOT, startQuire, type Quire } from '../helpers/quire.js';
import { client } from '../helpers/http.js';
import { scratchDir } from '../helpers/scratch.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const corpus = fs.existsSync(CORPUS) ? CORPUS : '/work/shared/corpus';
const PDF = path.join(corpus, 'kgrag/ntsb-aviation-incident-accident-reports/20080102X00002.pdf');

/** The fenced block right after `<!-- readme:NAME … -->`. */
function block(name: string): string {
  const m = new RegExp(`<!-- readme:${name}\\b[^>]*-->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  assert.ok(m, `README has a block marked readme:${name}`);
  return m[1]!;
}

/** The README's `export DOCUGAMI_BASE_URL=… DOCUGAMI_API_KEY=…` line, as variables. */
function exported(): Record<string, string> {
  const line = README.split('\n').find((l) => l.startsWith('export DOCUGAMI_BASE_URL='));
  assert.ok(line, 'README exports DOCUGAMI_BASE_URL');
  return Object.fromEntries([...line.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

let q: Quire;
let dir: string;
const vars = exported();

before(async () => {
  // The key the README starts Quire with.
  const started = /QUIRE_BOOTSTRAP_KEY=(\S+) npm start/.exec(README);
  assert.ok(started, 'README starts Quire with a bootstrap key');
  assert.equal(started[1], vars.DOCUGAMI_API_KEY, 'the clients get the key Quire was started with');
  q = await startQuire({ extraEnv: { QUIRE_BOOTSTRAP_KEY: started[1] } });
  dir = scratchDir('quire-readme-');
  fs.symlinkSync(PDF, path.join(dir, 'contract.pdf'));
});

after(async () => {
  await q?.stop();
  if (q) fs.rmSync(q.dataDir, { recursive: true, force: true });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('the curl flow uploads a file and prints its DGML, text and Markdown', async () => {
  // The README's base URL with this server's port instead of 8080.
  assert.equal(new URL(vars.DOCUGAMI_BASE_URL!).origin, 'http://127.0.0.1:8080');
  const base = vars.DOCUGAMI_BASE_URL!.replace('http://127.0.0.1:8080', q.origin);
  const r = await bash(block('curl'), { PATH: process.env.PATH, HOME: dir, DOCUGAMI_BASE_URL: base, DOCUGAMI_API_KEY: vars.DOCUGAMI_API_KEY });
  assert.equal(r.code, 0, r.stderr);
  const c = client(q.api, q.key);
  const docs = (await c.get('/documents')).json.documents;
  assert.equal(docs.length, 1);
  assert.equal(docs[0].status, 'Ready');
  const id = docs[0].id as string;
  const dgml = (await c.get(`/documents/${id}/dgml`)).text;
  const text = (await c.get(`/documents/${id}/content?format=text`)).text;
  const markdown = (await c.get(`/documents/${id}/content?format=markdown`)).text;
  // The three outputs, in order, and nothing else.
  assert.equal(r.stdout, dgml + text + markdown);
  assert.match(dgml, /^\uFEFF?<\?xml/);
  assert.match(text, /\w{4,}/);
});

test('the Python snippets are valid Python; each runs against the server where its package is installed', async (t) => {
  const base = vars.DOCUGAMI_BASE_URL!.replace('http://127.0.0.1:8080', q.origin);
  const env = { PATH: process.env.PATH, HOME: dir, DOCUGAMI_BASE_URL: base, DOCUGAMI_API_KEY: vars.DOCUGAMI_API_KEY };
  const c = client(q.api, q.key);
  for (const [name, module] of [['python-sdk', 'docugami'], ['langchain', 'langchain_community.document_loaders']] as const) {
    let code = block(name);
    assert.match(code, /DOCUGAMI_(BASE_URL|API_KEY)/, `${name} takes the URL and key from the environment`);
    const parsed = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: code });
    assert.ifError(parsed.error);
    assert.equal(parsed.status, 0, `${name}: ${parsed.stderr}`);
    if (spawnSync('python3', ['-c', `import ${module}`]).status !== 0) {
      t.diagnostic(`${module} is not installed here: ${name} parsed, not run`);
      continue;
    }
    if (name === 'langchain') {
      // The docset the SDK snippet made, once its document is Ready.
      const docset = (await c.get('/docsets?name=contracts')).json.docsets[0];
      assert.ok(docset, 'the SDK snippet made the docset');
      code = code.replace('DOCSET-ID', docset.id);
      for (let i = 0; i < 120; i++) {
        const listed = (await c.get(`/docsets/${docset.id}/documents`)).json.documents;
        if (listed.length && listed.every((d: { status: string }) => d.status === 'Ready')) break;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const ran = spawnSync('python3', ['-c', code], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(ran.status, 0, `${name}: ${ran.stderr}`);
    assert.match(ran.stdout, /\S/, `${name} printed something`);
  }
});
