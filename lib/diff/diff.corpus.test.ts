// The diff on the shared benchmark's recorded runs: real consecutive turns (an iteration added in round 2), the
// identity and mirror properties on every real workflow and pair, and invariance under id renumbering.
// Skipped, with a message, when the benchmark is absent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { mirrorProblems } from "../../test/support/diff-mirror";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { consecutiveTurns, type RunRecord } from "../benchmark/runs";
import { selectorRefs } from "../workflow/catalog";
import { findInlineReferences } from "../workflow/convert";
import { isJsonObject, type JsonValue } from "../workflow/python-values";
import { diffSideFromResponse, diffWorkflows } from "./diff";
import { canonicalTypeOf } from "./side";
import type { DiffSide } from "./types";

function sideOf(record: RunRecord): DiffSide {
  return diffSideFromResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow });
}

function nodeTypes(side: DiffSide): string[] {
  const nodes = isJsonObject(side.workflow as JsonValue) ? (side.workflow as { nodes_info?: unknown }).nodes_info : undefined;
  return Array.isArray(nodes) ? nodes.map((n) => (isJsonObject(n) && typeof n.type === "string" ? n.type : "")) : [];
}

const PLAIN_ID = /^[1-9][0-9]*$/;

/** Every id the workflow mentions: node ids, selector ids, inline reference ids, edge endpoints, canvas parents. */
function mentionedIds(workflow: JsonValue): Set<string> {
  const ids = new Set<string>();
  if (!isJsonObject(workflow)) return ids;
  const add = (id: JsonValue | undefined): void => {
    if (typeof id === "string" || typeof id === "number") ids.add(String(id));
  };
  const nodes = Array.isArray(workflow.nodes_info) ? workflow.nodes_info : [];
  const walk = (value: JsonValue): void => {
    if (typeof value === "string") for (const ref of findInlineReferences(value)) add(ref.nodeId ?? undefined);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isJsonObject(value)) Object.values(value).forEach(walk);
  };
  for (const node of nodes) {
    if (!isJsonObject(node)) continue;
    add(node.id);
    if (typeof node.id === "string" && node.id.includes("-")) add(node.id.slice(0, node.id.indexOf("-")));
    const type = canonicalTypeOf(typeof node.type === "string" ? node.type : null, node.type);
    for (const ref of selectorRefs({ type, param: node.param })) add(ref.nodeId);
    if (node.param !== undefined) walk(node.param);
  }
  for (const edge of Array.isArray(workflow.edges) ? workflow.edges : []) {
    if (Array.isArray(edge)) {
      add(edge[0]);
      add(edge[edge.length === 2 ? 1 : 2]);
    }
  }
  return ids;
}

/**
 * The workflow with every node id shifted by `shift` ("7" -> "7+shift", "7-2" -> "(7+shift)-2"), in selectors,
 * inline references and edges too. Ids that name no node are left alone, and the shift grows past them so that a
 * dangling reference never starts naming a node.
 */
