import "server-only";
// Views derived from stored responses with the scoring core (a response page's layout and diagnostics, a diff's
// comparison), kept in memory so a busy page is not re-scored and re-laid out per request. A response's text never
// changes after import, so a key names the responses it was derived from; the scoring-core version is part of every
// key, so a new core computes afresh. Callers check authorization before asking.
import { CORE_VERSION } from "@/lib/workflow/version";

const MAX_ENTRIES = 64;
const shared = globalThis as unknown as { c2wDerivedViews?: Map<string, unknown>; c2wDerivingViews?: Map<string, Promise<unknown>> };
const entries: Map<string, unknown> = (shared.c2wDerivedViews ??= new Map());
const deriving: Map<string, Promise<unknown>> = (shared.c2wDerivingViews ??= new Map());

/** The value derived under `key` (with the current core), computing it once. */
export function derivedOnce<T>(key: string, compute: () => T): T {
  const fullKey = `${CORE_VERSION}|${key}`;
  let value = entries.get(fullKey) as T | undefined;
  if (value !== undefined) entries.delete(fullKey);
  else value = compute();
  // Most recently used last, so the oldest entry is the first to go.
  entries.set(fullKey, value);
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return value;
}

/**
 * The value derived under `key` by an asynchronous computation (an analysis worker): computed once however many
 * readers ask while it runs, then kept like derivedOnce's.
 */
export async function derivedOnceAsync<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const fullKey = `${CORE_VERSION}|${key}`;
  if (entries.has(fullKey)) return derivedOnce(key, () => entries.get(fullKey) as T);
  let pending = deriving.get(fullKey) as Promise<T> | undefined;
  if (!pending) {
    pending = compute()
      .then((value) => derivedOnce(key, () => value))
      .finally(() => deriving.delete(fullKey));
    deriving.set(fullKey, pending);
  }
  return pending;
}
