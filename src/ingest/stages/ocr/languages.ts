import { ConfigError } from '../../../runtime/config.js';
import type { OcrEngine } from '../ocr.js';
import { cliLanguages } from './tesseract-cli.js';
import { missingBundledLanguages } from './tesseract-js.js';

/**
 * The engine that will read scanned pages in `languages` (QUIRE_OCR_LANGUAGES, `eng+deu`): the
 * tesseract command when it is on PATH, else the bundled tesseract.js. A language that engine has no
 * data for stops start-up (a ConfigError saying what to install), rather than failing every scan.
 */
export async function ocrEngineFor(languages: string): Promise<OcrEngine> {
  const codes = languages.split('+');
  const installed = await cliLanguages();
  if (installed !== null) {
    const missing = codes.filter((code) => !installed.includes(code));
    if (missing.length) {
      const packages = missing.map((code) => `tesseract-ocr-${code.replace(/_/g, '-')}`).join(' ');
      throw new ConfigError('QUIRE_OCR_LANGUAGES', `names ${missing.join(', ')}, which the tesseract command has no data for (it has ${installed.join(', ')}; on Debian: apt-get install ${packages})`);
    }
    return 'tesseract-cli';
  }
  const missing = missingBundledLanguages(languages);
  if (missing.length) {
    const packages = missing.map((code) => `@tesseract.js-data/${code}`).join(' ');
    throw new ConfigError('QUIRE_OCR_LANGUAGES', `names ${missing.join(', ')}, which the bundled OCR engine has no data for (the tesseract command is not installed; npm install ${packages}, or install tesseract with its tesseract-ocr-* languages)`);
  }
  return 'tesseract.js';
}
