/**
 * The external programs Quire runs besides LibreOffice (tesseract reading a page, and the start-up
 * probes: `tesseract --list-langs`, `fc-list`, `unshare -rn true`) get the allow-listed environment
 * (src/runtime/tool-env.ts), never the server's secrets: stand-ins on PATH record the environment
 * they were given.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { optionalTools } from '../../src/app/optional-tools.js';
import { cliLanguages, recognizeWithCli } from '../../src/ingest/stages/ocr/tesseract-cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { SERVER_SECRETS } from '../helpers/server-secrets.js';

const TESSDATA = '/opt/tessdata-of-the-operator';

const dir = scratchDir('tool-env-');
const bin = path.join(dir, 'bin');
const dumps = path.join(dir, 'env');
fs.mkdirSync(bin);
fs.mkdirSync(dumps);

/** A stand-in that records its arguments and environment (`<name>-<pid>.env`, NUL-separated), then runs `body`. */
function standIn(name: string, body: string): void {
  const script = `#!/bin/sh\nenv -0 > '${dumps}/${name}-'$$.env\nprintf '%s\\n' "$@" > '${dumps}/${name}-'$$.args\n${body}\n`;
  fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
}
standIn(
  'tesseract',
  `if [ "$1" = "--list-langs" ]; then printf 'List of available languages in "%s/" (2):\\neng\\nosd\\n' "$TESSDATA_PREFIX"; exit 0; fi
cat > /dev/null
printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'`,
);
standIn('fc-list', `printf 'Liberation Serif\\nLiberation Sans\\n'`);
standIn('unshare', 'exit 0');
standIn('soffice', 'exit 0');

interface Run {
  tool: string;
  args: string[];
  env: Record<string, string>;
}

function runs(): Run[] {
  return fs
    .readdirSync(dumps)
    .filter((f) => f.endsWith('.env'))
    .map((f) => ({
      tool: f.replace(/-\d+\.env$/, ''),
      args: fs.readFileSync(path.join(dumps, f.replace(/\.env$/, '.args')), 'utf8').trim().split('\n'),
      env: Object.fromEntries(
        fs
          .readFileSync(path.join(dumps, f), 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      ),
    }));
}

const saved = { ...process.env };
before(() => {
  Object.assign(process.env, SERVER_SECRETS, { PATH: `${bin}${path.delimiter}${process.env.PATH}`, TESSDATA_PREFIX: TESSDATA, OMP_THREAD_LIMIT: '8', LANG: 'C.UTF-8' });
});
after(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function assertNoSecret({ tool, args, env }: Run) {
  const what = `${tool} ${args.join(' ')}`;
  assert.deepEqual(Object.keys(env).filter((k) => k in SERVER_SECRETS), [], `no secret variable in the environment of ${what}`);
  assert.deepEqual(Object.values(SERVER_SECRETS).filter((v) => Object.values(env).some((e) => e.includes(v))), [], `no secret value under another name for ${what}`);
  assert.equal(env.PATH, process.env.PATH, `${what} keeps PATH`);
  assert.equal(env.LANG, 'C.UTF-8', `${what} keeps the locale`);
}

test('the start-up probes run without the secrets; tesseract --list-langs sees TESSDATA_PREFIX', async () => {
  const reports = await optionalTools();
  const tesseract = reports.find((r) => r.tool === 'tesseract')!;
  assert.deepEqual([tesseract.found, tesseract.detail], [true, 'languages: eng, osd'], 'the stand-in answered');
  assert.deepEqual(await cliLanguages(), ['eng', 'osd']);
  assert.equal(reports.find((r) => r.tool === 'fonts')?.found, false, 'fc-list answered (without the Carlito family)');
  assert.equal(reports.find((r) => r.tool === 'network-isolation')?.found, true, 'unshare answered');
  const probes = runs();
  assert.deepEqual([...new Set(probes.map((r) => r.tool))].sort(), ['fc-list', 'tesseract', 'unshare']);
  for (const run of probes) assertNoSecret(run);
  const listing = probes.filter((r) => r.tool === 'tesseract');
  assert.equal(listing.length, 1, 'languages are asked once');
  assert.equal(listing[0]!.env.TESSDATA_PREFIX, TESSDATA);
  assert.equal(probes.find((r) => r.tool === 'fc-list')!.env.TESSDATA_PREFIX, undefined, "tesseract's own variable goes to tesseract only");
});

test('tesseract reading a page runs without the secrets, with TESSDATA_PREFIX and one OpenMP thread', async () => {
  const tsv = await recognizeWithCli(Buffer.from('not really a PNG'), 300, 10_000);
  assert.match(tsv ?? '', /^level\tpage_num/, 'the stand-in read the page');
  const [reading, ...more] = runs().filter((r) => r.tool === 'tesseract' && r.args[0] === '-');
  assert.ok(reading, 'tesseract ran');
  assert.deepEqual(more, []);
  assertNoSecret(reading);
  assert.equal(reading.env.TESSDATA_PREFIX, TESSDATA);
  assert.equal(reading.env.OMP_THREAD_LIMIT, '1');
});
