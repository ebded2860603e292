// Per-key request limits for the HTTP API: a token bucket per key holding up to a minute's allowance, refilled
// continuously, so bursts up to the limit pass and a steady client gets the limit per minute. Pure (the clock is a
// parameter); the number of keys kept is bounded, forgetting the least recently seen first.

export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RequestBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 50_000,
  ) {
    if (!Number.isFinite(perMinute) || perMinute < 1) throw new RangeError("perMinute must be at least 1");
  }

  /** Spends one request of `key`'s allowance at time `now` (ms), or says how long until one is available. */
  take(key: string, now: number): TakeResult {
    const refillPerMs = this.perMinute / 60_000;
    const found = this.buckets.get(key);
    const bucket: Bucket = found
      ? { tokens: Math.min(this.perMinute, found.tokens + Math.max(0, now - found.updatedAt) * refillPerMs), updatedAt: now }
      : { tokens: this.perMinute, updatedAt: now };
    // Re-inserting keeps the map in order of last use, so the oldest key is the first one evicted.
    this.buckets.delete(key);
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    return { ok: true, remaining: Math.floor(bucket.tokens) };
  }

  get size(): number {
    return this.buckets.size;
  }
}
