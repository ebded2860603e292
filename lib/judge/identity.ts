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

/** A base URL compared as an identity: no trailing slashes, lower-case scheme and host. */
export function endpointIdentity(baseURL: string): string {
  const trimmed = baseURL.trim().replace(/\/+$/, "");
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(trimmed);
  return match ? `${(match[1] as string).toLowerCase()}${match[2] ?? ""}` : trimmed;
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
