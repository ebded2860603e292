import "server-only";
// Sign-in throttling per account and per client address, kept in the database so every app instance, worker and
// restart sees the same counts. An attempt is reserved (counted) before its password is checked, by a compare-and-set
// on the counters, so a burst cannot outrun them; a correct password gives its count back.
// - Per address: three free attempts in a 15-minute window, then each must wait longer after the previous one (0.25 s
//   doubling to 4 s), and from the tenth none until the window ends.
// - Per account: from the tenth attempt in the window the account is locked, except for addresses with no attempt in
//   the window, so an attacker cannot lock the owner out; and at most one password check of an account runs at a time.
// Refusals carry the seconds to wait (HTTP 429 with Retry-After).
import type { Database } from "./db";

export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES = 10;
const FREE_FAILURES = 3;
const MAX_DELAY_MS = 4000;
/** How long one password check may hold its account before another may start (a crashed check frees it then). */
const CHECK_LEASE_MS = 15_000;
/** How long an attempt waits for another check of the same account to finish before it is refused. */
const CHECK_WAIT_MS = 5_000;
const CAS_TRIES = 8;

export type Reservation =
  | { ok: true; /** Records the outcome: a correct password gives the attempt back and clears the account's count. */ settle(correct: boolean): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refuse = (waitMs: number): Reservation => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });

/** The wait after `failures` counted attempts: nothing for the first few, then doubling up to 4 s. */
export function delayAfterMs(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(MAX_DELAY_MS, 250 * 2 ** (failures - FREE_FAILURES));
}

interface Counter {
  /** Attempts counted in the current window (0 when it ended). */
  failures: number;
  windowStart: Date;
  lastAttemptAt: Date | null;
  /** The row as read (null when there is none), for the compare-and-set. */
  stored: { failures: number; windowStart: Date } | null;
  expired: boolean;
}

async function readCounter(db: Database, key: string, now: Date): Promise<Counter> {
  const row = await db.signInThrottle.findUnique({ where: { key }, select: { failures: true, windowStart: true, lastAttemptAt: true } });
  if (!row) return { failures: 0, windowStart: now, lastAttemptAt: null, stored: null, expired: false };
  const stored = { failures: row.failures, windowStart: row.windowStart };
  // An ended window counts nothing (the next reservation starts a new one).
  if (now.getTime() - row.windowStart.getTime() >= WINDOW_MS) return { failures: 0, windowStart: now, lastAttemptAt: null, stored, expired: true };
  return { failures: row.failures, windowStart: row.windowStart, lastAttemptAt: row.lastAttemptAt, stored, expired: false };
}

/** Adds one attempt to `key` if its row is still as `seen` read it; false when another attempt got there first. */
async function countAttempt(db: Database, key: string, seen: Counter, now: Date): Promise<boolean> {
  if (!seen.stored) {
    try {
      await db.signInThrottle.create({ data: { key, failures: 1, windowStart: now, lastAttemptAt: now } });
      return true;
    } catch {
      return false; // created meanwhile: read again
    }
  }
  const where = { key, failures: seen.stored.failures, windowStart: seen.stored.windowStart };
  const changed = seen.expired
    ? await db.signInThrottle.updateMany({ where, data: { failures: 1, windowStart: now, lastAttemptAt: now } })
    : await db.signInThrottle.updateMany({ where, data: { failures: { increment: 1 }, lastAttemptAt: now } });
  return changed.count === 1;
}

/**
 * Reserves one sign-in attempt for `email` from `address`, or says how long to wait. The reserved attempt is counted
 * at once; `settle(true)` gives it back. `now` is injectable for tests.
 */
