/**
 * The environment LibreOffice (and the `unshare`, `timeout` and shell around it) is started with:
 * only what it needs to find its programs, libraries, fonts and locale, never the server's own
 * settings (`DATABASE_URL`, `QUIRE_SECRET_KEY`, `AWS_*`, any `*_FILE`…), which a document converted
 * by it must have no way to read. An allow-list, so that a secret added later is left out too.
 */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
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
]);

/** Locale categories (`LC_ALL`, `LC_CTYPE`…) and LibreOffice's own switches (`SAL_USE_VCLPLUGIN`…). */
const ALLOWED_PREFIXES = ['LC_', 'SAL_'];

/** `env` reduced to the allowed variables, with `extra` (TMPDIR, the watchdog's) set on top. */
export function officeEnvironment(extra: Record<string, string>, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (ALLOWED.has(name) || ALLOWED_PREFIXES.some((p) => name.startsWith(p)))) out[name] = value;
  }
  return { ...out, ...extra };
}
