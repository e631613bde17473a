import { execFile } from 'node:child_process';
import { findSoffice, networkIsolation } from '../ingest/readers/office/libreoffice.js';
import { cliLanguages } from '../ingest/stages/ocr/tesseract-cli.js';
import { toolEnvironment } from '../runtime/tool-env.js';

/** What one optional system tool changes, found or not: logged once when a process starts reading documents. */
export interface ToolReport {
  tool: 'libreoffice' | 'fonts' | 'tesseract' | 'network-isolation';
  found: boolean;
  detail?: string;
  effect: string;
  /** Logged as a warning: something the operator should fix. */
  warn?: boolean;
}

/** The fonts Word documents name most, by their metric-compatible stand-ins (Debian packages in the README). */
const WORD_FONTS = ['Liberation Serif', 'Liberation Sans', 'Liberation Sans Narrow', 'Liberation Mono', 'Carlito', 'Caladea'];

/** `command`'s output, or null when it is missing or fails; run without the server's secrets. */
function run(command: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000, env: toolEnvironment() }, (err, stdout) => resolve(err ? null : stdout));
  });
}

async function missingFonts(): Promise<string[] | null> {
  const families = await run('fc-list', [':', 'family']);
  if (families === null) return null;
  const have = new Set(families.split('\n').flatMap((l) => l.split(',').map((f) => f.trim())));
  return WORD_FONTS.filter((f) => !have.has(f));
}

export async function optionalTools(opts: { officeRequireIsolation?: boolean } = {}): Promise<ToolReport[]> {
  const soffice = findSoffice();
  const [fontsMissing, languages] = await Promise.all([soffice ? missingFonts() : Promise.resolve(null), cliLanguages()]);
  const reports: ToolReport[] = [];
  reports.push(
    soffice
      ? { tool: 'libreoffice', found: true, detail: soffice, effect: 'DOCX, DOC and HTML are paginated by LibreOffice, as Word would break their pages' }
      : { tool: 'libreoffice', found: false, effect: "DOCX, DOC and HTML are paginated by Quire's own layout: page breaks and page counts may differ from Word's" },
  );
  if (soffice) {
    reports.push(
      fontsMissing === null
        ? { tool: 'fonts', found: false, detail: 'fc-list not found', effect: "cannot tell whether Word's fonts have stand-ins: LibreOffice may substitute others and break pages differently" }
        : fontsMissing.length
          ? { tool: 'fonts', found: false, detail: `missing: ${fontsMissing.join(', ')}`, effect: 'LibreOffice substitutes other fonts for these: page breaks may differ from Word\'s (README lists the Debian packages)' }
          : { tool: 'fonts', found: true, detail: WORD_FONTS.join(', '), effect: "Word's common fonts have metric-compatible stand-ins" },
    );
    const isolation = networkIsolation();
    reports.push(
      isolation.available
        ? { tool: 'network-isolation', found: true, detail: 'unshare -rn', effect: 'LibreOffice converts documents without network access' }
        : {
            tool: 'network-isolation',
            found: false,
            detail: isolation.missing,
            effect: opts.officeRequireIsolation
              ? 'DOCX and DOC are refused (QUIRE_OFFICE_REQUIRE_ISOLATION): they end in Error; HTML is laid out by Quire'
              : "LibreOffice converts DOCX and DOC with the host's network: a document's external links could be fetched (HTML is laid out by Quire); set QUIRE_OFFICE_REQUIRE_ISOLATION=true to refuse them instead (docs/deploy.md)",
            warn: true,
          },
    );
  }
  // Start-up has checked that the engine used has every language of QUIRE_OCR_LANGUAGES (ocr/languages.ts).
  reports.push(
    languages !== null
      ? { tool: 'tesseract', found: true, detail: `languages: ${languages.join(', ')}`, effect: 'scanned pages are read by the tesseract command, with its tessdata_fast models (about 1.9x faster than the bundled engine)' }
      : { tool: 'tesseract', found: false, effect: "scanned pages are read by the bundled tesseract.js (same engine, npm's tessdata_best models, slower)" },
  );
  return reports;
}

type Log = (o: object, msg: string) => void;

/** One log line per optional tool; a warning for one the operator should fix. */
export async function logOptionalTools(logger: { info: Log; warn: Log }, opts: { officeRequireIsolation?: boolean } = {}): Promise<void> {
  for (const r of await optionalTools(opts)) {
    const msg = `${r.tool} ${r.found ? 'found' : 'not found'}: ${r.detail && r.warn ? `${r.detail}; ` : ''}${r.effect}`;
    (r.warn ? logger.warn : logger.info).call(logger, { tool: r.tool, found: r.found, ...(r.detail ? { detail: r.detail } : {}) }, msg);
  }
}
