import "server-only";
// Replays one generated turn through the generation code itself (generateTurn, as the generate job runs it) with
// every model call served from a record instead of a model: the bundle export serves them from the call cache and
// records each request and reply; the bundle check serves them from the bundle. The replay gives back the answer the
// run stored exactly when the recorded replies are the ones that produced it.
import type { CallResult } from "@/lib/generation/attempts";
import type { Exchange, GenerationMode } from "@/lib/generation/protocol";
import type { ChatParams } from "@/lib/judge/identity";
import type { ChatMessage } from "@/lib/judge/protocol";
import type { GenerationOverrides } from "../evaluations/types";
import { generateTurn, type GenerationTask, type TurnRecord } from "../generation/runner";
import { chatParams } from "../jobs/generate-job";
import type { ChatClient, ChatOutcome } from "../llm";

/** What a call asked: a chat call's messages and parameters, or an agent run's message. */
export type ReplayRequest = { kind: "chat"; messages: ChatMessage[]; params: ChatParams } | { kind: "agent"; message: string };

export type ServedCall = { kind: "reply"; content: string } | { kind: "timeout" } | { kind: "missing"; reason: string };

export interface TurnReplay {
  mode: GenerationMode;
  builderPrompt: string;
  skill: string;
  overrides: GenerationOverrides;
  /** endpointIdentity of the answering endpoint, and its model (what the generate job's client says). */
  endpoint: string;
  model: string;
  task: GenerationTask;
  round: number;
  /** The earlier rounds' questions and stored answers. */
  history: readonly Exchange[];
  /** Serves call `index` (0-based within the turn). */
  serve: (index: number, request: ReplayRequest) => Promise<ServedCall>;
}

const NO_USAGE = { calls: 0, retries: 0, succeeded: 0, failed: 0, rateLimited: 0, promptTokens: 0, completionTokens: 0, latencyMsTotal: 0, latencyMsMax: 0 };

function agentResult(content: string): CallResult {
  try {
    const value = JSON.parse(content) as Partial<CallResult>;
    if (value && (value.kind === "reply" || value.kind === "timeout" || value.kind === "error")) return value as CallResult;
  } catch {
    // fall through: not a recorded agent run
  }
  return { kind: "error", message: "the recorded agent run is not readable" };
}

export function replayTurn(replay: TurnReplay): Promise<TurnRecord> {
  let index = 0;
  const client: ChatClient = {
    endpoint: replay.endpoint,
    model: replay.model,
    params: {},
    concurrency: 1,
    usage: () => NO_USAGE,
    async complete(messages, options = {}): Promise<ChatOutcome> {
      // As the generate job's caching client: the client's own parameters are none, the call's are the protocol's.
      const served = await replay.serve(index++, { kind: "chat", messages: messages.map((message) => ({ role: message.role, content: message.content })), params: { ...(options.params ?? {}) } });
      if (served.kind === "reply") return { ok: true, content: served.content, usage: null, finishReason: null, attempts: 0, latencyMs: 0 };
      if (served.kind === "timeout") return { ok: false, error: { kind: "timeout", status: null, message: "the call timed out (as recorded)" }, attempts: 1, latencyMs: 0 };
      return { ok: false, error: { kind: "client-error", status: null, message: served.reason }, attempts: 0, latencyMs: 0 };
    },
  };
  const agent =
    replay.mode === "agentic-opencode"
      ? {
          async run(message: string): Promise<CallResult> {
            const served = await replay.serve(index++, { kind: "agent", message });
            if (served.kind === "reply") return agentResult(served.content);
            if (served.kind === "timeout") return { kind: "timeout", message: "the agent run timed out (as recorded)" };
            return { kind: "error", message: served.reason };
          },
        }
      : undefined;
  return generateTurn(
    { client, mode: replay.mode, builderPrompt: replay.builderPrompt, skill: replay.skill, params: chatParams(replay.overrides), ...(agent ? { agent } : {}) },
    replay.task,
    replay.round,
    replay.history,
  );
}
