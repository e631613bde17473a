/**
 * word-extractor (1.0.4, pinned) with Word's note reference marks kept. In a .doc's text an
 * automatically numbered footnote or endnote reference is the character 0x02, in the body where it is
 * referred to and at the start of the note itself; word-extractor's `clean` deletes it with Word's
 * other control characters, so the body would lose where its notes are referred to.
 *
 * `clean` is destructured by word-extractor's OLE reader when that module loads: the reader and the
 * class over it are loaded afresh here, after `clean` is wrapped to turn 0x02 into NOTE_MARK, which
 * it keeps. Whoever else loads word-extractor gets its own copy, unchanged.
 */
import { createRequire } from 'node:module';
import type WordExtractorClass from 'word-extractor';

/** Where a .doc has a note reference (a private-use character no text holds). */
export const NOTE_MARK = '\uE002';

const require = createRequire(import.meta.url);
const filters = require('word-extractor/lib/filters.js') as { clean: (text: string) => string };
const original = filters.clean;
const reader = require.resolve('word-extractor/lib/word-ole-extractor.js');
const entry = require.resolve('word-extractor');
const kept = [reader, entry].map((id) => [id, require.cache[id]] as const);
for (const [id] of kept) delete require.cache[id];
filters.clean = (text: string) => original(text.replaceAll('\x02', NOTE_MARK));
let loaded: typeof WordExtractorClass;
try {
  loaded = require('word-extractor') as typeof WordExtractorClass;
} finally {
  // Later loads of word-extractor (and of its filters) see the package as published.
  filters.clean = original;
  for (const [id, module] of kept) {
    if (module) require.cache[id] = module;
    else delete require.cache[id];
  }
}

export const WordExtractor = loaded;
