import { execFile, spawn } from 'node:child_process';
import { withDeadline } from '../../child-deadline.js';
import { trackChild } from '../../child-processes.js';
import { toolEnvironment } from '../../../runtime/tool-env.js';

/**
 * The environment the `tesseract` command runs with: the allow-list every external program gets
 * (`runtime/tool-env.ts`, no secret of the server) and `TESSDATA_PREFIX`, where an operator may keep
 * its language data; `set` on top.
 */
export function tesseractEnvironment(set: Record<string, string> = {}, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return toolEnvironment({ names: ['TESSDATA_PREFIX'], set }, env);
}

let installed: Promise<string[] | null> | undefined;

/** The languages the `tesseract` command has data for, or null when it is not on PATH (asked once per thread). */
export function cliLanguages(): Promise<string[] | null> {
  installed ??= new Promise((resolve) => {
    const child = execFile('tesseract', ['--list-langs'], { timeout: 10_000, env: tesseractEnvironment() }, (err, stdout) => {
      // The first line says where the data is ("List of available languages in …"), one code a line after it.
      resolve(err ? null : stdout.split('\n').slice(1).map((l) => l.trim()).filter(Boolean));
    });
    trackChild(child);
  });
  return installed;
}

/** The `tesseract` command is on PATH with data for each of `languages` (`eng+deu`). */
export async function hasTesseractCli(languages = 'eng'): Promise<boolean> {
  const have = await cliLanguages();
  return have !== null && languages.split('+').every((l) => have.includes(l));
}

/**
 * Tesseract's TSV for a page image at `dpi` (the PNG goes through stdin) read in `languages`
 * (`eng+deu`), or undefined when the command takes longer than `budgetMs` (it is killed).
 */
export function recognizeWithCli(png: Buffer, dpi: number, budgetMs: number, languages = 'eng'): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    // The OS deadline (a little later than the timer below) also holds when this thread is terminated.
    const [command, args] = withDeadline('tesseract', ['-', '-', '-l', languages, '--oem', '1', '--psm', '3', '--dpi', String(dpi), 'tsv'], budgetMs + 2_000);
    const child = spawn(command, args, {
      // One document per core is already reading: OpenMP threads on top would only contend.
      env: tesseractEnvironment({ OMP_THREAD_LIMIT: '1' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    trackChild(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, Math.max(0, budgetMs));
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve(undefined);
      else if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`tesseract exited with code ${code}: ${Buffer.concat(err).toString('utf8').trim()}`));
    });
    // A killed child closes stdin early: the write error is the timeout's, already handled.
    child.stdin.on('error', () => {});
    child.stdin.end(png);
  });
}
