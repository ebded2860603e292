import "server-only";
// Asks a judge model the benchmark's questions: K samples per item through the call cache, the official verdict rule,
// optional strict re-asks, majority over samples, progress and cancellation. Errors stay errors, never verdicts.

import { setMaxListeners } from "node:events";
import type { JudgeItem } from "@/lib/judge/items";
import { judgeIdentityJson, type ChatParams } from "@/lib/judge/identity";
import { majorityVerdict, type MajorityVerdict, type TiePolicy } from "@/lib/judge/majority";
import { parseJudgeReply, reaskMessages, type ChatMessage } from "@/lib/judge/protocol";
import { sha256 } from "../hash";
import { callCacheKey, type CallCache } from "./cache";
import type { ChatClient, LlmError, TokenUsage, UsageTotals } from "./client";

/** Re-asks a strict judge makes after a malformed reply before giving up on the sample (default). */
export const DEFAULT_STRICT_REASKS = 2;

export interface JudgeSample {
  sampleIndex: number;
  /** The official reading of the final reply; null when there is none (error, cancelled, strict give-up). */
  verdict: boolean | null;
  wellFormed: boolean | null;
  /** The <reason> text (or the whole reply without the tag), as the pipeline records it. */
  reason: string | null;
  /** The final reply verbatim. */
  raw: string | null;
  /** Every reply of this sample came from the cache (no HTTP call). */
  cached: boolean;
  /** HTTP requests this sample made (retries and re-asks included; 0 when cached). */
  calls: number;
  /** Strict re-asks sent after malformed replies. */
  reasks: number;
  usage: TokenUsage | null;
  latencyMs: number;
  error: LlmError | null;
  /** The cache key of the first question (what a database cache row is keyed by); null when judging without a cache. */
  cacheKey: string | null;
}

export interface JudgedItem {
  item: JudgeItem;
  samples: JudgeSample[];
  majority: MajorityVerdict;
  /** majority.verdict: null when no sample produced a verdict. */
  verdict: boolean | null;
  /** Every sample was answered from the cache. */
  cached: boolean;
  /** The first sample error, when a sample failed. */
  error: LlmError | null;
}

export interface JudgeProgress {
  total: number;
  done: number;
  /** Items without a verdict (every sample failed). */
  failed: number;
  calls: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  /** The item just finished. */
  last: JudgedItem;
}

export interface JudgeOptions {
  client: ChatClient;
  /** Samples per item (default 1); sample i is its own call and cache entry. */
  samples?: number;
  /** Re-ask malformed replies: true for DEFAULT_STRICT_REASKS, or a number of re-asks. */
  strict?: boolean | number;
  cache?: CallCache | null;
  /** Ask again even when the cache has the reply (the new reply replaces it). */
  refresh?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: JudgeProgress) => void;
  /** Items in flight at once (default: the client's concurrency). */
  concurrency?: number;
  tie?: TiePolicy;
  /** Parameters for these calls on top of the client's defaults. */
  params?: ChatParams;
}

export interface JudgeRun {
  /** In item order; items not finished when cancelled are absent. */
  results: JudgedItem[];
  cancelled: boolean;
  /** HTTP requests made by this run. */
  calls: number;
  cacheHits: number;
  promptTokens: number;
  completionTokens: number;
  /** The client's running totals after the run. */
  usage: UsageTotals;
}

/** JudgeVerdict.promptFingerprint: hex SHA-256 of the system prompt file's text as read (the import hashes the same). */
export function promptFingerprint(promptFileText: string): string {
  return sha256(promptFileText);
}

/** JudgeVerdict.inputFingerprint of an item. */
export function inputFingerprint(item: Pick<JudgeItem, "inputMaterial">): string {
  return sha256(item.inputMaterial);
}

/** JudgeVerdict.judgeIdentity for verdicts this client produces. */
export function judgeIdentity(client: ChatClient, promptFingerprintHex: string, strict: boolean, params?: ChatParams): string {
  return judgeIdentityJson({ endpoint: client.endpoint, model: client.model, params: { ...client.params, ...(params ?? {}) }, promptFingerprint: promptFingerprintHex, strict });
}

function strictReasks(strict: boolean | number | undefined): number {
  if (strict === true) return DEFAULT_STRICT_REASKS;
  if (typeof strict === "number" && Number.isInteger(strict) && strict > 0) return strict;
  return 0;
}

function addUsage(total: TokenUsage | null, more: TokenUsage | null): TokenUsage | null {
  if (!more) return total;
  return { promptTokens: (total?.promptTokens ?? 0) + more.promptTokens, completionTokens: (total?.completionTokens ?? 0) + more.completionTokens };
}

export type SampleOptions = Pick<JudgeOptions, "client" | "strict" | "cache" | "refresh" | "signal" | "params">;

