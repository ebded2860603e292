import "server-only";
// Model endpoints: stored with their API key encrypted, read back as views that never hold the key, and turned into
// chat clients on the server only. Every function checks the actor's permission first.
import { z } from "zod";
import { assertAllowed } from "../authz";
import { connectionSettings } from "../connection-settings";
import type { Database } from "../db";
import type { ChatParams } from "@/lib/judge/identity";
import { createChatClient, retryAfterMs, type ChatClient } from "../llm";
import { decryptSecret } from "../secrets";
import type { SessionUser } from "../session";

/** What pages and API responses may show of an endpoint: never the key, at most its last 4 characters. */
export interface EndpointView {
  id: string;
  label: string;
  baseUrl: string;
  model: string;
  hasApiKey: boolean;
  apiKeyHint: string | null;
  temperature: number;
  maxTokens: number | null;
  concurrency: number;
  rpm: number | null;
  tpm: number | null;
  timeoutMs: number;
  inputPricePerMTok: number | null;
  outputPricePerMTok: number | null;
  updatedAt: string;
}

/** Judge labels of the recorded verdicts and the rule judge; an endpoint's verdicts must not mix with them. */
const RESERVED_JUDGE_LABELS = new Set(["recorded", "rule"]);

const optionalPositiveInt = z.number().int().positive().nullable();
const optionalPrice = z.number().min(0).max(10_000).nullable();

export const endpointFieldsSchema = z.object({
  label: z
    .string()
    .trim()
    .min(1, "name the endpoint")
    .max(80)
    .regex(/^[\w.:\- ]+$/, "use letters, digits, spaces, dots, dashes, colons and underscores")
    .refine((value) => !RESERVED_JUDGE_LABELS.has(value.toLowerCase()), '"recorded" and "rule" name the built-in judges'),
  baseUrl: z
    .string()
    .trim()
    .url("a URL such as http://127.0.0.1:8000/v1")
    .refine((value) => /^https?:\/\//i.test(value), "http or https only"),
  model: z.string().trim().min(1, "name the model").max(200),
  temperature: z.number().min(0).max(2),
  maxTokens: optionalPositiveInt,
  concurrency: z.number().int().min(1).max(256),
  rpm: optionalPositiveInt,
  tpm: optionalPositiveInt,
  timeoutMs: z.number().int().min(1_000).max(600_000),
  inputPricePerMTok: optionalPrice,
  outputPricePerMTok: optionalPrice,
});

export type EndpointFields = z.output<typeof endpointFieldsSchema>;

const VIEW_SELECT = {
  id: true,
  label: true,
  baseUrl: true,
  model: true,
  apiKeyCipher: true,
  apiKeyHint: true,
  temperature: true,
  maxTokens: true,
  concurrency: true,
  rpm: true,
  tpm: true,
  timeoutMs: true,
  inputPricePerMTok: true,
  outputPricePerMTok: true,
  updatedAt: true,
} as const;

type EndpointRow = { apiKeyCipher: string | null; apiKeyHint: string | null; updatedAt: Date } & Omit<EndpointView, "hasApiKey" | "apiKeyHint" | "updatedAt">;

export const endpointSettings = connectionSettings<typeof VIEW_SELECT, EndpointRow, EndpointView, EndpointFields>({
  table: (db) => db.modelEndpoint,
  select: VIEW_SELECT,
  toView: ({ apiKeyCipher, apiKeyHint, updatedAt, ...rest }) => ({
    ...rest,
    hasApiKey: apiKeyCipher !== null,
    apiKeyHint: apiKeyCipher !== null ? apiKeyHint || null : null,
    updatedAt: updatedAt.toISOString(),
  }),
  secret: { cipherColumn: "apiKeyCipher", clearedValue: null, hintColumn: "apiKeyHint" },
});

/** Every endpoint, for choosing one to judge with (researchers) or managing them (admins). */
export const listEndpoints = endpointSettings.list;
export const getEndpoint = endpointSettings.get;
export const createEndpoint = (db: Database, actor: SessionUser, fields: EndpointFields, apiKey: string | null) =>
  endpointSettings.create(db, actor, fields, apiKey ? { set: apiKey } : "clear");
export const updateEndpoint = endpointSettings.update;
/** Deletes the endpoint; its verdicts stay (they carry the judge label and identity). Running jobs using it fail. */
export const deleteEndpoint = endpointSettings.remove;

/** An endpoint as server code that calls it sees it: the view's settings plus the decrypted key. */
export interface EndpointConfig extends Omit<EndpointView, "hasApiKey" | "apiKeyHint" | "updatedAt"> {
  apiKey: string | null;
  updatedAt: Date;
}

/** The endpoint with its decrypted key, for server code that calls it (workers). Not for views. */
export async function loadEndpointConfig(db: Database, id: string): Promise<EndpointConfig | null> {
  const row = await db.modelEndpoint.findUnique({ where: { id } });
  if (!row) return null;
  const { apiKeyCipher, apiKeyHint: _hint, createdBy: _by, createdAt: _at, ...rest } = row;
  return { ...rest, apiKey: apiKeyCipher ? decryptSecret(apiKeyCipher) : null };
}

/** Client retries stay few: the job queue retries items with its own backoff after these are spent. */
export const CLIENT_RETRIES = 2;

export interface ClientOverrides {
  maxRetries?: number;
  backoffBaseMs?: number;
  /** Called with the delay an endpoint asked for (Retry-After on a 429 or 503), so callers can hold off too. */
  onRetryAfter?: (delayMs: number) => void;
  /** Default parameters in place of the endpoint's temperature and max tokens (generation sends its protocol's). */
  params?: ChatParams;
  /** Per-call timeout in place of the endpoint's (generation follows its protocol's timeouts). */
  timeoutMs?: number;
}

/** Wraps fetch to report the endpoint's Retry-After answers (the client honours them itself, then gives up). */
function retryAfterReporting(report: (delayMs: number) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429 || response.status === 503) {
      const delay = retryAfterMs(response.headers);
      if (delay !== null) report(delay);
    }
    return response;
  };
}

