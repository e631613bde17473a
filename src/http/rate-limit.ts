/**
 * Requests per API key: a token bucket per key holding up to a minute's allowance and refilled
 * continuously. Kept in this process: behind a load balancer each API process allows the limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(private readonly perMinute: number) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one request's token; returns 0 when allowed, else the seconds until one is available. */
  take(key: string, now = Date.now()): number {
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }
}
