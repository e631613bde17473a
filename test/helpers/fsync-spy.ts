/**
 * Imported by a test before the code it watches (and loaded into every thread started after, by
 * `--import`): every fsync/fdatasync of this process, on any thread, appends the path of its file descriptor to
 * the file named by QUIRE_TEST_FSYNC_LOG, one line each, before the call. It records that the system
 * call was made, and in which order; it cannot tell whether the disk kept the bytes.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

const log = process.env.QUIRE_TEST_FSYNC_LOG;
const append = fs.appendFileSync;
const readlink = fs.readlinkSync;

function record(fd: number): void {
  if (!log) return;
  let target: string;
  try {
    target = readlink(`/proc/self/fd/${fd}`);
  } catch {
    target = `fd:${fd}`;
  }
  append(log, `${target}\n`);
}

for (const name of ['fsyncSync', 'fdatasyncSync'] as const) {
  const original = fs[name];
  fs[name] = (fd: number) => {
    record(fd);
    original(fd);
  };
}
for (const name of ['fsync', 'fdatasync'] as const) {
  const original = fs[name];
  fs[name] = ((fd: number, cb: fs.NoParamCallback) => {
    record(fd);
    original(fd, cb);
  }) as typeof original;
}
const handle = await fsp.open('/', 'r');
const FileHandle = Object.getPrototypeOf(handle) as { sync: () => Promise<void>; datasync: () => Promise<void> };
await handle.close();
for (const name of ['sync', 'datasync'] as const) {
  const original = FileHandle[name];
  FileHandle[name] = function (this: { fd: number }) {
    record(this.fd);
    return original.call(this);
  };
}
// Threads started from now on load this module before their own code (with tsx, to read it from
// source). Quire's thread entries under tsx are evaluated code (runtime/thread-entry.ts), which
// `--import` does not reach: that code is wrapped instead.
const OriginalWorker = workerThreads.Worker;
const tsxApi = JSON.stringify(import.meta.resolve('tsx/esm/api'));
const self = JSON.stringify(import.meta.url);
workerThreads.Worker = class extends OriginalWorker {
  constructor(file: string | URL, options: workerThreads.WorkerOptions = {}) {
    if (options.eval && typeof file === 'string') {
      super(`import(${tsxApi}).then((m) => m.register()).then(() => import(${self})).then(() => { ${file} });`, options);
    } else {
      super(file, { ...options, execArgv: [...(options.execArgv ?? process.execArgv), '--import', import.meta.url] });
    }
  }
};
syncBuiltinESMExports();