export function chatClientFor(config: EndpointConfig, overrides: ClientOverrides = {}): ChatClient {
  const deps = overrides.onRetryAfter ? { fetch: retryAfterReporting(overrides.onRetryAfter) } : {};
  return createChatClient({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    params: overrides.params ?? { temperature: config.temperature, ...(config.maxTokens !== null ? { max_tokens: config.maxTokens } : {}) },
    concurrency: config.concurrency,
    requestsPerMinute: config.rpm,
    tokensPerMinute: config.tpm,
    timeoutMs: overrides.timeoutMs ?? config.timeoutMs,
    maxRetries: overrides.maxRetries ?? CLIENT_RETRIES,
    ...(overrides.backoffBaseMs !== undefined ? { backoffBaseMs: overrides.backoffBaseMs } : {}),
  }, deps);
}

/** USD for the given tokens at the endpoint's prices; null when it has none. */
export function callCost(config: Pick<EndpointConfig, "inputPricePerMTok" | "outputPricePerMTok">, inputTokens: number, outputTokens: number): number | null {
  if (config.inputPricePerMTok === null && config.outputPricePerMTok === null) return null;
  return (inputTokens * (config.inputPricePerMTok ?? 0) + outputTokens * (config.outputPricePerMTok ?? 0)) / 1_000_000;
}

export interface ConnectionTest {
  ok: boolean;
  message: string;
  latencyMs: number;
  /** The reply's first lines (at most 3 lines, 300 characters), when the model answered. */
  replyStart: string | null;
  /** Whether GET <base>/models lists the model; null when the server has no such route (or it could not be read). */
  modelListed: boolean | null;
}

const LIST_TIMEOUT_MS = 10_000;

/** The model ids GET <base>/models lists, or null when the server has no such route or answers something else. */
async function listedModels(config: EndpointConfig): Promise<string[] | null> {
  try {
    const response = await fetch(`${config.baseUrl.replace(/\/+$/, "")}/models`, {
      headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const text = await response.text();
    if (text.length > 2_000_000) return null;
    const body = JSON.parse(text) as { data?: unknown };
    if (!Array.isArray(body.data)) return null;
    return body.data.flatMap((entry) => (entry && typeof entry === "object" && typeof (entry as { id?: unknown }).id === "string" ? [(entry as { id: string }).id] : []));
  } catch {
    return null;
  }
}

/** The first lines of a reply, for a person to see what the model says. */
export function replyStart(content: string): string {
  const lines = content.trim().split("\n", 4).slice(0, 3).join("\n");
  return lines.length > 300 ? `${lines.slice(0, 299)}…` : lines;
}

/**
 * Sends one real chat call (not cached, no retries) and shows the start of the reply and its latency; first checks that
 * GET /models lists the model when the server has that route, since many servers answer for any model name.
 */
export async function testEndpointConnection(db: Database, actor: SessionUser, id: string): Promise<ConnectionTest | null> {
  assertAllowed(actor, "manageEndpoints");
  const config = await loadEndpointConfig(db, id);
  if (!config) return null;
  const models = await listedModels(config);
  const modelListed = models === null ? null : models.includes(config.model);
  const client = chatClientFor({ ...config, timeoutMs: Math.min(config.timeoutMs, 30_000) }, { maxRetries: 0 });
  const outcome = await client.complete([{ role: "user", content: "Reply with the word: ok" }], { params: { max_tokens: 8 } });
  const notListed =
    modelListed === false
      ? `The server does not list ${config.model} at /models (it lists ${models!.slice(0, 5).join(", ") || "nothing"}${models!.length > 5 ? ", …" : ""}). `
      : "";
  if (outcome.ok) {
    return {
      ok: modelListed !== false,
      message: `${notListed}${config.model} answered in ${Math.round(outcome.latencyMs)} ms${modelListed === null ? " (the server has no /models list to check the name against)" : ""}.`,
      latencyMs: outcome.latencyMs,
      replyStart: replyStart(outcome.content),
      modelListed,
    };
  }
  return { ok: false, message: redactKey(`${notListed}${outcome.error.kind}: ${outcome.error.message}`, config.apiKey), latencyMs: outcome.latencyMs, replyStart: null, modelListed };
}

/** Providers sometimes echo the key in an error ("Incorrect API key provided: sk-…"): never pass it on. */
export function redactKey(message: string, apiKey: string | null): string {
  if (!apiKey || apiKey.length < 4) return message;
  return message.split(apiKey).join("[redacted]");
}
