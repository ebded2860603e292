import { describe, expect, it } from "vitest";
import { attemptTimeline, outcomeTone, type StoredAttempt } from "./attempt-timeline";
import { applyOfficialAutofixes } from "@/lib/workflow/repair-official";

const simple = '{"nodes_info": [{"id": "1", "type": "start", "param": {"variables": [["q", "string"]]}}, {"id": "2", "type": "end", "param": {"outputs": [["a", ["q", "1"]]]}}], "edges": [["1", 0, "2"]]}';
const answer = (body: string) => `<node_selection>start, end</node_selection>\n<design_principle>why</design_principle>\n<workflow>${body}</workflow>`;

function row(fields: Partial<StoredAttempt> & Pick<StoredAttempt, "index" | "raw" | "outcome">): StoredAttempt {
  return { message: "build it", candidate: null, repairs: "[]", issues: "[]", diagnostics: "[]", latencyMs: null, inputTokens: null, outputTokens: null, ...fields };
}

describe("attemptTimeline", () => {
  it("orders attempts by index and diffs the raw answer (after </think>) against the repaired candidate", () => {
    const raw = `<think>plan</think>${answer("\n```json\n" + simple + "\n```\n")}`;
    const repaired = applyOfficialAutofixes(raw.split("</think>").at(-1)!);
    if (!repaired.ok) throw new Error("the repairs raised");
    expect(repaired.applied.map((fix) => fix.code)).toContain("strip-code-fence");
    const timeline = attemptTimeline([
      row({ index: 2, raw, outcome: "accepted", candidate: repaired.text, repairs: JSON.stringify(repaired.applied), latencyMs: 1200 }),
      row({ index: 1, raw: "no tags here", outcome: "no-tags", issues: JSON.stringify([{ code: "MISSING_JSON", message: "no workflow" }]) }),
    ]);
    expect(timeline.map((attempt) => attempt.index)).toEqual([1, 2]);
    const [first, second] = timeline as [(typeof timeline)[0], (typeof timeline)[0]];
    expect(first.diff).toBeNull();
    expect(first.issues).toEqual([{ code: "MISSING_JSON", message: "no workflow" }]);
    expect(second.rawAnswer.startsWith("<node_selection>")).toBe(true);
    expect(second.diff).not.toBeNull();
    const deleted = second.diff!.parts.filter((part) => part.op === "delete").map((part) => part.text).join("");
    expect(deleted).toContain("```json");
    expect(second.repairs.map((repair) => repair.code)).toEqual(repaired.applied.map((fix) => fix.code));
    expect(second.repairs[0]!.diff.deleted).toBeGreaterThan(0);
    expect(second.latencyMs).toBe(1200);
  });

  it("reads diagnostics with their node and hint, and reports unreadable columns instead of throwing", () => {
    const [attempt] = attemptTimeline([
      row({
        index: 1,
        raw: answer(simple),
        outcome: "issues",
        candidate: answer(simple),
        repairs: "not json",
        diagnostics: JSON.stringify([{ code: "C2W-REF-001", message: "unknown node", nodeId: "3", hint: "reference node 1" }, { message: "no code" }]),
      }),
    ]);
    expect(attempt!.diagnostics).toEqual([{ code: "C2W-REF-001", message: "unknown node", nodeId: "3", hint: "reference node 1" }]);
    expect(attempt!.unreadable).toEqual(["repairs"]);
    expect(attempt!.repairs).toEqual([]);
    // The candidate equals the raw answer: no diff to show.
    expect(attempt!.diff).toBeNull();
  });

  it("reads the opencode run behind an attempt, and says so when it cannot", () => {
    const run = { agent: "opencode-ai 1.3.2", exitCode: 0, durationMs: 4100, timedOut: false, steps: ["thinking", answer(simple)], chosenStep: 1, hasTags: true, sessionId: "ses_1", stderrTail: "" };
    const [read, broken, none] = attemptTimeline([
      row({ index: 1, raw: answer(simple), outcome: "accepted", agentRun: JSON.stringify(run) }),
      row({ index: 2, raw: "x", outcome: "no-tags", agentRun: "[1" }),
      row({ index: 3, raw: "x", outcome: "no-tags" }),
    ]);
    expect(read?.agentRun).toEqual(run);
    expect(broken?.agentRun).toBeNull();
    expect(broken?.unreadable).toEqual(["agentRun"]);
    expect(none?.agentRun).toBeNull();
    expect(none?.unreadable).toEqual([]);
  });

  it("gives each outcome a tone", () => {
    expect([outcomeTone("accepted"), outcomeTone("answered"), outcomeTone("issues"), outcomeTone("timeout"), outcomeTone("no-tags")]).toEqual(["good", "good", "warn", "bad", "bad"]);
  });
});
