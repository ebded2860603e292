import "server-only";
// A chat-completions client for any OpenAI-compatible endpoint, over the official `openai` package with its own
// retries switched off: ours are bounded, back off exponentially, honour Retry-After and are counted. Failures come
// back as data (ChatFailure), never as exceptions and never as verdicts.

import OpenAI from "openai";
import { endpointIdentity, type ChatParams } from "@/lib/judge/identity";
import type { ChatMessage } from "@/lib/judge/protocol";
import { abortableSleep, estimateTokens, RateWindow, Semaphore } from "./limits";

export interface LlmEndpoint {
  /** The base URL as the openai client takes it, e.g. "http://127.0.0.1:8000/v1". */
  baseURL: string;
  /** Optional: local servers need none (then no Authorization header is sent). */
  apiKey?: string | null;
  model: string;
  /** Default parameters sent with every call (a call may override them). */
  params?: ChatParams;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  requestsPerMinute?: number | null;
  tokensPerMinute?: number | null;
  /** Per-request timeout in milliseconds (default 120 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** First backoff delay in milliseconds, doubled each retry (default 500), capped by backoffMaxMs (30 000). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A Retry-After longer than this gives up at once instead of waiting (default 120 000 ms). */
  maxRetryAfterMs?: number;
}

export type LlmErrorKind =
  | "rate-limited" // 429 after the last retry
  | "server-error" // 5xx after the last retry
  | "timeout" // no reply within timeoutMs, after the last retry
  | "connection" // refused, reset, DNS
  | "client-error" // 4xx other than 408/409/429: not retried (bad request, auth, unknown model)
  | "malformed-response" // the body is not a chat completion with text content
  | "malformed-reply" // strict judging: the reply never had the required shape
  | "cancelled";

export interface LlmError {
  kind: LlmErrorKind;
  /** HTTP status when there was one. */
  status: number | null;
  message: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatSuccess {
  ok: true;
  content: string;
  usage: TokenUsage | null;
  finishReason: string | null;
  /** HTTP requests this call made (1 + retries). */
  attempts: number;
  latencyMs: number;
}

export interface ChatFailure {
  ok: false;
  error: LlmError;
  attempts: number;
  latencyMs: number;
}

export type ChatOutcome = ChatSuccess | ChatFailure;

/** Running totals for one client (all its calls since creation). */
export interface UsageTotals {
  /** HTTP requests sent, retries included. */
  calls: number;
  retries: number;
  succeeded: number;
  failed: number;
  /** 429 answers seen (retried or not). */
  rateLimited: number;
  promptTokens: number;
  completionTokens: number;
  /** Sum and maximum of per-request latency in milliseconds. */
  latencyMsTotal: number;
  latencyMsMax: number;
}

export interface ChatCallOptions {
  signal?: AbortSignal;
  /** Overrides of the endpoint's default parameters for this call. */
  params?: ChatParams;
  /** False: a call that times out fails at once instead of being retried (the agentic protocol's timeout). */
  retryTimeouts?: boolean;
}

export interface ChatClient {
  /** endpointIdentity(baseURL): what verdicts and cache keys name the endpoint by (never the key). */
  readonly endpoint: string;
  readonly model: string;
  readonly params: Readonly<ChatParams>;
  readonly concurrency: number;
  /** Per-request timeout in milliseconds (wrappers that delegate the calls may leave it out). */
  readonly timeoutMs?: number;
  complete(messages: readonly ChatMessage[], options?: ChatCallOptions): Promise<ChatOutcome>;
  usage(): UsageTotals;
}

export interface ClientDeps {
  /** A fetch implementation for the openai client (tests, proxies). */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

const DEFAULTS = {
  concurrency: 4,
  timeoutMs: 120_000,
  maxRetries: 4,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  maxRetryAfterMs: 120_000,
} as const;

/** Delay requested by the server: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

interface Classified {
  error: LlmError;
  retryable: boolean;
  retryAfter: number | null;
}

function classify(error: unknown, now: number): Classified {
  if (error instanceof OpenAI.APIUserAbortError) return { error: { kind: "cancelled", status: null, message: "cancelled" }, retryable: false, retryAfter: null };
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return { error: { kind: "timeout", status: null, message: "the request timed out" }, retryable: true, retryAfter: null };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return { error: { kind: "connection", status: null, message: `connection failed: ${causeMessage(error)}` }, retryable: true, retryAfter: null };
  }
  if (error instanceof OpenAI.APIError) {
    const status = typeof error.status === "number" ? error.status : null;
    const message = error.message || `HTTP ${status}`;
    const retryAfter = retryAfterMs(error.headers, now);
    if (status === 429) return { error: { kind: "rate-limited", status, message }, retryable: true, retryAfter };
    if (status !== null && status >= 500) return { error: { kind: "server-error", status, message }, retryable: true, retryAfter };
    if (status === 408 || status === 409) return { error: { kind: "timeout", status, message }, retryable: true, retryAfter };
    return { error: { kind: "client-error", status, message }, retryable: false, retryAfter: null };
  }
  if (error instanceof SyntaxError) {
    return { error: { kind: "malformed-response", status: null, message: `the reply body is not valid JSON: ${error.message}` }, retryable: true, retryAfter: null };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { error: { kind: "connection", status: null, message }, retryable: true, retryAfter: null };
}

/** The innermost cause's message ("connect ECONNREFUSED 127.0.0.1:9" rather than "fetch failed"). */
function causeMessage(error: Error): string {
  let current: Error = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const cause = (current as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return current.message || error.message;
}

/** The text of the first choice, or why the body is not a usable chat completion. */
function readCompletion(body: unknown): { content: string; usage: TokenUsage | null; finishReason: string | null } | string {
  if (typeof body !== "object" || body === null) return "the reply body is not a JSON object";
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) return "the reply has no choices";
  const first = choices[0] as { message?: { content?: unknown }; finish_reason?: unknown } | null;
  const content = first?.message?.content;
  if (typeof content !== "string") return "the reply's first choice has no text content";
  const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null }).usage;
  const promptTokens = typeof usage?.prompt_tokens === "number" ? usage.prompt_tokens : null;
  const completionTokens = typeof usage?.completion_tokens === "number" ? usage.completion_tokens : null;
  return {
    content,
    usage: promptTokens === null && completionTokens === null ? null : { promptTokens: promptTokens ?? 0, completionTokens: completionTokens ?? 0 },
    finishReason: typeof first?.finish_reason === "string" ? first.finish_reason : null,
  };
}

