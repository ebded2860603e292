// A stub OpenAI-compatible chat-completions server on 127.0.0.1 (node:http, an ephemeral port) for tests and
// benchmarks. It is not a model: it answers with fixed text, a test's function, replays of recorded judge replies,
// or faults (429 with Retry-After, 5xx, delays past a timeout, malformed bodies), and counts every request. A request
// with `"stream": true` (opencode's) is answered as server-sent chat.completion.chunk events, usage last.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { turnKey } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { officialInputText, officialQueriesText, parseJudgeReply, type ChatMessage } from "@/lib/judge/protocol";
import { officialNodeSelectionText } from "@/lib/workflow/node-selection";
import { pyRepr } from "@/lib/workflow/python-values";
import { cancellableDelays, listenOnLoopback, readBody } from "./loopback-server";

/** A chat-completions request as the stub received it. */
export interface StubRequest {
  model: string;
  messages: ChatMessage[];
  /** Every other body field (temperature, max_tokens, ...). */
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
  /** 0-based number of this request since the stub started. */
  index: number;
  /** The request body exactly as received. */
  raw: string;
}

/** What the stub sends back for one request. */
export type StubAnswer =
  /** A chat completion whose first choice has `content` (null sends a choice without text). */
  | { kind: "reply"; content: string | null; delayMs?: number }
  /** An OpenAI-style error body with this status and headers (e.g. 429 + Retry-After). */
  | { kind: "error"; status: number; headers?: Record<string, string>; message?: string; delayMs?: number }
  /** A body sent verbatim (malformed JSON, wrong shapes). */
  | { kind: "raw"; status?: number; contentType?: string; body: string; delayMs?: number };

export type StubHandler = (request: StubRequest) => StubAnswer | Promise<StubAnswer>;

export interface OpenAIStub {
  /** The base URL to give the openai client, e.g. "http://127.0.0.1:40123/v1". */
  baseURL: string;
  /** Chat-completion requests received. */
  readonly calls: number;
  /** The requests received (kept unless `record: false`). */
  readonly requests: readonly StubRequest[];
  setHandler(handler: StubHandler): void;
  close(): Promise<void>;
}

export interface StubOptions {
  /** Keep every request in `requests` (default true; benchmarks turn it off). */
  record?: boolean;
  /** Serve GET /v1/models listing these ids (absent: no such route, 404 as servers without one answer). */
  models?: readonly string[];
}

// -- modes -----------------------------------------------------------------------------------------------------------

/** Always the same reply. */
export function fixedReply(content: string, delayMs = 0): StubHandler {
  return () => ({ kind: "reply", content, delayMs });
}

/** The given answers for the first requests, then `then` for the rest. */
export function faultsThen(answers: readonly StubAnswer[], then: StubHandler): StubHandler {
  let served = 0;
  return (request) => {
    const answer = answers[served];
    served += 1;
    return answer ?? then(request);
  };
}

/** 429 with a Retry-After header (seconds, as text). */
export const rateLimited = (retryAfter: string): StubAnswer => ({ kind: "error", status: 429, headers: { "retry-after": retryAfter }, message: "Rate limit reached" });
export const serverError = (status = 500, headers: Record<string, string> = {}): StubAnswer => ({ kind: "error", status, headers, message: "The server had an error" });
export const malformedBody: StubAnswer = { kind: "raw", status: 200, contentType: "application/json", body: '{"choices": [' };
/** A reply that arrives only after `delayMs` (past a client timeout). */
export const slowReply = (delayMs: number, content = "<reason>slow</reason><result>true</result>"): StubAnswer => ({ kind: "reply", content, delayMs });

/** The official reply shape: a <reason> section, then a <result> section. */
export function officialReply(reason: string, verdict: boolean): string {
  return `<reason>${reason}</reason>\n<result>\n${verdict}\n</result>`;
}

// -- replay of recorded judge replies ----------------------------------------------------------------------------------