/** One sample of one item: cache, call, official reading, strict re-asks. */
export async function judgeSample(item: Pick<JudgeItem, "messages">, sampleIndex: number, options: SampleOptions): Promise<JudgeSample> {
  const { client, cache, signal } = options;
  const params = { ...client.params, ...(options.params ?? {}) };
  const reasksAllowed = strictReasks(options.strict);
  let messages: ChatMessage[] = item.messages;
  const keyOf = (asked: readonly ChatMessage[]) => callCacheKey({ endpoint: client.endpoint, model: client.model, params, messages: asked, sample: sampleIndex });
  const firstKey = cache ? keyOf(messages) : null;
  const sample: JudgeSample = {
    sampleIndex,
    verdict: null,
    wellFormed: null,
    reason: null,
    raw: null,
    cached: true,
    calls: 0,
    reasks: 0,
    usage: null,
    latencyMs: 0,
    error: null,
    cacheKey: firstKey,
  };
  for (;;) {
    const key = cache ? (sample.reasks === 0 ? firstKey : keyOf(messages)) : null;
    let reply: string | null = null;
    const hit = cache && key && !options.refresh ? await cache.get(key) : null;
    if (hit) {
      reply = hit.content;
    } else {
      sample.cached = false;
      const outcome = await client.complete(messages, { signal, params: options.params });
      sample.calls += outcome.attempts;
      sample.latencyMs += outcome.latencyMs;
      if (!outcome.ok) {
        sample.error = outcome.error;
        return sample;
      }
      sample.usage = addUsage(sample.usage, outcome.usage);
      reply = outcome.content;
      if (cache && key) await cache.put(key, { content: reply, usage: outcome.usage, storedAt: new Date().toISOString() });
    }
    const parsed = parseJudgeReply(reply);
    sample.raw = reply;
    sample.reason = parsed.reason;
    sample.wellFormed = parsed.wellFormed;
    if (parsed.wellFormed || reasksAllowed === 0) {
      sample.verdict = parsed.verdict;
      return sample;
    }
    if (sample.reasks >= reasksAllowed) {
      sample.error = { kind: "malformed-reply", status: null, message: `the reply never had the required <result>true|false</result> section (${sample.reasks} re-asks)` };
      return sample;
    }
    if (signal?.aborted) {
      sample.error = { kind: "cancelled", status: null, message: "cancelled" };
      return sample;
    }
    messages = reaskMessages(messages, reply);
    sample.reasks += 1;
  }
}

/** Judges every item K times; results keep item order. Aborting `signal` starts nothing new and stops calls in flight. */
export async function judgeItems(items: readonly JudgeItem[], options: JudgeOptions): Promise<JudgeRun> {
  const samples = options.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`samples must be a whole number ≥ 1 (got ${samples})`);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? options.client.concurrency));
  // One internal signal follows the caller's: every call in flight listens to it, so lift the listener warning here
  // rather than on a signal the caller owns.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const follow = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) follow();
  else options.signal?.addEventListener("abort", follow, { once: true });
  const signal = controller.signal;
  const sampleOptions: SampleOptions = { ...options, signal };
  const perItem: (JudgeSample | undefined)[][] = items.map(() => new Array<JudgeSample | undefined>(samples));
  const remaining = items.map(() => samples);
  const finished: (JudgedItem | undefined)[] = new Array(items.length);
  const totals = { done: 0, failed: 0, calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0 };

  const finishItem = (index: number) => {
    const item = items[index] as JudgeItem;
    const itemSamples = perItem[index] as JudgeSample[];
    const majority = majorityVerdict(itemSamples.map((s) => s.verdict), options.tie);
    const judged: JudgedItem = {
      item,
      samples: itemSamples,
      majority,
      verdict: majority.verdict,
      cached: itemSamples.every((s) => s.cached),
      error: itemSamples.find((s) => s.error)?.error ?? null,
    };
    finished[index] = judged;
    totals.done += 1;
    if (judged.verdict === null) totals.failed += 1;
    options.onProgress?.({ total: items.length, ...totals, last: judged });
  };

  let next = 0;
  const total = items.length * samples;
  const worker = async () => {
    while (next < total && !signal.aborted) {
      const task = next++;
      const index = Math.floor(task / samples);
      const sampleIndex = task % samples;
      const result = await judgeSample(items[index] as JudgeItem, sampleIndex, sampleOptions);
      totals.calls += result.calls;
      if (result.error?.kind === "cancelled") continue;
      (perItem[index] as (JudgeSample | undefined)[])[sampleIndex] = result;
      if (result.cached) totals.cacheHits += 1;
      totals.promptTokens += result.usage?.promptTokens ?? 0;
      totals.completionTokens += result.usage?.completionTokens ?? 0;
      remaining[index] = (remaining[index] as number) - 1;
      if (remaining[index] === 0) finishItem(index);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(total, 1)) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", follow);
  }
  const results = finished.filter((judged): judged is JudgedItem => judged !== undefined);
  return {
    results,
    cancelled: signal.aborted && results.length < items.length,
    calls: totals.calls,
    cacheHits: totals.cacheHits,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    usage: options.client.usage(),
  };
}
