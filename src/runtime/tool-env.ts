/**
 * The environment an external program Quire runs (LibreOffice, tesseract, the start-up probes for
 * them) is started with: only what a program needs to find its executables, libraries, fonts,
 * locale and temporary folder, never the server's own settings (`DATABASE_URL`, `QUIRE_SECRET_KEY`,
 * `AWS_*`, any `*_FILE`…), which a document it reads must have no way to reach. An allow-list, so
 * that a secret added later is left out too.
 */
const ALLOWED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'TMPDIR',
  'LANG',
  'LANGUAGE',
  'TZ',
  'LD_LIBRARY_PATH',
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_HOME',
  'XDG_DATA_DIRS',
  'XDG_CACHE_HOME',
];

/** Locale categories (`LC_ALL`, `LC_CTYPE`…). */
const ALLOWED_PREFIXES = ['LC_'];

export interface ToolVariables {
  /** Further variables the program reads, passed on when set (tesseract's `TESSDATA_PREFIX`). */
  names?: readonly string[];
  /** Further prefixes passed on (LibreOffice's `SAL_`). */
  prefixes?: readonly string[];
  /** Set on top, whatever `env` holds. */
  set?: Record<string, string>;
}

/** `env` reduced to the allowed variables (and the program's own `names`, `prefixes`), with `set` on top. */
export function toolEnvironment(own: ToolVariables = {}, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const names = new Set([...ALLOWED, ...(own.names ?? [])]);
  const prefixes = [...ALLOWED_PREFIXES, ...(own.prefixes ?? [])];
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (names.has(name) || prefixes.some((p) => name.startsWith(p)))) out[name] = value;
  }
  return { ...out, ...own.set };
}
