import "server-only";
// Calling judge models: an OpenAI-compatible chat client with limits and retries, the call cache, and judgeItems,
// which the judge CLI and the job worker both use. Failures are data; verdicts only ever come from replies.
//
// Public API (stable):
//   createChatClient(endpoint: LlmEndpoint, deps?) -> ChatClient
//     LlmEndpoint { baseURL, apiKey?, model, params?, concurrency?, requestsPerMinute?, tokensPerMinute?, timeoutMs?,
//                   maxRetries?, backoffBaseMs?, backoffMaxMs?, maxRetryAfterMs? }
//     ChatClient { endpoint, model, params, concurrency, complete(messages, {signal, params}) -> ChatOutcome, usage() }
//     ChatOutcome = { ok: true, content, usage, finishReason, attempts, latencyMs } | { ok: false, error: LlmError, ... }
//     LlmError { kind: rate-limited | server-error | timeout | connection | client-error | malformed-response |
//                malformed-reply | cancelled, status, message }
//   CallCache { get(key), put(key, CachedReply) }; fileCallCache(dir), memoryCallCache(), callCacheKey(callIdentity)
//   judgeItems(items, { client, samples?, strict?, cache?, refresh?, signal?, onProgress?, concurrency?, tie?, params? })
//     -> JudgeRun { results: JudgedItem[], cancelled, calls, cacheHits, promptTokens, completionTokens, usage }
//   judgeSample(item, sampleIndex, options) -> JudgeSample   (one sample; what a job item runs)
//   promptFingerprint(promptFileText), inputFingerprint(item), judgeIdentity(client, promptFingerprint, strict)
//   retryAfterMs(headers), Semaphore, RateWindow (limits shared with other clients)

export * from "./client";
export * from "./cache";
export * from "./judge";
export { abortableSleep, RateWindow, Semaphore, estimateTokens } from "./limits";
