// Who judged, and what exactly was asked: the judge identity stored with every LLM verdict and the canonical text a
// call-cache key hashes. Pure; equal calls give equal text whatever the key order of the parameters.

import type { ChatMessage } from "./protocol";

/** Sampling parameters sent with a chat call (only what changes the answer belongs here). */
export interface ChatParams {
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  seed?: number;
}

/** The official judges' parameters: temperature 0, max_tokens 8192. */
export const OFFICIAL_JUDGE_PARAMS: Readonly<ChatParams> = Object.freeze({ temperature: 0, max_tokens: 8192 });

/** How long one judge call may take: the OpenAI SDK's default (600 s), which the official judge leaves as is; reasoning judges need it. */
export const OFFICIAL_JUDGE_TIMEOUT_MS = 600_000;

/** The official judge parameters with a user's overrides (temperature, max_tokens) on top. */
export function judgeParams(overrides: { temperature?: number | null; maxTokens?: number | null } = {}): ChatParams {
  return {
    temperature: overrides.temperature ?? OFFICIAL_JUDGE_PARAMS.temperature,
    max_tokens: overrides.maxTokens ?? OFFICIAL_JUDGE_PARAMS.max_tokens,
  };
}

/** The parameters a stored judge job sends: its recorded ones when they are well formed, else the official ones. */
export function judgeCallParams(stored: unknown): ChatParams {
  if (typeof stored !== "object" || stored === null) return judgeParams();
  const { temperature, max_tokens: maxTokens } = stored as { temperature?: unknown; max_tokens?: unknown };
  return judgeParams({
    temperature: typeof temperature === "number" && Number.isFinite(temperature) ? temperature : null,
    maxTokens: typeof maxTokens === "number" && Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : null,
  });
}

/** "temperature 0, max_tokens 8192 (official)" or the same with the overridden values marked. */
export function describeJudgeParams(params: ChatParams): string {
  const official = params.temperature === OFFICIAL_JUDGE_PARAMS.temperature && params.max_tokens === OFFICIAL_JUDGE_PARAMS.max_tokens;
  return `temperature ${params.temperature ?? "server default"}, max_tokens ${params.max_tokens ?? "server default"}${official ? " (official)" : " (not the official 0 / 8192)"}`;
}

const SECRET_PARAM = /key|token|secret|sig|password/i;

/**
 * A base URL as an identity: lower-case scheme and host, no trailing slash, and nothing secret (credentials in the
 * URL and query parameters that look like keys are dropped, since identities are stored and shown).
 */
export function endpointIdentity(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL.trim());
  } catch {
    return baseURL.trim().replace(/\/+$/, "");
  }
  const params = [...url.searchParams].filter(([name]) => !SECRET_PARAM.test(name));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : "";
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}${query}`;
}

/** JSON with object keys sorted at every level, so equal values always serialise equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) {
      const entry = (inner as Record<string, unknown>)[key];
      if (entry !== undefined) sorted[key] = entry;
    }
    return sorted;
  });
}

export interface CallIdentity {
  /** endpointIdentity(baseURL) */
  endpoint: string;
  model: string;
  params: ChatParams;
  messages: readonly ChatMessage[];
  /** 0-based sample number: K samples of one question are K distinct calls, each cached on its own. */
  sample: number;
}

/** What a call-cache key hashes (the API key is not part of it: it does not change the answer). */
export function callCacheMaterial(call: CallIdentity): string {
  return canonicalJson({
    v: 1,
    endpoint: call.endpoint,
    model: call.model,
    params: call.params,
    messages: call.messages.map((message) => ({ role: message.role, content: message.content })),
    sample: call.sample,
  });
}

/** JudgeVerdict.judgeIdentity: {endpoint, model, params, promptFingerprint, strict}. */
export interface JudgeIdentity {
  endpoint: string;
  model: string;
  params: ChatParams;
  promptFingerprint: string;
  strict: boolean;
}

export function judgeIdentityJson(identity: JudgeIdentity): string {
  return canonicalJson(identity);
}
