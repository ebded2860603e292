import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { parseCheckPassFile } from "../benchmark/dataset";
import { buildTurnSpecs, type TurnSpec } from "../benchmark/turn";
import { parseDifyYaml } from "../workflow/dify-yaml";
import { buildResponseView, type ResponseViewInput } from "./response-view";

const DEMO = path.resolve(__dirname, "../../prisma/demo");

function turnsOf(dir: string): Map<string, TurnSpec> {
  const checkPass = parseCheckPassFile("check_pass_stage.json", JSON.parse(readFileSync(path.join(dir, "dataset", "check_pass_stage.json"), "utf8")));
  if (!checkPass.ok) throw new Error("cannot read check_pass_stage.json");
  return buildTurnSpecs(checkPass.value);
}

interface RecordLike {
  task: string;
  round: number;
  node_selection: string | null;
  design_principle: string | null;
  workflow: string | null;
}

function recordInput(runFile: string, task: string, round: number, turns: Map<string, TurnSpec>): ResponseViewInput {
  const records = JSON.parse(readFileSync(runFile, "utf8")) as RecordLike[];
  const record = records.find((r) => r.task === task && r.round === round);
  if (!record) throw new Error(`${task} ${round} not in ${runFile}`);
  return {
    rawText: null,
    nodeSelection: record.node_selection,
    designPrinciple: record.design_principle,
    workflow: record.workflow,
    turn: turns.get(`${task}_${round}`)!,
    appName: `${task}_${round}`,
  };
}

describe("buildResponseView on the demo runs", () => {
  const turns = turnsOf(path.join(DEMO, "benchmark"));
  const run = (name: string) => path.join(DEMO, "runs", `${name}.json`);

  it("marks the node that reads a node listed later (forward reference) and offers no YAML", () => {
    const view = buildResponseView(recordInput(run("demo_beta"), "ChangelogWriter", 2, turns));
    expect(view.officialFailStep).toBe("step_1_2");
    const forward = view.diagnostics.find((d) => d.code === "forward-reference");
    expect(forward?.nodeKeys.length).toBe(1);
    const reader = view.original.view!.nodes.find((n) => n.key === forward!.nodeKeys[0]);
    expect(reader?.workflowId).toBe("3");
    expect(reader?.diagnostics).toContain(forward!.id);
    expect(view.original.view!.edges.find((e) => e.key === forward!.edgeKey)).toMatchObject({ kind: "reference" });
    expect(view.original.yaml).toBeNull();
    expect(view.original.yamlMissingReason).toMatch(/step_1_2/);
    // Reordering the nodes repairs it; the repaired graph is not drawn because the original JSON parses.
    expect(view.repaired.applied.map((r) => r.code)).toContain("reorder-nodes");
    expect(view.repaired.view).toBeNull();
  });

  it("locates a comment in the JSON and draws the repaired graph, labelled by its repairs", () => {
    const input = recordInput(run("demo_alpha"), "GrantProposalDigest", 3, turns);
    const view = buildResponseView(input);
    expect(view.parses).toBe(false);
    expect(view.original.view).toBeNull();
    const comment = view.diagnostics.find((d) => d.code === "json-comment");
    expect(comment?.textField).toBe("workflow");
    const { offset, length } = comment!.location!;
    expect(input.workflow!.slice(offset!, offset! + length!)).toMatch(/^\/\*[\s\S]*\*\/$/);
    expect(view.repaired.applied.map((r) => r.code)).toContain("json-repair");
    expect(view.repaired.view?.nodes.length).toBeGreaterThan(2);
    expect(view.repaired.failStep).toBeNull();
    expect(parseDifyYaml(view.repaired.yaml!).ok).toBe(true);
  });

  it("draws an iteration's children inside it and exports Dify YAML for a valid response", () => {
    const view = buildResponseView(recordInput(run("demo_alpha"), "ReceiptBatcher", 2, turns));
    expect(view.passed).toBe(true);
    const nodes = view.original.view!.nodes;
    const iteration = nodes.find((n) => n.knownType === "iteration")!;
    expect(nodes.filter((n) => n.parentKey === iteration.key).map((n) => n.knownType)).toContain("iteration-start");
    const yaml = parseDifyYaml(view.original.yaml!);
    expect(yaml.ok && (yaml.value as { app: { name: string } }).app.name).toBe("ReceiptBatcher_2");
    expect(JSON.parse(view.original.prettyJson!)).toHaveProperty("nodes_info");
  });

  it("scores raw generation output from its raw text", () => {
    const items = JSON.parse(readFileSync(path.join(DEMO, "runs", "demo_delta.generation.json"), "utf8")) as { task: string; answer2?: string }[];
    const raw = items.find((item) => item.task === "ChangelogWriter")!.answer2!;
    const view = buildResponseView({ rawText: raw, nodeSelection: null, designPrinciple: null, workflow: null, turn: turns.get("ChangelogWriter_2")!, appName: "ChangelogWriter_2" });
    expect(view.source).toBe("raw");
    expect(view.officialFailStep).toBe("step_1_1");
    expect(view.texts.workflow?.startsWith("JSON")).toBe(true);
    expect(view.diagnostics[0]?.textField).toBe("workflow");
  });
});

describe.skipIf(!benchmarkDir)("buildResponseView on the shared runs", () => {
  it(`draws the largest recorded workflow (${benchmarkMissingReason} when skipped)`, () => {
    const dir = benchmarkDir!;
    const turns = turnsOf(dir);
    const view = buildResponseView(recordInput(path.join(dir, "runs", "claude_sonnet4d5.json"), "ResumeScreening", 3, turns));
    const nodes = view.original.view!.nodes;
    expect(nodes.filter((n) => n.knownType === "iteration")).toHaveLength(5);
    expect(nodes.filter((n) => n.parentKey !== null).length).toBeGreaterThan(5);
  });

  it("marks the forward reference of deepseek_v3d2 PerformanceChart round 2", () => {
    const dir = benchmarkDir!;
    const view = buildResponseView(recordInput(path.join(dir, "runs", "deepseek_v3d2.json"), "PerformanceChart", 2, turnsOf(dir)));
    const forward = view.diagnostics.find((d) => d.code === "forward-reference");
    expect(forward?.targetNodeId).toBe("9");
    expect(view.original.view!.edges.find((e) => e.key === forward!.edgeKey)?.source).toBe(view.original.view!.nodes.find((n) => n.workflowId === "9")!.key);
  });
});
