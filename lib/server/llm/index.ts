import "server-only";
// Calling judge models: the OpenAI-compatible client with limits and retries, the call cache, and judgeItems, shared
// by the judge CLI and the job worker. Failures are data; a verdict only ever comes from a reply.

export * from "./client";
export * from "./cache";
export * from "./judge";
export { abortableSleep, RateWindow, Semaphore, estimateTokens } from "./limits";