function renumber(workflow: JsonValue, requestedShift: number): JsonValue {
  const copy = structuredClone(workflow);
  if (!isJsonObject(copy) || !Array.isArray(copy.nodes_info)) return copy;
  const nodeIds = new Set(copy.nodes_info.flatMap((node) => (isJsonObject(node) && typeof node.id === "string" ? [node.id] : [])));
  const dangling = [...mentionedIds(copy)].filter((id) => !nodeIds.has(id));
  const shiftedBy = (id: string, shift: number): string => {
    const dash = id.indexOf("-");
    const head = dash < 0 ? id : id.slice(0, dash);
    if (!PLAIN_ID.test(head) || (dash >= 0 && !nodeIds.has(head))) return id;
    return `${Number(head) + shift}${dash < 0 ? "" : id.slice(dash)}`;
  };
  let shift = requestedShift;
  while ([...nodeIds].some((id) => dangling.includes(shiftedBy(id, shift)))) shift += 1000;
  const mapping = new Map([...nodeIds].map((id) => [id, shiftedBy(id, shift)]));
  const mapId = (id: JsonValue): JsonValue => {
    const text = typeof id === "string" || typeof id === "number" ? String(id) : null;
    const next = text === null ? undefined : mapping.get(text);
    if (next === undefined) return id;
    return typeof id === "number" && PLAIN_ID.test(next) ? Number(next) : next;
  };
  const rewriteText = (text: string): string => {
    let out = "";
    let at = 0;
    for (const ref of findInlineReferences(text)) {
      const next = ref.nodeId === null ? undefined : mapping.get(ref.nodeId);
      if (next === undefined) continue;
      out += `${text.slice(at, ref.offset)}{{#'${next}'.${ref.variable}#}}`;
      at = ref.offset + ref.length;
    }
    return out + text.slice(at);
  };
  const rewriteStrings = (value: JsonValue): JsonValue => {
    if (typeof value === "string") return value.includes("{{#") ? rewriteText(value) : value;
    if (Array.isArray(value)) return value.map(rewriteStrings);
    if (isJsonObject(value)) {
      for (const key of Object.keys(value)) value[key] = rewriteStrings(value[key] as JsonValue);
    }
    return value;
  };
  for (const node of copy.nodes_info) {
    if (!isJsonObject(node)) continue;
    if (typeof node.id === "string") node.id = mapId(node.id);
    const type = canonicalTypeOf(typeof node.type === "string" ? node.type : null, node.type);
    for (const ref of selectorRefs({ type, param: node.param })) {
      let holder: JsonValue | undefined = node.param;
      for (const part of ref.path) holder = Array.isArray(holder) ? holder[part as number] : isJsonObject(holder) ? holder[part as string] : undefined;
      if (Array.isArray(holder)) holder[1] = mapId(holder[1] as JsonValue);
    }
    if (node.param !== undefined) node.param = rewriteStrings(node.param);
  }
  if (Array.isArray(copy.edges)) {
    // [source, port, target, …extra]; a two-element edge reads as [source, target].
    copy.edges = copy.edges.map((edge) => (Array.isArray(edge) ? edge.map((item, i) => (i === 0 || i === (edge.length === 2 ? 1 : 2) ? mapId(item) : item)) : edge));
  }
  return copy;
}

