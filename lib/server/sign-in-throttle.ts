import "server-only";
// Sign-in throttling per account and per client address: failures within a 15-minute window slow every further
// attempt (growing delays) and, from the tenth, refuse attempts outright (HTTP 429 with Retry-After) until the
// oldest counted failure leaves the window. In memory: one server process; a restart forgets the counts.

export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES = 10;
const FREE_FAILURES = 3;
const MAX_DELAY_MS = 4000;
const MAX_TRACKED_KEYS = 50_000;

const shared = globalThis as unknown as { c2wSignInFailures?: Map<string, number[]> };
const failures: Map<string, number[]> = (shared.c2wSignInFailures ??= new Map());

function keysFor(email: string, address: string | null): string[] {
  const keys = [`account:${email.trim().toLowerCase()}`];
  if (address) keys.push(`address:${address}`);
  return keys;
}

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((at: number) => now - at < WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

/** Seconds until another attempt is allowed, or 0 when one is allowed now. */
export function retryAfterSeconds(email: string, address: string | null, now = Date.now()): number {
  let wait = 0;
  for (const key of keysFor(email, address)) {
    const list = recent(key, now);
    if (list.length >= MAX_FAILURES) {
      const oldestCounted = list[list.length - MAX_FAILURES]!;
      wait = Math.max(wait, Math.ceil((oldestCounted + WINDOW_MS - now) / 1000));
    }
  }
  return wait;
}

/** How long to hold the answer to an attempt: nothing for the first few failures, then doubling up to 4 s. */
export function delayBeforeAnswerMs(email: string, address: string | null, now = Date.now()): number {
  const count = Math.max(...keysFor(email, address).map((key) => recent(key, now).length));
  if (count < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, 250 * 2 ** (count - FREE_FAILURES));
}

export function recordFailure(email: string, address: string | null, now = Date.now()): void {
  if (failures.size > MAX_TRACKED_KEYS) {
    // Bounded memory under a flood of made-up accounts: forget expired entries first, then the oldest.
    for (const key of failures.keys()) recent(key, now);
    while (failures.size > MAX_TRACKED_KEYS) failures.delete(failures.keys().next().value!);
  }
  for (const key of keysFor(email, address)) failures.set(key, [...recent(key, now), now]);
}

/** A correct password clears the account's count (the address keeps its own). */
export function recordSuccess(email: string): void {
  failures.delete(keysFor(email, null)[0]!);
}

/** Forgets every count (tests). */
export function resetSignInThrottle(): void {
  failures.clear();
}

/**
 * The client's address as the server saw it. Next.js fills X-Forwarded-For with the socket address when a request
 * arrives without one; behind a reverse proxy, the proxy must overwrite the header (see SECURITY.md).
 */
export function clientAddress(headers: { get(name: string): string | null } | Record<string, unknown> | undefined): string | null {
  if (!headers) return null;
  const raw = typeof (headers as { get?: unknown }).get === "function" ? (headers as { get(name: string): string | null }).get("x-forwarded-for") : (headers as Record<string, unknown>)["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || !value.trim()) return null;
  return value.split(",")[0]!.trim().slice(0, 100);
}
