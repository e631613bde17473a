import { humanBytes } from './output.js';

/**
 * Progress on stderr. On a terminal: one bar per file in flight and an overall bar, redrawn in
 * place (at most every 100 ms); finished files become permanent lines above them. Elsewhere (CI
 * logs, pipes): only the permanent lines, one per event, nothing redrawn. `QUIRE_PROGRESS=bars` or
 * `plain` overrides the choice.
 */
export type ProgressMode = 'bars' | 'plain';

export function progressMode(env: NodeJS.ProcessEnv = process.env, stream: NodeJS.WriteStream = process.stderr): ProgressMode {
  if (env.QUIRE_PROGRESS === 'bars' || env.QUIRE_PROGRESS === 'plain') return env.QUIRE_PROGRESS;
  return stream.isTTY ? 'bars' : 'plain';
}

export interface Task {
  /** Bytes (or units) done of the total, and an optional short status after the bar. */
  update(done: number, status?: string, total?: number): void;
  /** Removes the bar (call `log` for a permanent line). */
  finish(): void;
}

const WIDTH = 24;

export function bar(done: number, total: number, width = WIDTH): string {
  const frac = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const full = Math.round(frac * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${String(Math.floor(frac * 100)).padStart(3)}%`;
}

function fit(label: string, width: number): string {
  return label.length <= width ? label.padEnd(width) : `…${label.slice(label.length - width + 1)}`;
}

export class Progress {
  private tasks = new Set<{ label: string; total: number; done: number; status: string; unit: 'bytes' | 'count' }>();
  private drawn = 0;
  private timer: NodeJS.Timeout | null = null;
  private overall: { label: string; done: number; total: number; unit: 'bytes' | 'count'; extra: string } | null = null;

  constructor(
    readonly mode: ProgressMode,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  /** A permanent line. */
  log(line: string): void {
    if (this.mode === 'plain') {
      this.out.write(`${line}\n`);
      return;
    }
    this.clear();
    this.out.write(`${line}\n`);
    this.draw();
  }

  task(label: string, total: number, unit: 'bytes' | 'count' = 'bytes'): Task {
    const t = { label, total, done: 0, status: '', unit };
    this.tasks.add(t);
    this.schedule();
    return {
      update: (done, status, total) => {
        t.done = done;
        if (total !== undefined) t.total = total;
        if (status !== undefined) t.status = status;
        this.schedule();
      },
      finish: () => {
        this.tasks.delete(t);
        this.schedule();
      },
    };
  }

  setOverall(label: string, done: number, total: number, unit: 'bytes' | 'count' = 'bytes', extra = ''): void {
    this.overall = { label, done, total, unit, extra };
    this.schedule();
  }

  /** Final redraw; the live area is removed. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.tasks.clear();
    if (this.mode === 'bars') {
      // The overall bar stays as the last line; the per-file bars go.
      this.clear();
      this.draw();
      this.drawn = 0;
    }
    this.overall = null;
  }

  private schedule(): void {
    if (this.mode === 'plain' || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.clear();
      this.draw();
    }, 100);
  }

  private clear(): void {
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    const cols = Math.max(60, this.out.columns || 100);
    const amount = (done: number, total: number, unit: 'bytes' | 'count') =>
      unit === 'bytes' ? `${humanBytes(done)}/${humanBytes(total)}` : `${done}/${total}`;
    const lines: string[] = [];
    const shown = [...this.tasks].slice(0, 8);
    for (const t of shown) {
      lines.push(`${fit(t.label, 28)} ${bar(t.done, t.total)} ${amount(t.done, t.total, t.unit)} ${t.status}`.slice(0, cols - 1).trimEnd());
    }
    if (this.tasks.size > shown.length) lines.push(`… and ${this.tasks.size - shown.length} more`);
    if (this.overall) {
      const o = this.overall;
      lines.push(`${fit(o.label, 28)} ${bar(o.done, o.total)} ${amount(o.done, o.total, o.unit)} ${o.extra}`.slice(0, cols - 1).trimEnd());
    }
    if (lines.length) this.out.write(`${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}
