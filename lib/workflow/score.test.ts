import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benchmarkDir } from "@/test/support/benchmark-dir";
import type { Diagnostic } from "./diagnostics";
import type { JsonValue } from "./python-values";
import { mergeDiagnostics, nodeOrderOf, scoreResponse, sortDiagnostics, type ScoredResponse, type ScoreTurn } from "./score";

const TURN: ScoreTurn = { inputVars: ["doc"], outputVars: ["result"], keyNodes: ["llm", "document-extractor"] };
const NODE_TYPES = ["start", "end", "llm", "code", "template", "template-transform", "iteration", "iteration-start", "if-else", "variable-aggregator", "list-operator", "document-extractor", "tts", "echarts"];

function sample(): { nodes_info: JsonValue[]; edges: JsonValue[] } {
  return {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["doc", "file"]] } },
      { id: "2", type: "document-extractor", param: { variable_selector: ["doc", "1"] } },
      { id: "3", type: "llm", param: { system: "", user: "Summarise {{#'2'.text#}}" } },
      { id: "4", type: "end", param: { outputs: [["result", ["text", "3"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
  };
}

function record(workflow: string, nodeSelection = "Start, Document Extractor, LLM, End") {
  return { nodeSelection, designPrinciple: "design", workflow };
}

/** The scorer's guarantee: a failing response carries a diagnostic naming the failing step, with a category. */
function explaining(score: ScoredResponse): Diagnostic[] {
  return score.diagnostics.filter((d) => d.officialStep === score.failStep);
}

function assertExplained(score: ScoredResponse): void {
  if (!score.failStep) return;
  const reasons = explaining(score);
  expect(reasons.length, `no diagnostic explains ${score.failStep}`).toBeGreaterThan(0);
  for (const reason of reasons) expect(["format", "graph", "semantics", "consistency"]).toContain(reason.category);
}

describe("scoreResponse", () => {
  it("passes a correct response with no diagnostics and nothing to repair", () => {
    const score = scoreResponse(record(JSON.stringify(sample())), TURN);
    expect(score).toMatchObject({ officialFailStep: null, failStep: null, passed: true, diagnostics: [] });
    expect(score.ruleJudge?.verdict).toBe(true);
    expect(score.conversion?.graph.nodes).toHaveLength(4);
    expect(score.repaired).toMatchObject({ applied: [], failStep: null, passed: true });
  });

  it("records step_1_4 from the rule judge when steps 1_1–1_3 pass", () => {
    const score = scoreResponse(record(JSON.stringify(sample()), "Start, LLM, End"), TURN);
    expect(score).toMatchObject({ officialFailStep: null, failStep: "step_1_4", passed: false });
    expect(explaining(score).map((d) => d.code).sort()).toEqual(["key-node-not-declared", "node-type-undeclared"]);
    expect(score.repaired.applied.map((r) => r.code)).toEqual(["sync-node-selection"]);
    expect(score.repaired.passed).toBe(true);
  });

  it("keeps the rule judge for responses that fail conversion, and repairs them", () => {
    const wf = sample();
    (wf.nodes_info[2] as { type: string }).type = "template";
    const score = scoreResponse(record(JSON.stringify(wf)), TURN);
    expect(score.officialFailStep).toBe("step_1_2");
    expect(score.ruleJudge?.undeclaredUsed).toEqual(["template"]);
    expect(score.diagnostics[0]?.severity).toBe("error");
    assertExplained(score);
  });

  it("reports step_1_1 for unparsable JSON with a located diagnostic", () => {
    const score = scoreResponse(record('{"nodes_info": [}'), TURN);
    expect(score.failStep).toBe("step_1_1");
    expect(score.ruleJudge).toBeNull();
    expect(explaining(score)[0]?.location?.line).toBe(1);
  });
});

describe("sortDiagnostics", () => {
  it("orders by severity, then global before located, then by node order", () => {
    const d = (label: string, severity: Diagnostic["severity"], nodeId?: string): Diagnostic => ({
      code: "cycle",
      category: "graph",
      severity,
      message: label,
      ...(nodeId ? { location: { nodeId } } : {}),
    });
    const sorted = sortDiagnostics([d("a", "info"), d("b", "error", "3"), d("c", "error", "1"), d("e", "error"), d("f", "warning", "1")], new Map([["1", 0], ["3", 1]]));
    expect(sorted.map((x) => x.message)).toEqual(["e", "c", "b", "f", "a"]);
  });
});

/** The merge as one key per diagnostic gives it, at any size: the reference for the pairwise comparison of few. */
function mergeByKeys(primary: readonly Diagnostic[], official: readonly Diagnostic[]): Diagnostic[] {
  const place = (l: Diagnostic["location"]) => (l ? `${l.nodeId ?? ""}|${l.edgeIndex ?? ""}|${l.paramPath?.[0] ?? ""}` : "");
  const anchor = (d: Diagnostic) => `${d.officialStep}#${place(d.location)}`;
  const covered = new Set(primary.filter((d) => d.officialStep).map(anchor));
  const candidates = [...primary, ...official.filter((d) => !covered.has(anchor(d)))];
  const seen = new Set<string>();
  return candidates.filter((d) => {
    const key = `${d.code}\u0000${d.message}\u0000${JSON.stringify(d.location ?? null)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe("mergeDiagnostics", () => {
  const diagnostic: fc.Arbitrary<Diagnostic> = fc.record(
    {
      code: fc.constantFrom("cycle", "dangling-reference", "missing-output"),
      category: fc.constant("graph"),
      severity: fc.constantFrom("error", "warning"),
      message: fc.constantFrom("m", "n", "m\u0000n"),
      officialStep: fc.constantFrom("step_1_2", "step_1_3"),
      location: fc.record(
        { nodeId: fc.constantFrom("1", "2", "1|"), edgeIndex: fc.constantFrom(0, 1), paramPath: fc.constantFrom(["a"], ["a", 0], ["b"]) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["code", "category", "severity", "message"] },
  ) as fc.Arbitrary<Diagnostic>;

  it("keeps what keying every diagnostic keeps, in the same order, for few diagnostics and for many", () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 14 }), fc.array(diagnostic, { maxLength: 6 }), (primary, official) => {
        expect(mergeDiagnostics(primary, official)).toEqual(mergeByKeys(primary, official));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("scoreResponse never throws", () => {
  it("on arbitrary raw answers", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        assertExplained(scoreResponse({ raw }, TURN));
      }),
      { numRuns: 300 },
    );
  });

  it("on arbitrary text inside the three tags", { timeout: 60_000 }, () => {
    const text = fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 4 }), fc.constantFrom(JSON.stringify(sample())));
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), text, (selection, workflow) => {
        const raw = `<node_selection>${selection}</node_selection><design_principle>d</design_principle><workflow>${workflow}</workflow>`;
        assertExplained(scoreResponse({ raw }, TURN));
      }),
      { numRuns: 300 },
    );
  });

  // Generous timeout: 400 full scorings take ~1 s idle but several seconds on a loaded machine.
  it("on randomly mutated workflows", { timeout: 60_000 }, () => {
    const bases = corpusWorkflows(40);
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
      fc.record({ kind: fc.constant("type" as const), at: fc.nat(), type: fc.oneof(fc.constantFrom(...NODE_TYPES), fc.string({ maxLength: 8 })) }),
      fc.record({ kind: fc.constant("param" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 3 }) }),
      fc.record({ kind: fc.constant("param-key" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 3 }) }),
      fc.record({ kind: fc.constant("edge" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant("id" as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 1 }) }),
    );
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.option(fc.nat()), (pick, mutations, cut) => {
        const base = bases[pick % bases.length] as { workflow: { nodes_info: JsonValue[]; edges: JsonValue[] }; turn: ScoreTurn };
        const wf = structuredClone(base.workflow);
        // fast-check's JSON values are structurally the same JSON values as ours.
        for (const m of mutations) mutate(wf, m as unknown as Mutation);
        let text = JSON.stringify(wf);
        if (cut !== null) text = text.slice(0, cut % (text.length + 1));
        assertExplained(scoreResponse(record(text, "Start, LLM, Template, End"), base.turn));
      }),
      { numRuns: 400 },
    );
  });
});

type Mutation =
  | { kind: "delete" | "duplicate"; at: number }
  | { kind: "swap"; at: number; with: number }
  | { kind: "type"; at: number; type: string }
  | { kind: "param" | "param-key" | "edge" | "id"; at: number; value: JsonValue };

function mutate(wf: { nodes_info: JsonValue[]; edges: JsonValue[] }, m: Mutation): void {
  const nodes = wf.nodes_info;
  if (nodes.length === 0) return;
  const i = m.at % nodes.length;
  const node = nodes[i] as Record<string, JsonValue>;
  switch (m.kind) {
    case "delete":
      nodes.splice(i, 1);
      break;
    case "duplicate":
      nodes.splice(i, 0, structuredClone(node));
      break;
    case "swap": {
      const j = m.with % nodes.length;
      [nodes[i], nodes[j]] = [nodes[j] as JsonValue, node];
      break;
    }
    case "type":
      node.type = m.type;
      break;
    case "param":
      node.param = m.value;
      break;
    case "param-key": {
      const param = node.param;
      if (param && typeof param === "object" && !Array.isArray(param)) {
        const keys = Object.keys(param);
        if (keys.length) param[keys[m.at % keys.length] as string] = m.value;
      }
      break;
    }
    case "edge":
      if (wf.edges.length) wf.edges[m.at % wf.edges.length] = m.value;
      break;
    case "id":
      node.id = m.value;
      break;
  }
}

interface CorpusRecord {
  task: string;
  round: number;
  node_selection: string | null;
  design_principle: string | null;
  workflow: string | null;
  valid: boolean;
  fail_step?: string;
}

function loadCorpus(): { model: string; record: CorpusRecord; turn: ScoreTurn }[] {
  if (!benchmarkDir) return [];
  const dir = benchmarkDir;
  const turns = JSON.parse(readFileSync(path.join(dir, "dataset", "check_pass_stage.json"), "utf8")) as Record<
    string,
    { input_var: string[]; output_var: string[] | string[][]; related_nodes: string[] }
  >;
  return readdirSync(path.join(dir, "runs"))
    .filter((file) => file.endsWith(".json"))
    .flatMap((file) =>
      (JSON.parse(readFileSync(path.join(dir, "runs", file), "utf8")) as CorpusRecord[]).map((record) => {
        const spec = turns[`${record.task}_${record.round}`];
        const turn: ScoreTurn = { inputVars: spec?.input_var ?? [], outputVars: spec?.output_var ?? [], keyNodes: spec?.related_nodes ?? [] };
        return { model: path.basename(file, ".json"), record, turn };
      }),
    );
}

/** Parseable workflows spread over the corpus (or the built-in sample when the benchmark is absent). */
function corpusWorkflows(limit: number): { workflow: { nodes_info: JsonValue[]; edges: JsonValue[] }; turn: ScoreTurn }[] {
  const corpus = loadCorpus();
  const stride = Math.max(1, Math.floor(corpus.length / limit));
  const found: { workflow: { nodes_info: JsonValue[]; edges: JsonValue[] }; turn: ScoreTurn }[] = [];
  for (let i = 0; i < corpus.length && found.length < limit; i += stride) {
    const { record, turn } = corpus[i] as (typeof corpus)[number];
    try {
      const value = JSON.parse(record.workflow ?? "") as { nodes_info?: unknown; edges?: unknown };
      if (Array.isArray(value.nodes_info) && Array.isArray(value.edges)) {
        found.push({ workflow: value as { nodes_info: JsonValue[]; edges: JsonValue[] }, turn });
      }
    } catch {
      // unparsable records are covered by the raw-text properties
    }
  }
  return found.length ? found : [{ workflow: sample(), turn: TURN }];
}

describe.skipIf(!benchmarkDir)("scoring the recorded corpus", () => {
  const corpus = loadCorpus();
  const scored = corpus.map(({ model, record, turn }) => ({
    model,
    record,
    score: scoreResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow }, turn),
  }));

  it("reproduces every recorded step 1_1–1_3 outcome", () => {
    expect(scored).toHaveLength(948);
    const mismatches = scored.filter(({ record, score }) => {
      const recorded = record.valid || record.fail_step === "step_1_4" ? null : (record.fail_step ?? null);
      return score.officialFailStep !== recorded;
    });
    expect(mismatches.map(({ model, record }) => `${model}/${record.task}/${record.round}`)).toEqual([]);
  });

  it("explains every failing response with a categorised, located diagnostic for its failing step", () => {
    const unexplained = scored.filter(({ score }) => {
      if (!score.failStep) return false;
      const reasons = explaining(score);
      return reasons.length === 0 || !reasons.some((d) => d.location !== undefined) || reasons.some((d) => !d.category);
    });
    expect(unexplained.map(({ model, record }) => `${model}/${record.task}/${record.round}`)).toEqual([]);
    expect(scored.filter(({ score }) => score.failStep).length).toBeGreaterThan(400);
  });

  it("orders diagnostics as sorting them by the workflow's full node order does (it is read only when it can matter)", () => {
    const withSeveral = scored.filter(({ score }) => score.diagnostics.length > 1);
    expect(withSeveral.length).toBeGreaterThan(100);
    const misordered = withSeveral.filter(({ score }) => {
      const order = nodeOrderOf(score.parsed.json.ok ? score.parsed.json.value : undefined);
      return sortDiagnostics(score.diagnostics, order).some((d, i) => d !== score.diagnostics[i]);
    });
    expect(misordered.map(({ model, record }) => `${model}/${record.task}/${record.round}`)).toEqual([]);
  });

  it("only claims official steps the official pipeline actually fails at", () => {
    // A diagnostic tagged step_1_2 on a response that converts would be a false explanation.
    const wrong = scored.filter(({ score }) => score.officialFailStep === null && score.diagnostics.some((d) => d.officialStep === "step_1_2" || d.officialStep === "step_1_3"));
    expect(wrong.map(({ model, record }) => `${model}/${record.task}/${record.round}`)).toEqual([]);
  });
});