describe.skipIf(!benchmarkDir)(`workflow diff on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const corpus = loadRunCorpus(benchmarkDir);
  const turns = consecutiveTurns(corpus.runs).map((pair) => ({ ...pair, a: sideOf(pair.earlier), b: sideOf(pair.later) }));
  const workflows = corpus.runs.flatMap(({ model, records }) => records.map((record) => ({ label: `${model}/${record.task}/${record.round}`, side: sideOf(record) })));
  const find = (model: string, task: string, round: number) => {
    const found = turns.find((t) => t.model === model && t.earlier.task === task && t.earlier.round === round);
    if (!found) throw new Error(`no turn pair ${model} ${task} ${round}`);
    return found;
  };

  it("has the consecutive turns of 12 models", () => {
    expect(new Set(turns.map((t) => t.model)).size).toBe(12);
    expect(turns).toHaveLength(624);
  });

  it("reports the iteration deepseek-v3.1 adds to StudyPlanner in round 2, its children and helpers as added, the rest matched", () => {
    const { a, b } = find("deepseek_v3d1", "StudyPlanner", 1);
    expect(nodeTypes(a)).not.toContain("iteration");
    const diff = diffWorkflows(a, b);
    expect(diff.nodes.filter((n) => n.status === "added").map((n) => `${n.after?.id}:${n.after?.type}`)).toEqual([
      "4:code",
      "5:iteration",
      "5-1:iteration-start",
      "5-2:llm",
      "6:template",
    ]);
    expect(diff.nodes.filter((n) => n.status === "removed")).toEqual([]);
    expect(diff.nodes.filter((n) => n.before && n.after).map((n) => `${n.before?.id}>${n.after?.id}`)).toEqual(["1>1", "2>2", "3>3", "4>7"]);
    expect(diff.renames).toEqual([{ before: "4", after: "7" }]);
    expect(diff.changes.find((c) => c.kind === "node-added" && c.node?.after?.id === "5-2")?.description).toBe('Added LLM "5-2" inside Iteration "5"');
    expect(diff.changes.find((c) => c.kind === "reference-retargeted")?.description).toBe('End "7" outputs/tutorial: reads "output" of Template "6" instead of "text" of LLM "3"');
    expect(diff.selection?.added).toEqual(expect.arrayContaining(["iteration", "iteration-start"]));
    expect(diff.io.outputs).toEqual({ added: ["tutorial"], removed: ["plan"], kept: [] });
  });

  it("reports every iteration that appears in round 2 of StudyPlanner, and its canvas, as added, and keeps start and end matched", () => {
    const pairs = turns.filter((t) => t.earlier.task === "StudyPlanner" && t.earlier.round === 1 && !nodeTypes(t.a).includes("iteration") && nodeTypes(t.b).includes("iteration"));
    expect(pairs.length).toBeGreaterThanOrEqual(8);
    for (const { model, a, b } of pairs) {
      const diff = diffWorkflows(a, b);
      const iterations = diff.nodes.filter((n) => n.after?.type === "iteration");
      expect(iterations.length, model).toBeGreaterThan(0);
      for (const iteration of iterations) {
        expect(iteration.status, model).toBe("added");
        const children = diff.nodes.filter((n) => n.after?.parentId === iteration.after?.id);
        expect(children.length, model).toBeGreaterThan(0);
        for (const child of children) expect(child.status, `${model} ${child.after?.id}`).toBe("added");
      }
      for (const type of ["start", "end"]) {
        expect(diff.nodes.filter((n) => n.after?.type === type).map((n) => n.status === "added"), `${model} ${type}`).toEqual([false]);
      }
    }
  });

  it("follows the LLM that claude-sonnet-4.5 moves into an iteration in PaperQA round 3", () => {
    const diff = diffWorkflows(find("claude_sonnet4d5", "PaperQA", 2).a, find("claude_sonnet4d5", "PaperQA", 2).b);
    const moved = diff.nodes.filter((n) => n.move);
    expect(moved.length).toBeGreaterThan(0);
    for (const node of moved) {
      expect(node.move?.fromParent).toBeNull();
      expect(node.after?.parentId).toBe(node.move?.toParent);
      expect(diff.nodes.find((n) => n.after?.id === node.move?.toParent)?.status).toBe("added");
    }
  });

  it("reports no change between every real workflow and itself (property over the whole corpus)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...workflows), ({ side }) => {
        const diff = diffWorkflows(side, side);
        expect(diff.changes).toEqual([]);
        expect(diff.nodes.filter((n) => n.status !== "unchanged" || n.renamed).map((n) => `${n.before?.id}>${n.after?.id}`)).toEqual([]);
      }),
      // Every real workflow as an explicit example, then random draws.
      { examples: workflows.map((w) => [w] as [typeof w]), numRuns: 100 },
    );
  }, 60_000);

  it("sees only renames when every id of a real workflow is shifted (property)", () => {
    const parsed = workflows.filter(({ side }) => side.workflow !== null);
    fc.assert(
      fc.property(fc.constantFrom(...parsed), fc.integer({ min: 1, max: 500 }), ({ label, side }, shift) => {
        const diff = diffWorkflows(side, { ...side, workflow: renumber(side.workflow as JsonValue, shift) });
        const kinds = new Set(diff.changes.map((c) => c.kind));
        kinds.delete("node-renamed");
        expect([...kinds], label).toEqual([]);
        expect(diff.nodes.filter((n) => n.status !== "unchanged").map((n) => `${n.before?.id}>${n.after?.id}`), label).toEqual([]);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it("gives mirror images for diff(a, b) and diff(b, a) on every real pair (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...turns), ({ model, earlier, a, b }) => {
        const problems = mirrorProblems(diffWorkflows(a, b), diffWorkflows(b, a));
        expect(problems, `${model} ${earlier.task} ${earlier.round}`).toEqual([]);
      }),
      { examples: turns.map((t) => [t] as [typeof t]), numRuns: 100 },
    );
  }, 60_000);

  it("mirrors added and removed nodes, edges and declarations on a real pair", () => {
    const { a, b } = find("claude_sonnet4d5", "Mermaid", 1);
    const forward = diffWorkflows(a, b);
    const backward = diffWorkflows(b, a);
    expect(forward.summary.nodes.added).toBeGreaterThan(5);
    expect(backward.summary.nodes.removed).toBe(forward.summary.nodes.added);
    expect(backward.summary.edges.removed).toBe(forward.summary.edges.added);
    expect(backward.selection?.removed).toEqual(forward.selection?.added);
    // The mirror check is not vacuous: a diff is not its own mirror when something was added.
    expect(mirrorProblems(forward, forward)).not.toEqual([]);
  });
});
