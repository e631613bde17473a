/**
 * Values read by the point lookups, kept until the next invalidation (and at most `maxAgeMs`),
 * within a budget of estimated bytes. Eviction is second-chance (CLOCK): a hit only marks its entry;
 * moving it to the end of a large Map on every hit cost more than the lookup itself (measured).
 */
export class KeptRows {
  private readonly entries = new Map<string, { value: object; bytes: number; used: boolean; keptAt: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxAgeMs = Infinity,
  ) {}

  get(key: string): object | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.maxAgeMs !== Infinity && performance.now() - hit.keptAt > this.maxAgeMs) {
      this.entries.delete(key);
      this.bytes -= hit.bytes;
      return undefined;
    }
    hit.used = true;
    return hit.value;
  }

  /** Keeps `value` under `key`, its size estimated from the database `row` it was made of. */
  set(key: string, row: object, value: object): void {
    if (this.maxBytes <= 0 || this.maxAgeMs <= 0) return;
    let bytes = key.length * 2 + 64;
    for (const v of Object.values(row)) bytes += typeof v === 'string' ? v.length * 2 + 24 : 32;
    if (bytes > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.bytes;
    this.entries.set(key, { value, bytes, used: false, keptAt: this.maxAgeMs === Infinity ? 0 : performance.now() });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used) {
        entry.used = false;
        this.entries.set(oldest, entry);
      } else {
        this.bytes -= entry.bytes;
      }
    }
  }

  clear(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Freezes a value to be kept and everything it holds: kept values are shared by every later read, so
 * a caller changing one (even a nested array) must fail loudly instead of changing it for all.
 */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
