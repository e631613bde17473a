import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { formatOfName, sniffFormat } from '../../src/model/formats.js';
import { CORPUS } from '../helpers/quire.js';

test('extensions: allowed ones (any case), none, and refused ones', () => {
  assert.equal(formatOfName('a.PDF')?.ext, 'pdf');
  assert.equal(formatOfName('dir/x.docx')?.ext, 'docx');
  assert.equal(formatOfName('page.htm')?.ext, 'html');
  assert.equal(formatOfName('upload'), null);
  assert.equal(formatOfName('.bashrc'), null);
  assert.equal(formatOfName('x.exe'), undefined);
});

test('nameless content is typed from its first bytes (real corpus files)', () => {
  const head = (p: string) => fs.readFileSync(path.join(CORPUS, p)).subarray(0, 4096);
  assert.equal(sniffFormat(head('reference-dgml/Jane Doe NDA.pdf'))?.ext, 'pdf');
  assert.equal(sniffFormat(head('office/NDA simple layout.docx'))?.ext, 'docx');
  assert.equal(sniffFormat(Buffer.from('<!DOCTYPE html><html>'))?.ext, 'html');
  assert.equal(sniffFormat(Buffer.from('plain words'))?.ext, 'txt');
  assert.equal(sniffFormat(Buffer.from('\ufeffhi', 'utf16le'))?.ext, 'txt');
  assert.equal(sniffFormat(Buffer.from('d0cf11e0a1b11ae1', 'hex'))?.ext, 'doc');
  assert.equal(sniffFormat(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0])), undefined);
});
