import { invalid } from '../../domain/errors.js';

const ALPHABET = /[^A-Za-z0-9+/=_-]/;
const WHITESPACE = /[ \t\r\n]/g;

/**
 * Incremental base64 decoder for content that arrives in pieces: standard or URL-safe alphabet,
 * padding optional, line breaks and spaces ignored (MIME). Anything else is a 400 naming the field
 * and the position. Holds at most three characters between pieces.
 */
export class Base64Decoder {
  private pending = '';
  private position = 0;
  private padding = 0;
  private dataChars = 0;

  constructor(private readonly fieldName: string) {}

  push(text: string): Buffer {
    const clean = text.replace(WHITESPACE, '');
    const bad = ALPHABET.exec(clean);
    if (bad) this.fail(`contains "${bad[0]}", which is not a base64 character`, this.position + bad.index);
    let data = clean;
    if (this.padding > 0) {
      const extra = clean.search(/[^=]/);
      if (extra !== -1) this.fail('has data after its "=" padding', this.position + extra);
      this.padding += clean.length;
      data = '';
    } else {
      const eq = clean.indexOf('=');
      if (eq !== -1) {
        const extra = clean.slice(eq).search(/[^=]/);
        if (extra !== -1) this.fail('has data after its "=" padding', this.position + eq + extra);
        this.padding = clean.length - eq;
        data = clean.slice(0, eq);
      }
    }
    data = data.replace(/-/g, '+').replace(/_/g, '/');
    this.position += clean.length;
    this.dataChars += data.length;
    const all = this.pending + data;
    const whole = all.length - (all.length % 4);
    this.pending = all.slice(whole);
    return whole ? Buffer.from(all.slice(0, whole), 'base64') : Buffer.alloc(0);
  }

  end(): Buffer {
    if (this.padding > 2 || this.pending.length === 1 || (this.padding > 0 && (this.dataChars + this.padding) % 4 !== 0)) {
      this.fail('is not valid base64 (its length does not fit)', this.position);
    }
    const rest = this.pending ? Buffer.from(this.pending, 'base64') : Buffer.alloc(0);
    this.pending = '';
    return rest;
  }

  private fail(what: string, at: number): never {
    throw invalid(`body field "${this.fieldName}" ${what} (at character ${at + 1}).`);
  }
}
