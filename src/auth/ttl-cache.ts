// A bounded map whose entries expire. Used to reuse verified credentials and account state for
// a few seconds instead of redoing crypto and queries on every request.
export class TtlCache<K, V> {
  private readonly map = new Map<K, { value: V; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: K, now: number = Date.now()): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= now) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: K, value: V, ttlMs: number, now: number = Date.now()): void {
    if (ttlMs <= 0) return;
    this.map.delete(key);
    // Map keeps insertion order, so the first key is the oldest: evicting it bounds memory
    // under a flood of distinct (possibly forged) credentials.
    if (this.map.size >= this.maxEntries) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, { value, expiresAt: now + ttlMs });
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  deleteWhere(pred: (value: V, key: K) => boolean): void {
    for (const [k, e] of this.map) if (pred(e.value, k)) this.map.delete(k);
  }

  clear(): void {
    this.map.clear();
  }
}
