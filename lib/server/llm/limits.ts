import "server-only";
// Admission control for calls to one endpoint: a concurrency limit and sliding one-minute windows for requests and
// tokens. Waiting is abortable; nothing here retries or sleeps without a reason it can name.

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** At most `limit` holders at once; waiters are served first come, first served. */
export class Semaphore {
  private active = 0;
  private readonly waiters: { resolve: () => void; reject: (reason: unknown) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a whole number ≥ 1 (got ${limit})`);
  }

  get inUse(): number {
    return this.active;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: (typeof this.waiters)[number] = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(signal.reason ?? new Error("aborted"));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      if (next.onAbort) next.signal?.removeEventListener("abort", next.onAbort);
      next.resolve();
    } else {
      this.active -= 1;
    }
  }
}

const WINDOW_MS = 60_000;

interface WindowEntry {
  at: number;
  tokens: number;
}

/** A granted admission; `settle` replaces the token estimate with what the call really used. */
export interface RateTicket {
  settle(actualTokens: number): void;
}

/**
 * Requests-per-minute and tokens-per-minute over a sliding 60-second window. A call is admitted when both fit; a
 * single call larger than the whole token budget is admitted into an empty window rather than waiting forever.
 */
export class RateWindow {
  private readonly entries: WindowEntry[] = [];

  constructor(
    private readonly requestsPerMinute: number | null,
    private readonly tokensPerMinute: number | null,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep,
  ) {}

  get unlimited(): boolean {
    return this.requestsPerMinute === null && this.tokensPerMinute === null;
  }

  private prune(at: number): void {
    while (this.entries.length && (this.entries[0] as WindowEntry).at <= at - WINDOW_MS) this.entries.shift();
  }

  private fits(tokens: number): boolean {
    if (this.requestsPerMinute !== null && this.entries.length >= this.requestsPerMinute) return false;
    if (this.tokensPerMinute !== null && this.entries.length > 0) {
      const used = this.entries.reduce((sum, entry) => sum + entry.tokens, 0);
      if (used + tokens > this.tokensPerMinute) return false;
    }
    return true;
  }

  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<RateTicket> {
    if (this.unlimited) return { settle: () => {} };
    for (;;) {
      const at = this.now();
      this.prune(at);
      if (this.fits(estimatedTokens)) {
        const entry: WindowEntry = { at, tokens: estimatedTokens };
        this.entries.push(entry);
        return {
          settle: (actual) => {
            entry.tokens = actual;
          },
        };
      }
      const oldest = this.entries[0] as WindowEntry;
      await this.sleep(Math.max(1, oldest.at + WINDOW_MS - at), signal);
    }
  }
}

/** A rough token count for admission (about four characters a token); actual usage settles it afterwards. */
export function estimateTokens(texts: readonly string[]): number {
  let chars = 0;
  for (const text of texts) chars += text.length;
  return Math.ceil(chars / 4);
}