/** Recorded replies keyed by the judge's inputs as they appear in the prompt. */
export interface ReplayTable {
  replies: Map<string, string[]>;
}

const PASS_FIELDS = /^\n {4}node_selection: ([\s\S]*)\n {4}design_principle: ([\s\S]*)\n {4}workflow: ([\s\S]*)\n {4}gt_nodes: ([\s\S]*)\n {4}$/;
const RESOLVE_FIELDS =
  /^\n {4}<queries>\n {4}([\s\S]*)\n {4}<\/queries>\n\n {4}<input>\n {4}([\s\S]*)\n {4}<\/input>\n\n {4}<output>\n {4}([\s\S]*)\n {4}<\/output>\n {4}\n {4}<reference_answer>\n {4}([\s\S]*)\n {4}<\/reference_answer>\n {4}$/;

/** The judge's inputs read back out of a user message (null when it is neither official template). */
export function judgeInputsOf(userMessage: string): string | null {
  const pass = PASS_FIELDS.exec(userMessage);
  if (pass) return JSON.stringify(["pass", ...pass.slice(1)]);
  const resolve = RESOLVE_FIELDS.exec(userMessage);
  return resolve ? JSON.stringify(["resolve", ...resolve.slice(1)]) : null;
}

function addReply(table: ReplayTable, key: string, reply: string): void {
  const replies = table.replies.get(key) ?? [];
  if (!replies.includes(reply)) replies.push(reply);
  table.replies.set(key, replies);
}

/**
 * Recorded replies of runs: each pass-stage record that reached step 1_4 answers with its reason and verdict, each
 * judged test case with its resolve reason and verdict, keyed by the inputs the judge was shown.
 */
export function replayTable(
  runs: readonly { records: readonly RunRecord[] }[],
  turns: ReadonlyMap<string, TurnSpec>,
  queries: ReadonlyMap<string, readonly string[]>,
): ReplayTable {
  const table: ReplayTable = { replies: new Map() };
  for (const run of runs) {
    for (const record of run.records) {
      const turn = turns.get(turnKey(record.task, record.round));
      if (!turn) continue;
      const reached = record.valid || record.fail_step === "step_1_4" || record.fail_step === "step_1_5";
      if (reached && record.reason !== undefined && record.node_selection !== null) {
        const key = JSON.stringify(["pass", officialNodeSelectionText(record.node_selection), record.design_principle, record.workflow, pyRepr(turn.keyNodes)]);
        addReply(table, key, officialReply(record.reason, record.fail_step !== "step_1_4"));
      }
      for (const position of [1, 2, 3] as const) {
        const output = record[`llm_output_test${position}`];
        const reason = record[`llm_evaluate_reason_test${position}`];
        const test = turn.tests[position - 1];
        const history = queries.get(record.task);
        if (output === undefined || reason === undefined || !test || !history) continue;
        const key = JSON.stringify(["resolve", officialQueriesText(history, record.round), officialInputText(test.inputs), output, test.groundTruth ?? ""]);
        addReply(table, key, officialReply(reason, record[`test${position}`] === true));
      }
    }
  }
  return table;
}

/**
 * Answers each request with the recorded reply whose judge inputs match; 404 when none does. When the judge was
 * shown the same inputs several times (two test cases with identical inputs and outputs), their recorded replies
 * are served in turn if they agree on the verdict, and 409 answers when they do not (the inputs cannot tell them
 * apart).
 */
export function replay(table: ReplayTable, delayMs = 0): StubHandler {
  const served = new Map<string, number>();
  return (request) => {
    const user = request.messages.findLast((message) => message.role === "user");
    const key = user ? judgeInputsOf(user.content) : null;
    const replies = key ? table.replies.get(key) : undefined;
    if (!key || !replies || replies.length === 0) return { kind: "error", status: 404, message: "no recorded judge reply matches these inputs" };
    if (new Set(replies.map((reply) => parseJudgeReply(reply).verdict)).size > 1) return { kind: "error", status: 409, message: "recorded judge replies with different verdicts match these inputs" };
    const turn = served.get(key) ?? 0;
    served.set(key, turn + 1);
    return { kind: "reply", content: replies[turn % replies.length] as string, delayMs };
  };
}

