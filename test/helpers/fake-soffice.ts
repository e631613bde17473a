/**
 * A stand-in `soffice` (a shell script) for tests that must run without LibreOffice or drive it into
 * failures. Quire starts LibreOffice with a scrubbed environment, so the script takes everything from
 * files in its folder, never from variables:
 *
 * - `soffice --convert-to X --outdir D input.ext` copies `pdf` to `D/input.pdf`;
 * - `soffice … --accept=pipe,name=N;urp; keep.txt` (a resident) creates the pipe LibreOffice opens
 *   when it has started (`/tmp/OSL_PIPE_<uid>_N`) and sleeps, as a running LibreOffice waits;
 * - every run records its arguments and its whole environment (`calls()`);
 * - the flags `fail` (every run fails, as on a file LibreOffice cannot load), `hang` (every run
 *   sleeps, its pid in `pidFile`) and `fail-start` (a resident exits at once) switch behaviours on.
 */
import fs from 'node:fs';
import path from 'node:path';

export type FakeFlag = 'fail' | 'hang' | 'fail-start';

export interface FakeCall {
  args: string[];
  env: Record<string, string>;
  /** The `-env:UserInstallation=` profile it was given. */
  profile: string | undefined;
  resident: boolean;
}

export interface FakeSoffice {
  /** The folder holding `soffice` (put it first on PATH). */
  bin: string;
  soffice: string;
  pidFile: string;
  /** Every run so far, in the order they started. */
  calls(): FakeCall[];
  clearCalls(): void;
  flag(name: FakeFlag, on: boolean): void;
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function fakeSoffice(dir: string, pdf: string): FakeSoffice {
  const bin = path.join(dir, 'bin');
  const calls = path.join(dir, 'calls');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(calls, { recursive: true });
  const soffice = path.join(bin, 'soffice');
  const pidFile = path.join(dir, 'soffice.pid');
  fs.writeFileSync(
    soffice,
    `#!/bin/sh
D=${sh(dir)}
n="$D/calls/$(date +%s%N)-$$"
printf '%s\\n' "$@" > "$n.args"
env -0 > "$n.env"
outdir=""; input=""; accept=""
while [ $# -gt 0 ]; do
  case "$1" in
    --outdir) outdir="$2"; shift ;;
    --convert-to) shift ;;
    --accept=pipe,name=*) accept="\${1#--accept=pipe,name=}"; accept="\${accept%%;*}" ;;
    -*) ;;
    *) input="$1" ;;
  esac
  shift
done
if [ -e "$D/hang" ]; then echo $$ > ${sh(pidFile)}; exec sleep 60; fi
if [ -e "$D/fail" ]; then echo "Error: source file could not be loaded" >&2; exit 1; fi
if [ -n "$accept" ]; then
  if [ -e "$D/fail-start" ]; then echo "could not start" >&2; exit 1; fi
  : > "/tmp/OSL_PIPE_$(id -u)_$accept"
  exec sleep 600
fi
if [ -z "$outdir" ]; then echo "Error: nothing to convert" >&2; exit 1; fi
mkdir -p "$outdir"
base=$(basename "$input")
cp ${sh(pdf)} "$outdir/\${base%.*}.pdf"
`,
    { mode: 0o755 },
  );
  return {
    bin,
    soffice,
    pidFile,
    calls: () =>
      fs
        .readdirSync(calls)
        .filter((f) => f.endsWith('.args'))
        .sort()
        .map((f) => {
          const args = fs.readFileSync(path.join(calls, f), 'utf8').replace(/\n$/, '').split('\n');
          const envFile = path.join(calls, f.replace(/\.args$/, '.env'));
          const env = Object.fromEntries(
            (fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : '')
              .split('\0')
              .filter(Boolean)
              .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
          );
          const profile = args.find((a) => a.startsWith('-env:UserInstallation='))?.slice('-env:UserInstallation='.length);
          return { args, env, profile, resident: args.some((a) => a.startsWith('--accept=')) };
        }),
    clearCalls: () => {
      for (const f of fs.readdirSync(calls)) fs.rmSync(path.join(calls, f), { force: true });
    },
    flag: (name, on) => {
      if (on) fs.writeFileSync(path.join(dir, name), '');
      else fs.rmSync(path.join(dir, name), { force: true });
    },
  };
}
