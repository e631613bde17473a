import { readFileSync } from 'node:fs';

/** Quire's version, from package.json (DGML's `cp:version`, the OpenAPI document). */
export const QUIRE_VERSION: string = (() => {
  // src/runtime/version.ts and dist/runtime/version.js both sit two levels below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
})();
