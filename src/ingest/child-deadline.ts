import fs from 'node:fs';
import path from 'node:path';

let timeoutBinary: string | null | undefined;

function findTimeout(): string | null {
  if (timeoutBinary !== undefined) return timeoutBinary;
  timeoutBinary = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'timeout');
    if (fs.existsSync(candidate)) {
      timeoutBinary = candidate;
      break;
    }
  }
  return timeoutBinary;
}

/**
 * The command and arguments to spawn so that the operating system kills it (and the processes it
 * started: coreutils `timeout` signals its whole process group) after `deadlineMs`, even when the
 * thread that spawned it, and with it the thread's own timer, is terminated first (a document over
 * its budget). Without `timeout` on PATH the command is returned as it is.
 */
export function withDeadline(command: string, args: string[], deadlineMs: number): [string, string[]] {
  const timeout = findTimeout();
  if (!timeout) return [command, args];
  const seconds = Math.max(1, Math.ceil(deadlineMs / 1000));
  return [timeout, ['-s', 'KILL', `${seconds}s`, command, ...args]];
}
