import { describe, expect, it } from "vitest";
import { runAgenticTurn, type CallResult } from "./attempts";
import { agenticMessage, contextPrefix, storedAnswer, TIMEOUT_ANSWER, zeroShotMessages } from "./protocol";

const good = '<node_selection>start, end</node_selection><design_principle>why</design_principle><workflow>{"nodes_info": [{"id": "1", "type": "start", "param": {"variables": [["q", "string"]]}}, {"id": "2", "type": "end", "param": {"outputs": [["a", ["q", "1"]]]}}], "edges": [["1", 0, "2"]]}</workflow>';
const withIssue = good.replace('"id": "1", "type": "start"', '"id": "7", "type": "start"').replace('["1", 0, "2"]', '["7", 0, "2"]').replace('["q", "1"]', '["q", "7"]');

function scripted(replies: CallResult[]) {
  const messages: string[] = [];
  return {
    messages,
    complete: async (message: string): Promise<CallResult> => {
      messages.push(message);
      return replies[messages.length - 1] ?? { kind: "reply", content: "nothing" };
    },
  };
}

describe("zero-shot protocol", () => {
  it("puts the stripped builder prompt first and earlier exchanges as turns", () => {
    expect(zeroShotMessages("  prompt\n", [{ query: "q1", answer: "a1" }], "q2")).toEqual([
      { role: "system", content: "prompt" },
      { role: "user", content: "q1" },
      { role: "assistant", content: "a1" },
      { role: "user", content: "q2" },
    ]);
    expect(storedAnswer("<think>a</think>b</think>\nanswer")).toBe("\nanswer");
  });
});

describe("agentic context", () => {
  it("is empty for round 1 and names completed rounds, the last workflow's variables and the rules after", () => {
    expect(contextPrefix([])).toEqual({ ok: true, prefix: "" });
    const result = contextPrefix([{ round: 1, query: "q1", answer: good }]);
    expect(result.ok).toBe(true);
    const prefix = result.ok ? result.prefix : "";
    expect(prefix.startsWith(`<completed_rounds>\nBelow are all previous successful rounds (query + response) for context:\n\n[Round 1 Query]\nq1\n\n[Round 1 Response]\n${good}\n</completed_rounds>\n\n`)).toBe(true);
    expect(prefix).toContain("<latest_variables_summary>\nSummary of latest workflow inputs/outputs:\nInput variables: q (string)\nOutput variables: a (from node 1.q)\n</latest_variables_summary>");
    expect(prefix.endsWith("for each branch.\n</multi-round_interaction_rules>\n\n")).toBe(true);
  });
  it("fails the task where the official code raises: a previous workflow that is a list", () => {
    expect(contextPrefix([{ round: 1, query: "q", answer: "<workflow>[1]</workflow>" }]).ok).toBe(false);
  });
});

describe("agentic attempts", () => {
  it("accepts the first valid attempt after repairs, stores the repaired answer and sends the skill inline", async () => {
    const fenced = good.replace("<workflow>", "<workflow>```json\n").replace("</workflow>", "\n```</workflow>");
    const script = scripted([{ kind: "reply", content: `<think>plan</think>${fenced}` }]);
    const turn = await runAgenticTurn({ skill: "SKILL", round: 1, query: "make it", prefix: "", feedback: false, complete: script.complete });
    expect(turn.ok && turn.accepted).toBe(true);
    expect(turn.ok ? turn.answer : "").toBe(good.replace("<workflow>", "<workflow>\n").replace("</workflow>", "\n</workflow>"));
    expect(turn.attempts[0]?.repairs.map((r) => r.code)).toEqual(["strip-code-fence"]);
    expect(script.messages[0]).toBe(agenticMessage("SKILL", "Workflow Creation Instruction for Round 1: make it"));
  });
  it("retries timeouts, tag-less and invalid replies with the identical message, then keeps the latest fallback", async () => {
    const script = scripted([
      { kind: "timeout", message: "timed out" },
      { kind: "reply", content: "no tags here" },
      { kind: "reply", content: withIssue },
      { kind: "reply", content: "<workflow>[1, 2</workflow>" },
      { kind: "reply", content: withIssue.replace("why", "why 2") },
    ]);
    const turn = await runAgenticTurn({ skill: "S", round: 1, query: "q", prefix: "", feedback: false, complete: script.complete });
    expect(turn.attempts.map((a) => a.outcome)).toEqual(["timeout", "no-tags", "issues", "invalid-json", "issues"]);
    expect(new Set(script.messages).size).toBe(1);
    expect(turn.ok && !turn.accepted && turn.answer.includes("why 2")).toBe(true);
  });
  it("stores the repaired TIMEOUT sentinel when no attempt ever had valid JSON", async () => {
    const script = scripted(Array.from({ length: 5 }, (): CallResult => ({ kind: "timeout", message: "t" })));
    const turn = await runAgenticTurn({ skill: "S", round: 1, query: "q", prefix: "", feedback: false, complete: script.complete });
    expect(turn.ok ? turn.answer : null).toBe(TIMEOUT_ANSWER);
  });
  it("fails the turn on an API error", async () => {
    const script = scripted([{ kind: "error", message: "HTTP 401" }]);
    const turn = await runAgenticTurn({ skill: "S", round: 1, query: "q", prefix: "", feedback: false, complete: script.complete });
    expect(turn).toMatchObject({ ok: false, error: "HTTP 401" });
  });
  it("in feedback mode tells attempt 2 the previous attempt's issues and located diagnostics found from the instruction alone", async () => {
    const script = scripted([{ kind: "reply", content: withIssue }, { kind: "reply", content: good }]);
    const query = "The user will provide a question (variable q). The workflow needs to output the answer (variable answer).";
    const turn = await runAgenticTurn({ skill: "S", round: 1, query, prefix: "", feedback: true, complete: script.complete });
    expect(turn.ok && turn.accepted).toBe(true);
    expect(script.messages[0]).not.toContain("previous_attempt_problems");
    expect(script.messages[1]).toContain("START_ID_WRONG");
    const diagnostics = turn.attempts[0]?.diagnostics ?? [];
    expect(diagnostics.map((item) => item.code)).toContain("instruction-variable-unused");
    expect(script.messages[1]).toContain('The instruction names the variable "answer"');
    for (const item of diagnostics.slice(0, 12)) expect(script.messages[1]).toContain(item.message);
  });
});
