// A stub OpenAI-compatible chat-completions server on 127.0.0.1 that counts the replies it delivered, per question,
// and can hold every reply (then drop the held ones) so a test can kill a client with no reply in flight to it.
// Not a model: it answers with a test's function.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { listenOnLoopback, readBody } from "./loopback-server";

export type StubReply =
  | { kind: "reply"; content: string; delayMs?: number }
  | { kind: "error"; status: number; headers?: Record<string, string>; delayMs?: number };

export interface StubCall {
  /** Hash of the messages (one judge question and its sample number appear as one key per sample when asked alike). */
  question: string;
  userMessage: string;
  authorization: string | undefined;
  receivedAt: number;
}

export interface DeliveryCountingStub {
  baseURL: string;
  /** Requests received. */
  readonly received: StubCall[];
  /** Replies (200s) delivered to a client still listening, per question hash. */
  readonly delivered: Map<string, number>;
  setHandler(handler: (call: StubCall, index: number) => StubReply): void;
  /** Stops replying: replies due from now on are held, never sent. */
  hold(): void;
  /** Drops every reply not yet sent (their connections are destroyed), replies normally again; returns how many. */
  dropHeldAndResume(): number;
  close(): Promise<void>;
}

export async function startDeliveryCountingStub(handler: (call: StubCall, index: number) => StubReply): Promise<DeliveryCountingStub> {
  let current = handler;
  const received: StubCall[] = [];
  const delivered = new Map<string, number>();
  let holding = false;
  const held: { destroy(): void }[] = [];
  // Requests received before a drop are never answered, even when their reply was not yet due at the drop.
  let dropBelow = 0;
  const server = createServer((req, res) => {
    // Like servers without a model list: only chat completions are served (GET /models and the rest answer 404).
    if (req.method !== "POST" || !req.url?.replace(/\?.*$/, "").endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "the stub serves POST /v1/chat/completions only", type: "not_found" } }));
      return;
    }
    void readBody(req).then((bytes) => {
      const body = JSON.parse(bytes.toString("utf8")) as { model: string; messages: { role: string; content: string }[] };
      const userMessage = body.messages.filter((message) => message.role === "user").map((message) => message.content).join("\n");
      const call: StubCall = {
        question: createHash("sha256").update(JSON.stringify(body.messages)).digest("hex"),
        userMessage,
        authorization: req.headers.authorization,
        receivedAt: Date.now(),
      };
      const index = received.length;
      received.push(call);
      const reply = current(call, index);
      setTimeout(() => {
        if (res.destroyed) return;
        if (index < dropBelow) {
          res.destroy();
          return;
        }
        if (holding) {
          held.push(res);
          return;
        }
        if (reply.kind === "error") {
          res.writeHead(reply.status, { "content-type": "application/json", ...(reply.headers ?? {}) });
          res.end(JSON.stringify({ error: { message: `stub error ${reply.status}`, type: "stub_error" } }));
          return;
        }
        const payload = JSON.stringify({
          id: `stub-${index}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(payload, () => delivered.set(call.question, (delivered.get(call.question) ?? 0) + 1));
      }, reply.delayMs ?? 0);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    delivered,
    setHandler(next) {
      current = next;
    },
    hold() {
      holding = true;
    },
    dropHeldAndResume() {
      const dropped = held.splice(0);
      for (const res of dropped) res.destroy();
      holding = false;
      const unanswered = received.length - [...delivered.values()].reduce((sum, count) => sum + count, 0);
      dropBelow = received.length;
      return unanswered;
    },
    close,
  };
}
