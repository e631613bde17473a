/**
 * The prose finders' tokenizer is scanned by hand for speed; its tokens must be exactly those of the
 * expression it stands for, on real text (every line of the contract snippets) and on the odd cases.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tokenize } from '../../src/ingest/stages/properties/tokens.js';
import { CORPUS } from '../helpers/quire.js';

const TOKEN = /(?:\p{L}\.){2,}|[\p{L}\p{N}][\p{L}\p{N}'’&\/-]*\.?|[^\s\p{L}\p{N}]/gu;
const PERIOD_ABBREVIATION = /^(?:\p{L}\.)+$|^(?:inc|corp|co|ltd|mr|mrs|ms|dr|jr|sr|st)\.$/iu;

function byExpression(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    const start = m.index;
    if (t.length > 1 && t.endsWith('.') && !PERIOD_ABBREVIATION.test(t)) {
      out.push({ text: t.slice(0, -1), start, end: start + t.length - 1 }, { text: '.', start: start + t.length - 1, end: start + t.length });
    } else out.push({ text: t, start, end: start + t.length });
  }
  return out;
}

test('tokens as the expression gives them: contract snippets and odd characters', () => {
  const lines = ['csl-small-dev.csv', 'csl-large-dev.csv'].flatMap((f) => fs.readFileSync(path.join(CORPUS, 'contracts', f), 'utf8').split('\n'));
  lines.push(
    'Société Générale 𝐁𝐨𝐥𝐝, naïve café — U.S.A. N.A. e.g. Inc. ‘quoted’ 5½ ²³ x\u00a0y\u2003z 文字 ١٢٣ a\u0301b 😀 end.',
    "R&D/IT-ops O’Brien's 1,000.00. A.B.C.D. ... Mr. Smith, Jr. St. Louis co. Ltd.",
    '',
    '.',
    'a.b',
  );
  assert.ok(lines.length > 1000);
  for (const line of lines) assert.deepEqual(tokenize(line), byExpression(line), line);
});

test('a sentence stop is its own token; an abbreviation keeps its dot', () => {
  assert.deepEqual(
    tokenize('Paid to Acme Inc. by the U.S. Bank, N.A. today.').map((t) => t.text),
    ['Paid', 'to', 'Acme', 'Inc.', 'by', 'the', 'U.S.', 'Bank', ',', 'N.A.', 'today', '.'],
  );
});
