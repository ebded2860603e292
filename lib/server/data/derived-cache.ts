import "server-only";
// Views derived from stored responses with the scoring core (a response page's layout and diagnostics, a diff's
// comparison), kept in memory so a busy page is not re-scored and re-laid out per request. A response's text never
// changes after import, so a key names the responses it was derived from; the scoring-core version is part of every
// key, so a new core computes afresh. Callers check authorization before asking.
import { CORE_VERSION } from "@/lib/workflow/version";

const MAX_ENTRIES = 64;
const shared = globalThis as unknown as { c2wDerivedViews?: Map<string, unknown> };
const entries: Map<string, unknown> = (shared.c2wDerivedViews ??= new Map());

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

/** Forgets every derived view (tests). */
export function clearDerivedViews(): void {
  entries.clear();
}
