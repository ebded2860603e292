import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir } from "@/test/support/benchmark-dir";
import {
  addVerdictPair,
  agreementRate,
  classifyDisagreement,
  emptyMatrix,
  failureReason,
  judgeWithSelection,
  matrixTotal,
  ruleJudge,
  selectionOf,
  usedNodeTypes,
} from "./rule-judge";

const workflow = {
  nodes_info: [
    { id: "1", type: "start", param: {} },
    { id: "2", type: "document-extractor", param: {} },
    { id: "3", type: "llm", param: {} },
    { id: "4", type: "llm", param: {} },
    { id: "5", type: "end", param: {} },
  ],
  edges: [],
};

describe("ruleJudge", () => {
  it("judges another workflow against a reused selection parse exactly as against the same text parsed again", () => {
    const renamed = { ...workflow, nodes_info: [...workflow.nodes_info.slice(0, 4), { id: "5", type: "template-transform", param: {} }] };
    const selections = ["Start, Document Extractor, LLM (x2), End", "<LLM></LLM> Template; removing End", "", null];
    const pairs = selections.flatMap((nodeSelection) => [workflow, renamed, { nodes_info: "none" }].map((other) => ({ nodeSelection, other })));
    expect(pairs).toHaveLength(12);
    const differing = pairs.filter(({ nodeSelection, other }) => {
      const first = ruleJudge({ nodeSelection, workflow, keyNodes: ["llm"] });
      const reused = judgeWithSelection(selectionOf(first), other, ["llm", "end"]);
      return JSON.stringify(reused) !== JSON.stringify(ruleJudge({ nodeSelection, workflow: other, keyNodes: ["llm", "end"] }));
    });
    expect(differing).toEqual([]);
  });

  it("passes when key nodes are declared and declared equals used", () => {
    const result = ruleJudge({
      nodeSelection: "Start, Document Extractor, LLM (x2), End",
      workflow,
      keyNodes: ["llm", "document-extractor"],
    });
    expect(result).toMatchObject({ verdict: true, missingKeyNodes: [], undeclaredUsed: [], declaredUnused: [] });
  });

  it("fails on a key node missing from the declaration even when it is used", () => {
    const result = ruleJudge({ nodeSelection: "Start, LLM, End", workflow, keyNodes: ["document-extractor"] });
    expect(result.verdict).toBe(false);
    expect(result.missingKeyNodes).toEqual(["document-extractor"]);
    expect(result.undeclaredUsed).toEqual(["document-extractor"]);
  });

  it("fails on a declared type that no node uses", () => {
    const result = ruleJudge({
      nodeSelection: "Start, Document Extractor, LLM, Template, End",
      workflow,
      keyNodes: ["llm", "llm"],
    });
    expect(result.verdict).toBe(false);
    expect(result.declaredUnused).toEqual(["template-transform"]);
    expect(result.missingKeyNodes).toEqual([]);
  });

  it("treats an undeclared iteration-start as a mismatch, like the recorded judge", () => {
    const result = ruleJudge({
      nodeSelection: "Start, Iteration, End",
      workflow: { nodes_info: [{ type: "start" }, { type: "iteration" }, { type: "iteration-start" }, { type: "end" }] },
      keyNodes: ["iteration"],
    });
    expect(result.undeclaredUsed).toEqual(["iteration-start"]);
    expect(result.verdict).toBe(false);
  });

  it("lists each used type once, in workflow order, however many distinct types a workflow makes up", () => {
    const made = Array.from({ length: 40 }, (_, i) => `made-up-${i}`);
    const types = [...made.slice(0, 30), "llm", ...made.slice(0, 30).reverse(), ...made.slice(30), "llm", "start"];
    const nodes = types.map((type, i) => ({ id: String(i), type, param: {} }));
    expect(usedNodeTypes({ nodes_info: nodes })).toEqual([...made.slice(0, 30), "llm", ...made.slice(30), "start"]);
    const result = ruleJudge({ nodeSelection: "Start, LLM, Code", workflow: { nodes_info: nodes }, keyNodes: ["code", "end", "code"] });
    expect(result.undeclaredUsed).toEqual([...made.slice(0, 30), ...made.slice(30)]);
    expect(result.declaredUnused).toEqual(["code"]);
    expect(result.missingKeyNodes).toEqual(["end"]);
  });

  it("tolerates malformed workflows", () => {
    expect(usedNodeTypes(null)).toEqual([]);
    expect(usedNodeTypes({ nodes_info: "x" })).toEqual([]);
    expect(usedNodeTypes({ nodes_info: [1, null, { type: 3 }, { type: "llm" }] })).toEqual(["llm"]);
    expect(ruleJudge({ nodeSelection: undefined, workflow: [], keyNodes: [] }).verdict).toBe(true);
  });
});

describe("classifyDisagreement and failureReason", () => {
  const base = { nodeSelection: "Start, Document Extractor, LLM, End", workflow, keyNodes: ["llm"] };

  it("calls a rejected display-name selection naming strictness, and a Rule 2a reason logical", () => {
    const result = ruleJudge(base);
    expect(classifyDisagreement(result, false, "Rule 2b fails: 'document extractor' != 'document-extractor'")).toBe(
      "naming-strictness",
    );
    expect(classifyDisagreement(result, false, "There is a logical inconsistency, so Rule 2a is violated.")).toBe(
      "logical-consistency",
    );
    expect(classifyDisagreement(result, true, null)).toBeNull();
  });

  it("separates a lenient iteration-start pass from a delta-style selection", () => {
    const iteration = {
      nodes_info: [{ type: "start" }, { type: "iteration" }, { type: "iteration-start" }, { type: "end" }],
    };
    const lenient = ruleJudge({ nodeSelection: "Start, Iteration, End", workflow: iteration, keyNodes: [] });
    expect(classifyDisagreement(lenient, true, null)).toBe("iteration-start-lenient");
    expect(failureReason(lenient)).toBe("iteration-start-only");
    const delta = ruleJudge({ nodeSelection: "I will add: LLM", workflow, keyNodes: [] });
    expect(classifyDisagreement(delta, true, null)).toBe("delta-selection");
    expect(failureReason(ruleJudge({ ...base, keyNodes: ["code"] }))).toBe("key-node-missing-only");
  });
});

describe.skipIf(!benchmarkDir)("rule judge vs the recorded step_1_4 verdicts", () => {
  it("agrees with at least 93% of the 637 judged records", () => {
    const dir = benchmarkDir as string;
    const turns = JSON.parse(readFileSync(path.join(dir, "dataset", "check_pass_stage.json"), "utf8")) as Record<
      string,
      { related_nodes: string[] }
    >;
    const matrix = emptyMatrix();
    for (const file of readdirSync(path.join(dir, "runs")).filter((f) => f.endsWith(".json"))) {
      const records = JSON.parse(readFileSync(path.join(dir, "runs", file), "utf8")) as Array<Record<string, unknown>>;
      for (const record of records) {
        if (record.valid !== true && record.fail_step !== "step_1_4") continue;
        const result = ruleJudge({
          nodeSelection: record.node_selection as string,
          workflow: JSON.parse(record.workflow as string),
          keyNodes: turns[`${String(record.task)}_${String(record.round)}`]?.related_nodes ?? [],
        });
        addVerdictPair(matrix, result.verdict, record.valid === true);
      }
    }
    expect(matrixTotal(matrix)).toBe(637);
    expect(agreementRate(matrix)).toBeGreaterThanOrEqual(0.93);
  });
});