export async function reserveSignInAttempt(db: Database, email: string, address: string | null, clock: () => Date = () => new Date()): Promise<Reservation> {
  const account = accountKey(email);
  let addressWasClean = true;
  if (address) {
    const key = addressKey(address);
    let counted = false;
    for (let attempt = 0; attempt < CAS_TRIES && !counted; attempt++) {
      const now = clock();
      const seen = await readCounter(db, key, now);
      addressWasClean = seen.failures === 0;
      if (seen.failures >= MAX_FAILURES) return refuse(seen.windowStart.getTime() + WINDOW_MS - now.getTime());
      const readyAt = (seen.lastAttemptAt?.getTime() ?? 0) + delayAfterMs(seen.failures);
      if (readyAt > now.getTime()) return refuse(readyAt - now.getTime());
      const lock = await readCounter(db, account, now);
      if (lock.failures >= MAX_FAILURES && !addressWasClean) return refuse(lock.windowStart.getTime() + WINDOW_MS - now.getTime());
      counted = await countAttempt(db, key, seen, now);
    }
    if (!counted) return refuse(1000);
  }
  let accountCounted = false;
  for (let attempt = 0; attempt < CAS_TRIES && !accountCounted; attempt++) {
    const now = clock();
    const seen = await readCounter(db, account, now);
    // Without an address every attempt meets the lock; with a clean one the owner still gets through.
    if (seen.failures >= MAX_FAILURES && (!address || !addressWasClean)) {
      if (address) await giveBack(db, addressKey(address));
      return refuse(seen.windowStart.getTime() + WINDOW_MS - now.getTime());
    }
    accountCounted = await countAttempt(db, account, seen, now);
  }
  if (!accountCounted) {
    if (address) await giveBack(db, addressKey(address));
    return refuse(1000);
  }
  // One password check per account at a time, across instances: later attempts wait for the running one.
  const waitUntil = clock().getTime() + CHECK_WAIT_MS;
  for (;;) {
    const now = clock();
    const claimed = await db.signInThrottle.updateMany({
      where: { key: account, OR: [{ checkingUntil: null }, { checkingUntil: { lt: now } }] },
      data: { checkingUntil: new Date(now.getTime() + CHECK_LEASE_MS) },
    });
    if (claimed.count === 1) break;
    if (now.getTime() >= waitUntil) {
      await giveBack(db, account);
      if (address) await giveBack(db, addressKey(address));
      return refuse(1000);
    }
    await sleep(50);
  }
  let settled = false;
  return {
    ok: true,
    async settle(correct) {
      if (settled) return;
      settled = true;
      if (correct) {
        await db.signInThrottle.updateMany({ where: { key: account }, data: { failures: 0, checkingUntil: null, lastAttemptAt: null } });
        if (address) await giveBack(db, addressKey(address));
      } else {
        await db.signInThrottle.updateMany({ where: { key: account }, data: { checkingUntil: null } });
      }
      await forgetExpired(db, clock());
    },
  };
}

async function giveBack(db: Database, key: string): Promise<void> {
  await db.signInThrottle.updateMany({ where: { key, failures: { gt: 0 } }, data: { failures: { decrement: 1 } } });
}

let lastSweep = 0;

/** Drops counters whose window ended (at most once a minute per process), so made-up accounts do not pile up. */
async function forgetExpired(db: Database, now: Date): Promise<void> {
  if (now.getTime() - lastSweep < 60_000) return;
  lastSweep = now.getTime();
  await db.signInThrottle.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - WINDOW_MS) }, OR: [{ checkingUntil: null }, { checkingUntil: { lt: now } }] } });
}

/** Forgets every count (tests). */
export async function resetSignInThrottle(db: Database): Promise<void> {
  await db.signInThrottle.deleteMany({});
}

/**
 * The client's address. The server sets X-Forwarded-For to the connection's address, or, when that is a proxy listed
 * in TRUSTED_PROXIES, to the address that proxy forwarded (lib/server/client-address.ts); a client's own header is
 * never believed.
 */
export function clientAddress(headers: { get(name: string): string | null } | Record<string, unknown> | undefined): string | null {
  if (!headers) return null;
  const raw = typeof (headers as { get?: unknown }).get === "function" ? (headers as { get(name: string): string | null }).get("x-forwarded-for") : (headers as Record<string, unknown>)["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || !value.trim()) return null;
  return value.split(",")[0]!.trim().slice(0, 100);
}
