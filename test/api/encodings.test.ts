/**
 * Text encodings through the API: TXT and HTML files in legacy encodings, generated here, uploaded,
 * processed to `Ready`, and their text (`content?format=text`) and DGML read back for the exact text.
 * The files are encoded by inverting the platform's own decoder (Node's ICU), not the library Quire
 * decodes with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client } from '../helpers/http.js';
import { readDgml } from '../helpers/dgml-reader.js';

/** An encoder for `label` made by decoding every one- and two-byte sequence with the platform's TextDecoder. */
function encoderFor(label: string, twoByte = false): (text: string) => Buffer {
  const decoder = new TextDecoder(label, { fatal: true });
  const table = new Map<string, number[]>();
  const learn = (bytes: number[]) => {
    try {
      const ch = decoder.decode(Uint8Array.from(bytes));
      if ([...ch].length === 1 && !table.has(ch)) table.set(ch, bytes);
    } catch {
      // not a whole character in this encoding
    }
  };
  for (let a = 0; a < 256; a++) learn([a]);
  if (twoByte) for (let a = 0x81; a < 256; a++) for (let b = 0x40; b < 256; b++) learn([a, b]);
  return (text) =>
    Buffer.from(
      [...text].flatMap((ch) => {
        const bytes = table.get(ch);
        if (!bytes) throw new Error(`${label} has no ${ch}`);
        return bytes;
      }),
    );
}

const WESTERN = 'The “Tenant” pays €1,200 on the 1st – monthly — and ‘no’ later.';
const POLISH_CZECH = 'Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.';
const JAPANESE = '本契約は東京都で締結された。甲と乙は誠実に協議する。';

const html = (charset: string, body: string) => `<!DOCTYPE html>\n<html><head><meta charset="${charset}"><title>Terms</title></head>\n<body><h1>Terms</h1><p>${body}</p></body></html>\n`;
const httpEquiv = (charset: string, body: string) =>
  `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"><title>Terms</title></head><body><h1>Terms</h1><p>${body}</p></body></html>`;

const windows1252 = encoderFor('windows-1252');
const iso88592 = encoderFor('iso-8859-2');
const shiftJis = encoderFor('shift_jis', true);
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

const CASES: { name: string; bytes: Buffer; expected: string }[] = [
  { name: 'windows-1252.txt', bytes: windows1252(`Lease\n\n${WESTERN}\n`), expected: WESTERN },
  { name: 'utf-16le.txt', bytes: utf16le(`Lease\n\n${WESTERN} ${POLISH_CZECH}\n`), expected: `${WESTERN} ${POLISH_CZECH}` },
  { name: 'utf-16be.txt', bytes: utf16be(`Lease\n\n${POLISH_CZECH} ${JAPANESE}\n`), expected: `${POLISH_CZECH} ${JAPANESE}` },
  { name: 'windows-1252.html', bytes: windows1252(`<html><body><p>${WESTERN}</p></body></html>`), expected: WESTERN },
  { name: 'utf-16le.html', bytes: utf16le(html('utf-16', POLISH_CZECH)), expected: POLISH_CZECH },
  { name: 'iso-8859-2.html', bytes: iso88592(html('iso-8859-2', POLISH_CZECH)), expected: POLISH_CZECH },
  { name: 'iso-8859-2-http-equiv.html', bytes: iso88592(httpEquiv('ISO-8859-2', POLISH_CZECH)), expected: POLISH_CZECH },
  { name: 'shift_jis.html', bytes: shiftJis(html('Shift_JIS', JAPANESE)), expected: JAPANESE },
];

describe('text encodings of TXT and HTML uploads', () => {
  let q: Quire;
  let c: Client;
  const ids = new Map<string, string>();
  before(async () => {
    q = await startQuire();
    c = client(q.api, q.key);
    for (const f of CASES) {
      const up = await c.upload({ bytes: f.bytes, name: f.name });
      assertJson(up, 201);
      ids.set(f.name, up.json.id);
    }
    for (const [name, id] of ids) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const d = (await c.get(`/documents/${id}`)).json;
        if (d.status === 'Ready') break;
        assert.ok(d.status !== 'Error' && Date.now() < deadline, `${name}: ${JSON.stringify(d)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
  after(async () => {
    const code = await q?.stop();
    assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
  });

  test('the generated files really are in their encodings', () => {
    // Read as UTF-8 they do not give the text: the server cannot have read them right by luck.
    for (const f of CASES) assert.equal(new TextDecoder('utf-8').decode(f.bytes).includes(f.expected), false, f.name);
    assert.deepEqual([...windows1252('“”–—€')], [0x93, 0x94, 0x96, 0x97, 0x80]);
  });

  for (const f of CASES) {
    test(`${f.name}: its text and its DGML read back exactly`, async () => {
      const id = ids.get(f.name)!;
      const text = await c.get(`/documents/${id}/content?format=text`);
      assert.equal(text.status, 200);
      const lines = text.text.split('\n').map((l) => l.trim());
      assert.ok(lines.includes(f.expected), `${f.name}: ${JSON.stringify(text.text)}`);
      const dgml = await c.get(`/documents/${id}/dgml`);
      assert.equal(dgml.status, 200);
      const chunks = readDgml(dgml.text).chunks.map((ch) => ch.text.trim());
      assert.ok(
        chunks.some((t) => t.replace(/\s+/g, ' ').includes(f.expected)),
        `${f.name}: ${JSON.stringify(chunks)}`,
      );
    });
  }
});