// -- server ------------------------------------------------------------------------------------------------------------

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}, contentType = "application/json"): void {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body), ...headers });
  response.end(body);
}

const approxTokens = (text: string) => Math.ceil(text.length / 4);

function completion(model: string, messages: readonly ChatMessage[], content: string | null, index: number): string {
  const promptTokens = approxTokens(messages.map((m) => m.content).join(""));
  const completionTokens = approxTokens(content ?? "");
  return JSON.stringify({
    id: `chatcmpl-stub-${index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}

/** The same completion as server-sent events: the role, the content in up to three pieces, the finish, the usage. */
function completionEvents(model: string, messages: readonly ChatMessage[], content: string | null, index: number): string {
  const id = `chatcmpl-stub-${index}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
  const text = content ?? "";
  const third = Math.ceil(text.length / 3);
  const pieces = text === "" ? [] : [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter((piece) => piece !== "");
  const promptTokens = approxTokens(messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join(""));
  const completionTokens = approxTokens(text);
  return [
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
    ...pieces.map((piece) => chunk([{ index: 0, delta: { content: piece }, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chunk([], { usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } }),
    "data: [DONE]\n\n",
  ].join("");
}

/** Starts the stub on 127.0.0.1 at an ephemeral port. */
export async function startOpenAIStub(handler: StubHandler, options: StubOptions = {}): Promise<OpenAIStub> {
  let current = handler;
  let calls = 0;
  const requests: StubRequest[] = [];
  const record = options.record ?? true;
  const delays = cancellableDelays();

  const server = createServer((req, res) => {
    void (async () => {
      if (options.models && req.method === "GET" && req.url?.replace(/\?.*$/, "").endsWith("/models")) {
        send(res, 200, JSON.stringify({ object: "list", data: options.models.map((id) => ({ id, object: "model", owned_by: "stub" })) }));
        return;
      }
      if (req.method !== "POST" || !req.url?.replace(/\?.*$/, "").endsWith("/chat/completions")) {
        send(res, 404, JSON.stringify({ error: { message: "the stub serves POST /v1/chat/completions only", type: "not_found" } }));
        return;
      }
      let parsed: Record<string, unknown>;
      let raw: string;
      try {
        raw = (await readBody(req)).toString("utf8");
        parsed = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        send(res, 400, JSON.stringify({ error: { message: "the request body is not JSON", type: "invalid_request_error" } }));
        return;
      }
      const { model, messages, ...body } = parsed;
      const request: StubRequest = { model: String(model), messages: (messages ?? []) as ChatMessage[], body, headers: req.headers, index: calls, raw };
      calls += 1;
      if (record) requests.push(request);
      const answer = await current(request);
      if (answer.delayMs) await delays.wait(answer.delayMs);
      if (answer.kind === "reply" && body.stream === true) send(res, 200, completionEvents(request.model, request.messages, answer.content, request.index), { "cache-control": "no-cache" }, "text/event-stream");
      else if (answer.kind === "reply") send(res, 200, completion(request.model, request.messages, answer.content, request.index));
      else if (answer.kind === "error") send(res, answer.status, JSON.stringify({ error: { message: answer.message ?? `HTTP ${answer.status}`, type: "stub_error" } }), answer.headers);
      else send(res, answer.status ?? 200, answer.body, {}, answer.contentType ?? "application/json");
    })().catch((error: unknown) => send(res, 500, JSON.stringify({ error: { message: String(error) } })));
  });
  server.keepAliveTimeout = 30_000;
  const { port, close } = await listenOnLoopback(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return calls;
    },
    requests,
    setHandler(next) {
      current = next;
    },
    close() {
      delays.cancelAll();
      return close();
    },
  };
}
