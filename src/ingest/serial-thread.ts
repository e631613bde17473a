import type { Worker } from 'node:worker_threads';

/** Why a request got no reply: its thread crashed, exited, or the request ran past its budget (the thread is then ended). */
export class ThreadFailure extends Error {
  constructor(
    readonly kind: 'error' | 'exit' | 'timeout',
    /** The thread's error message, its exit code, or the budget in seconds. */
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}

/**
 * One long-lived worker thread that serves one request at a time, in the order asked: each request has
 * a time budget; one over it, or a crash, ends the thread, and the next request starts a new one.
 */
export class SerialThread<Req, Reply extends { id: number }> {
  private current: Worker | undefined;
  private nextId = 1;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly start: () => Worker,
    private readonly timeoutMs: number,
  ) {}

  /** `message(id)` sent once the thread is free; resolves with the reply that carries `id`. */
  ask(message: (id: number) => { request: Req; transfer?: readonly ArrayBuffer[] }): Promise<Reply> {
    const run = this.chain.then(() => this.askNow(this.nextId++, message));
    this.chain = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.current?.terminate();
    this.current = undefined;
  }

  private thread(): Worker {
    if (!this.current) {
      const thread = this.start();
      thread.unref();
      thread.on('error', () => {});
      thread.on('exit', () => {
        if (this.current === thread) this.current = undefined;
      });
      this.current = thread;
    }
    return this.current;
  }

  private askNow(id: number, message: (id: number) => { request: Req; transfer?: readonly ArrayBuffer[] }): Promise<Reply> {
    const thread = this.thread();
    const { request, transfer } = message(id);
    return new Promise<Reply>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        fn();
      };
      const onMessage = (reply: Reply) => {
        if (reply.id === id) done(() => resolve(reply));
      };
      const onError = (err: Error) => done(() => reject(new ThreadFailure('error', err.message)));
      const onExit = (code: number) => done(() => reject(new ThreadFailure('exit', String(code))));
      const timer = setTimeout(() => {
        done(() => reject(new ThreadFailure('timeout', String(Math.round(this.timeoutMs / 1000)))));
        void thread.terminate();
      }, this.timeoutMs);
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      thread.postMessage(request, transfer ? [...transfer] : []);
    });
  }
}