function emptyTotals(): UsageTotals {
  return { calls: 0, retries: 0, succeeded: 0, failed: 0, rateLimited: 0, promptTokens: 0, completionTokens: 0, latencyMsTotal: 0, latencyMsMax: 0 };
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number (got ${value})`);
  return value;
}

export function createChatClient(endpoint: LlmEndpoint, deps: ClientDeps = {}): ChatClient {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const random = deps.random ?? Math.random;
  const concurrency = positiveInteger(endpoint.concurrency, DEFAULTS.concurrency, "concurrency");
  const timeoutMs = positiveInteger(endpoint.timeoutMs, DEFAULTS.timeoutMs, "timeoutMs");
  const maxRetries = positiveInteger(endpoint.maxRetries, DEFAULTS.maxRetries, "maxRetries");
  const backoffBaseMs = positiveInteger(endpoint.backoffBaseMs, DEFAULTS.backoffBaseMs, "backoffBaseMs");
  const backoffMaxMs = positiveInteger(endpoint.backoffMaxMs, DEFAULTS.backoffMaxMs, "backoffMaxMs");
  const maxRetryAfterMs = positiveInteger(endpoint.maxRetryAfterMs, DEFAULTS.maxRetryAfterMs, "maxRetryAfterMs");
  const semaphore = new Semaphore(concurrency);
  const window = new RateWindow(endpoint.requestsPerMinute ?? null, endpoint.tokensPerMinute ?? null, now);
  const params: Readonly<ChatParams> = Object.freeze({ ...(endpoint.params ?? {}) });
  const hasKey = typeof endpoint.apiKey === "string" && endpoint.apiKey !== "";
  const openai = new OpenAI({
    baseURL: endpoint.baseURL,
    // The package insists on a credential; without a key the Authorization header is removed below.
    apiKey: hasKey ? (endpoint.apiKey as string) : "no-key",
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    ...(hasKey ? {} : { defaultHeaders: { Authorization: null } }),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const totals = emptyTotals();

  const backoff = (retry: number): number => {
    const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (retry - 1));
    return ceiling / 2 + (random() * ceiling) / 2;
  };

  async function attempt(messages: readonly ChatMessage[], callParams: ChatParams, signal: AbortSignal | undefined) {
    await semaphore.acquire(signal);
    try {
      const ticket = await window.acquire(estimateTokens(messages.map((m) => m.content)), signal);
      const started = performance.now();
      totals.calls += 1;
      try {
        const body: unknown = await openai.chat.completions.create(
          { model: endpoint.model, messages: messages.map((m) => ({ role: m.role, content: m.content })), ...callParams, stream: false },
          signal ? { signal } : {},
        );
        const latency = performance.now() - started;
        const read = readCompletion(body);
        if (typeof read !== "string") ticket.settle((read.usage?.promptTokens ?? 0) + (read.usage?.completionTokens ?? 0));
        return { latency, read, thrown: null as unknown };
      } catch (error) {
        return { latency: performance.now() - started, read: null, thrown: error };
      }
    } finally {
      semaphore.release();
    }
  }

  async function complete(messages: readonly ChatMessage[], options: ChatCallOptions = {}): Promise<ChatOutcome> {
    const { signal } = options;
    const callParams = { ...params, ...(options.params ?? {}) };
    const started = performance.now();
    let attempts = 0;
    const fail = (error: LlmError): ChatFailure => {
      totals.failed += 1;
      return { ok: false, error, attempts, latencyMs: performance.now() - started };
    };
    for (;;) {
      if (signal?.aborted) return fail({ kind: "cancelled", status: null, message: "cancelled" });
      let outcome: Awaited<ReturnType<typeof attempt>>;
      try {
        outcome = await attempt(messages, callParams, signal);
      } catch {
        // Only an abort while waiting for a slot or the rate window gets here.
        return fail({ kind: "cancelled", status: null, message: "cancelled" });
      }
      attempts += 1;
      totals.latencyMsTotal += outcome.latency;
      totals.latencyMsMax = Math.max(totals.latencyMsMax, outcome.latency);
      let classified: Classified;
      if (outcome.read !== null && typeof outcome.read !== "string") {
        const read = outcome.read;
        totals.succeeded += 1;
        totals.promptTokens += read.usage?.promptTokens ?? 0;
        totals.completionTokens += read.usage?.completionTokens ?? 0;
        return { ok: true, content: read.content, usage: read.usage, finishReason: read.finishReason, attempts, latencyMs: performance.now() - started };
      } else if (typeof outcome.read === "string") {
        classified = { error: { kind: "malformed-response", status: null, message: outcome.read }, retryable: true, retryAfter: null };
      } else {
        classified = classify(outcome.thrown, now());
      }
      if (classified.error.kind === "rate-limited") totals.rateLimited += 1;
      if (classified.error.kind === "cancelled" || signal?.aborted) return fail({ kind: "cancelled", status: null, message: "cancelled" });
      const timedOut = classified.error.kind === "timeout" && classified.error.status === null;
      if (!classified.retryable || attempts > maxRetries || (timedOut && options.retryTimeouts === false)) return fail(withAttempts(classified.error, attempts));
      const delay = classified.retryAfter ?? backoff(attempts);
      if (delay > maxRetryAfterMs) {
        return fail({ ...classified.error, message: `${classified.error.message} (the server asked to wait ${Math.round(delay / 1000)} s, over the ${Math.round(maxRetryAfterMs / 1000)} s limit)` });
      }
      totals.retries += 1;
      try {
        await sleep(delay, signal);
      } catch {
        return fail({ kind: "cancelled", status: null, message: "cancelled" });
      }
    }
  }

  return {
    endpoint: endpointIdentity(endpoint.baseURL),
    model: endpoint.model,
    params,
    concurrency,
    timeoutMs,
    complete,
    usage: () => ({ ...totals }),
  };
}

function withAttempts(error: LlmError, attempts: number): LlmError {
  return attempts > 1 ? { ...error, message: `${error.message} (after ${attempts} attempts)` } : error;
}
