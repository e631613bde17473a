import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { processAlive } from '../../runtime/process-alive.js';


/**
 * Claim tokens of one queue instance: `host:pid:instance:uuid`, so a restarted process can tell the
 * jobs its dead predecessor held from those of live processes.
 */
export class ClaimTokens {
  private readonly instance = randomUUID().slice(0, 8);
  private readonly worker = `${os.hostname()}:${process.pid}:${this.instance}`;

  next(): string {
    return `${this.worker}:${randomUUID()}`;
  }

  /**
   * Whether `token` was issued on this host by a process that is gone: its pid is not alive, or it is
   * this pid from an earlier life (as in a restarted container). Tokens of other hosts never are.
   */
  isFromGoneLocalProcess(token: string): boolean {
    const [host, pidText, instance] = token.split(':');
    const pid = Number(pidText);
    if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false;
    return pid === process.pid ? instance !== this.instance : !processAlive(pid);
  }
}
