// Deterministic sampling of review items: the same candidates and seed always give the same items in the same order.
// Candidates are first put in a canonical order by content (never by database ids), so the draw does not depend on
// the order a query returned them in or on row ids that differ between databases.

import { mulberry32 } from "../stats/paired";
import type { QueueCandidate } from "./filter";

/** FNV-1a over the UTF-16 code units: turns any seed text into a 32-bit generator seed. */
export function seedNumber(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++) {
    hash ^= seed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The content key a candidate is ordered by before shuffling. */
export function candidateKey(candidate: Pick<QueueCandidate, "model" | "runLabel" | "turnKey" | "stage" | "casePosition" | "judge" | "responseId">): string {
  return [candidate.model, candidate.runLabel, candidate.turnKey, candidate.stage, String(candidate.casePosition).padStart(3, "0"), candidate.judge, candidate.responseId].join("\u0000");
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Draws up to `size` candidates without replacement (a partial Fisher–Yates shuffle over the canonical order).
 * The result is in draw order, which becomes the queue's item order. A larger size with the same seed extends the
 * smaller sample: its first items are the same.
 */
export function sampleCandidates<T extends Parameters<typeof candidateKey>[0]>(candidates: readonly T[], size: number, seed: string): T[] {
  const pool = [...candidates].sort((a, b) => compareText(candidateKey(a), candidateKey(b)));
  const count = Math.max(0, Math.min(Math.floor(size), pool.length));
  const random = mulberry32(seedNumber(seed));
  for (let index = 0; index < count; index++) {
    const pick = index + Math.floor(random() * (pool.length - index));
    [pool[index], pool[pick]] = [pool[pick]!, pool[index]!];
  }
  return pool.slice(0, count);
}
