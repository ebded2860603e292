import { describe, expect, it } from "vitest";
import { scoreResponse, type ScoreTurn } from "../workflow/score";
import { diffWorkflows } from "./diff";
import { findRegressions } from "./regressions";

const TURN: ScoreTurn = { inputVars: ["query"], outputVars: ["result"], keyNodes: ["llm"] };

function record(nodes: unknown[], edges: unknown[], nodeSelection: string) {
  return { nodeSelection, designPrinciple: "A short plan.", workflow: JSON.stringify({ nodes_info: nodes, edges }) };
}

const START = { id: "1", type: "start", param: { variables: [["query", "string"]] } };
// Reads a start variable that is not declared: an analysis warning that both turns keep.
const ANSWER = (id: string) => ({ id, type: "llm", param: { system: "You answer questions.", user: "Answer {{#'1'.query#}} for {{#'1'.nickname#}}" } });

const passing = scoreResponse(
  record([START, ANSWER("2"), { id: "3", type: "end", param: { outputs: [["result", ["text", "2"]]] } }], [["1", 0, "2"], ["2", 0, "3"]], "Start, LLM, End"),
  TURN,
);

/** Inserts a code node as "2" (renumbering the rest) and renames the End output: step 1_3 now fails. */
const renamedOutput = scoreResponse(
  record(
    [
      START,
      { id: "2", type: "code", param: { variables: [["q", ["query", "1"]]], outputs: [["q2", "string"]], code: "def main(q):\n    return {'q2': q}" } },
      ANSWER("3"),
      { id: "4", type: "end", param: { outputs: [["answer", ["text", "3"]]] } },
    ],
    [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
    "Start, Code, LLM, End",
  ),
  TURN,
);

describe("findRegressions", () => {
  it("lists the checks that passed before and fail now", () => {
    expect(passing.passed).toBe(true);
    const report = findRegressions(passing, renamedOutput, { beforeTurn: TURN, afterTurn: TURN });
    expect(report.regressions.map((c) => c.check)).toEqual(["io-consistency", "passed"]);
    expect(report.checks.find((c) => c.check === "rule-judge")).toMatchObject({ before: true, after: true, regressed: false, fixed: false });
  });

  it("reports only diagnostics that are new, matching the others through renumbered node ids", () => {
    const warning = (score: typeof passing) => score.diagnostics.filter((d) => d.code === "unknown-variable");
    // The same warning sits on node "2" before and on node "3" after.
    expect(warning(passing).map((d) => d.location?.nodeId)).toEqual(["2"]);
    expect(warning(renamedOutput).map((d) => d.location?.nodeId)).toEqual(["3"]);
    const report = findRegressions(passing, renamedOutput);
    expect(report.newDiagnostics.map((d) => d.code)).toEqual(["output-variables-mismatch"]);
    expect(report.resolvedDiagnostics).toEqual([]);
  });

  it("counts the same diagnostics as resolved in the other direction and reuses a given diff", () => {
    const diff = diffWorkflows(
      { workflow: renamedOutput.parsed.json.ok ? renamedOutput.parsed.json.value : null },
      { workflow: passing.parsed.json.ok ? passing.parsed.json.value : null },
    );
    const report = findRegressions(renamedOutput, passing, { diff });
    expect(report.newDiagnostics).toEqual([]);
    expect(report.resolvedDiagnostics.map((d) => d.code)).toEqual(["output-variables-mismatch"]);
    expect(report.regressions).toEqual([]);
    expect(report.checks.filter((c) => c.fixed).map((c) => c.check)).toEqual(["io-consistency", "passed"]);
  });

  it("evaluates the I/O check on a response that failed an earlier step only when given the turn", () => {
    const unparsable = scoreResponse({ nodeSelection: "Start", designPrinciple: "x", workflow: "{ not json" }, TURN);
    const broken = scoreResponse(
      record([START, { id: "2", type: "llm", param: { system: "", user: ["not", "text"] } }, { id: "3", type: "end", param: { outputs: [["result", ["text", "2"]]] } }], [["1", 0, "2"], ["2", 0, "3"]], "Start, LLM, End"),
      TURN,
    );
    expect(broken.officialFailStep).toBe("step_1_2");
    const io = (report: ReturnType<typeof findRegressions>) => report.checks.find((c) => c.check === "io-consistency");
    expect(io(findRegressions(passing, broken))).toMatchObject({ before: true, after: null, regressed: false });
    expect(io(findRegressions(passing, broken, { afterTurn: TURN }))).toMatchObject({ after: true, regressed: false });
    const toUnparsable = findRegressions(passing, unparsable, { afterTurn: TURN });
    expect(toUnparsable.regressions.map((c) => c.check)).toEqual(["format", "passed"]);
    expect(io(toUnparsable)?.after).toBeNull();
    expect(toUnparsable.newDiagnostics.map((d) => d.officialStep)).toContain("step_1_1");
  });
});
