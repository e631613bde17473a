import { DomainError } from './errors.js';

interface Waiter {
  go: () => void;
  timer: NodeJS.Timeout;
}

/**
 * At most `limit` of one workspace's page renders in flight at once in this process (0: no limit).
 * A render beyond it waits its turn, first come first served, for up to `waitMs`, then is refused
 * with a 503 and `retry-after`: a workspace's burst queues behind its own turns, so another
 * workspace's render waits for at most `limit` renders of each busy workspace.
 */
export class WorkspaceTurns {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {}

  /** Resolves with the function that ends this turn once the workspace has one. */
  enter(workspaceId: string): Promise<() => void> {
    if (this.limit <= 0) return Promise.resolve(() => {});
    const leave = this.leaver(workspaceId);
    if ((this.running.get(workspaceId) ?? 0) < this.limit) {
      this.running.set(workspaceId, (this.running.get(workspaceId) ?? 0) + 1);
      return Promise.resolve(leave);
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(workspaceId) ?? [];
      this.waiting.set(workspaceId, queue);
      const waiter: Waiter = {
        // The turn passes straight from the one leaving: `running` stays as it is.
        go: () => {
          clearTimeout(waiter.timer);
          resolve(leave);
        },
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          if (queue.length === 0) this.waiting.delete(workspaceId);
          reject(this.busy());
        }, this.waitMs),
      };
      queue.push(waiter);
    });
  }

  private leaver(workspaceId: string): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.get(workspaceId)?.shift();
      if (next) {
        if (this.waiting.get(workspaceId)!.length === 0) this.waiting.delete(workspaceId);
        next.go();
        return;
      }
      const n = (this.running.get(workspaceId) ?? 1) - 1;
      if (n > 0) this.running.set(workspaceId, n);
      else this.running.delete(workspaceId);
    };
  }

  private busy(): DomainError {
    const seconds = Math.max(1, Math.ceil(this.waitMs / 1000));
    return new DomainError(
      'unavailable',
      `This workspace has ${this.limit} page image(s) being drawn and more waiting (QUIRE_PAGE_RENDERS_PER_WORKSPACE); this one waited ${this.waitMs} ms for its turn. Retry in ${seconds} s.`,
      {},
      { 'retry-after': String(seconds) },
    );
  }
}
