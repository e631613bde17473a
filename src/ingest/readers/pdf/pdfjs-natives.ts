/*
 * pdf.js's legacy build bundles core-js, which replaces Array.prototype.push, JSON.parse and
 * JSON.stringify with JavaScript versions when it judges the engine's own wanting (on Node 20 it
 * does, for edge cases such as a non-writable array length that no code here relies on). Those
 * versions are several times slower, and they are global: every push of the thread, pdf.js's own
 * and the layout stages', paid for them (about a sixth of a page's analysis time, measured). This
 * module keeps the engine's own versions; it must be evaluated before pdf.js (`pdfjs.ts` imports it
 * first), and `restoreNatives` puts them back once pdf.js and its worker are loaded.
 */
const push = Array.prototype.push;
const parse = JSON.parse;
const stringify = JSON.stringify;

export function restoreNatives(): void {
  if (Array.prototype.push !== push) Object.defineProperty(Array.prototype, 'push', { value: push, writable: true, configurable: true, enumerable: false });
  if (JSON.parse !== parse) Object.defineProperty(JSON, 'parse', { value: parse, writable: true, configurable: true, enumerable: false });
  if (JSON.stringify !== stringify) Object.defineProperty(JSON, 'stringify', { value: stringify, writable: true, configurable: true, enumerable: false });
}
