import { toolEnvironment } from '../../../runtime/tool-env.js';

/**
 * The environment LibreOffice (and the `unshare`, `timeout` and shell around it) is started with:
 * the allow-list every external program gets (`runtime/tool-env.ts`) and LibreOffice's own switches
 * (`SAL_USE_VCLPLUGIN`…), with `extra` (TMPDIR, the watchdog's) set on top.
 */
export function officeEnvironment(extra: Record<string, string>, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return toolEnvironment({ prefixes: ['SAL_'], set: extra }, env);
}
