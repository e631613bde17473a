import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { IngestError } from '../../src/document/pages.js';
import { ThreadPool } from '../../src/ingest/thread-pool.js';

/** The processes whose parent is `ppid`, zombies included (a zombie keeps its /proc entry until it is reaped). */
function childrenOf(ppid: number): { pid: number; state: string; comm: string }[] {
  const out: { pid: number; state: string; comm: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(parent) === ppid) out.push({ pid: Number(entry), state: state!, comm });
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'a thread stopped over its time limit while a child process runs: the child is ended and reaped, no zombie is left',
  { skip: fs.existsSync('/proc/self/stat') ? false : 'needs /proc', timeout: 30_000 },
  async () => {
    const pool = new ThreadPool({ size: 1, timeoutMs: 800, memoryMb: 256, entry: new URL('./fixtures/child-sleep-reader.ts', import.meta.url) });
    try {
      const reading = pool.read(Buffer.from('text'), 'txt');
      // The child the thread started (`timeout`, or `sleep` itself where coreutils has no `timeout`) and what it runs.
      const started: number[] = [];
      const watching = (async () => {
        for (let i = 0; i < 200 && !started.length; i++) {
          for (const c of childrenOf(process.pid)) if (c.comm === 'timeout' || c.comm === 'sleep') started.push(c.pid, ...childrenOf(c.pid).map((g) => g.pid));
          await sleep(20);
        }
      })();
      await assert.rejects(reading, (e) => e instanceof IngestError && /time limit/.test(e.title));
      await watching;
      assert.ok(started.length > 0, 'the thread started its child process');
      // Well before the child's own 3 s OS deadline: gone, not even a zombie (a /proc entry in state Z).
      const until = performance.now() + 2_000;
      let left = started.filter((pid) => fs.existsSync(`/proc/${pid}`));
      while (left.length && performance.now() < until) {
        await sleep(50);
        left = started.filter((pid) => fs.existsSync(`/proc/${pid}`));
      }
      const states = left.map((pid) => `${pid}: ${fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0]}`);
      assert.deepEqual(states, [], 'the child processes are gone');
      // (Under tsx a thread running a .ts entry has an esbuild of its own, which its termination leaves a zombie: not Quire's.)
      assert.deepEqual(childrenOf(process.pid).filter((c) => c.state === 'Z' && c.comm !== 'esbuild'), [], 'no zombie child');
    } finally {
      await pool.close();
    }
  },
);
