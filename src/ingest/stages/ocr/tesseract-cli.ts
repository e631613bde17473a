import { execFile, spawn } from 'node:child_process';
import { withDeadline } from '../../child-deadline.js';

let available: Promise<boolean> | undefined;

/** The `tesseract` command is on PATH with English data (checked once per thread). */
export function hasTesseractCli(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    execFile('tesseract', ['--list-langs'], { timeout: 10_000 }, (err, stdout) => {
      resolve(!err && /^eng$/m.test(stdout));
    });
  });
  return available;
}

/**
 * Tesseract's TSV for a page image at `dpi` (the PNG goes through stdin), or undefined when the
 * command takes longer than `budgetMs` (it is killed).
 */
export function recognizeWithCli(png: Buffer, dpi: number, budgetMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    // The OS deadline (a little later than the timer below) also holds when this thread is terminated.
    const [command, args] = withDeadline('tesseract', ['-', '-', '-l', 'eng', '--oem', '1', '--psm', '3', '--dpi', String(dpi), 'tsv'], budgetMs + 2_000);
    const child = spawn(command, args, {
      // One document per core is already reading: OpenMP threads on top would only contend.
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
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
