import { describe, expect, it } from "vitest";
import { diffWorkflows } from "./diff";
import type { ChangeKind, DiffSide, NodeDiff, WorkflowDiff } from "./types";

type Node = [id: string, type: string, param: Record<string, unknown>];
type Edge = [source: string, port: number, target: string];

function workflow(nodes: Node[], edges: Edge[]): unknown {
  return { nodes_info: nodes.map(([id, type, param]) => ({ id, type, param })), edges };
}

function side(nodes: Node[], edges: Edge[], extra: Omit<DiffSide, "workflow"> = {}): DiffSide {
  return { workflow: workflow(nodes, edges), ...extra };
}

function kinds(diff: WorkflowDiff): ChangeKind[] {
  return diff.changes.map((change) => change.kind);
}

function nodeByAfterId(diff: WorkflowDiff, id: string): NodeDiff {
  const found = diff.nodes.find((node) => node.after?.id === id);
  if (!found) throw new Error(`no node diff for after id ${id}`);
  return found;
}

function nodeByBeforeId(diff: WorkflowDiff, id: string): NodeDiff {
  const found = diff.nodes.find((node) => node.before?.id === id);
  if (!found) throw new Error(`no node diff for before id ${id}`);
  return found;
}

/** [before id, after id] of every matched pair. */
function pairs(diff: WorkflowDiff): [string | null, string | null][] {
  return diff.nodes.filter((n) => n.before && n.after).map((n) => [n.before?.id ?? null, n.after?.id ?? null]);
}

const START: Node = ["1", "start", { variables: [["query", "string"]] }];
const SUMMARY: Node = ["2", "llm", { system: "You summarise documents for busy readers.", user: "Summarise this text in three sentences: {{#'1'.query#}}" }];
const END_2: Node = ["3", "end", { outputs: [["result", ["text", "2"]]] }];
const BASE_NODES: Node[] = [START, SUMMARY, END_2];
const BASE_EDGES: Edge[] = [
  ["1", 0, "2"],
  ["2", 0, "3"],
];

describe("diffWorkflows: identical workflows", () => {
  it("reports every node unchanged and no change at all", () => {
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES), side(BASE_NODES, BASE_EDGES));
    expect(diff.summary.identical).toBe(true);
    expect(diff.changes).toEqual([]);
    expect(diff.nodes.map((n) => n.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(diff.edges.map((e) => e.status)).toEqual(["unchanged", "unchanged"]);
    expect(pairs(diff)).toEqual([
      ["1", "1"],
      ["2", "2"],
      ["3", "3"],
    ]);
  });

  it("ignores object key order inside params", () => {
    const reordered: Node = ["2", "llm", { user: SUMMARY[2].user, system: SUMMARY[2].system }];
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES), side([START, reordered, END_2], BASE_EDGES));
    expect(diff.summary.identical).toBe(true);
  });
});

describe("diffWorkflows: adding and removing nodes", () => {
  const withSpeech: Node[] = [
    START,
    SUMMARY,
    ["3", "end", { outputs: [["result", ["text", "2"]], ["audio", ["files", "4"]]] }],
    ["4", "tts", { text: "{{#'2'.text#}}" }],
  ];
  const withSpeechEdges: Edge[] = [...BASE_EDGES, ["2", 0, "4"], ["4", 0, "3"]];

  it("reports an added node with its edges and reference, the rest matched by id", () => {
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES), side(withSpeech, withSpeechEdges));
    expect(nodeByAfterId(diff, "4").status).toBe("added");
    expect(pairs(diff)).toEqual([
      ["1", "1"],
      ["2", "2"],
      ["3", "3"],
    ]);
    expect(diff.nodes.filter((n) => n.status === "added")).toHaveLength(1);
    expect(diff.summary.nodes).toMatchObject({ added: 1, removed: 0, modified: 1, unchanged: 2, renamed: 0 });
    expect(diff.summary.edges).toEqual({ added: 2, removed: 0, unchanged: 2 });
    const end = nodeByAfterId(diff, "3");
    expect(end.status).toBe("modified");
    expect(end.fields).toEqual([{ op: "added", path: ["outputs", 1], after: ["audio", ["files", "4"]] }]);
    expect(end.references).toEqual([
      { op: "added", slot: "outputs/audio", after: { via: "selector", path: ["outputs", 1, 1], variable: "files", nodeId: "4", nodeLabel: 'Text to Speech "4"' } },
    ]);
    // In later-workflow order: node 2's new outgoing edge, the End node, then the new node and its edge.
    expect(kinds(diff)).toEqual(["output-added", "edge-added", "node-modified", "reference-added", "node-added", "edge-added"]);
    expect(diff.changes.find((c) => c.kind === "node-added")?.description).toBe('Added Text to Speech "4"');
    expect(diff.io.outputs).toEqual({ added: ["audio"], removed: [], kept: ["result"] });
  });

  it("reports the same node as removed in the other direction", () => {
    const diff = diffWorkflows(side(withSpeech, withSpeechEdges), side(BASE_NODES, BASE_EDGES));
    expect(nodeByBeforeId(diff, "4").status).toBe("removed");
    expect(diff.summary.nodes).toMatchObject({ added: 0, removed: 1, modified: 1 });
    expect(diff.summary.edges).toEqual({ added: 0, removed: 2, unchanged: 2 });
    expect(diff.changes.find((c) => c.kind === "node-removed")?.description).toBe('Removed Text to Speech "4"');
    // A removed node is listed right after its earlier predecessor's place.
    expect(diff.nodes.map((n) => (n.after ?? n.before)?.id)).toEqual(["1", "2", "3", "4"]);
  });
});

describe("diffWorkflows: ids renumbered after an insertion", () => {
  // Round 2 inserts a document extractor as node 2: every later id shifts by one.
  const before = side(
    [
      ["1", "start", { variables: [["paper", "file"]] }],
      ["2", "llm", { system: "You are a careful scientific summariser.", user: "Summarise the paper in plain words: {{#'1'.paper#}}" }],
      ["3", "llm", { system: "You translate English into French.", user: "Translate into French: {{#'2'.text#}}" }],
      ["4", "end", { outputs: [["summary", ["text", "3"]]] }],
    ],
    [
      ["1", 0, "2"],
      ["2", 0, "3"],
      ["3", 0, "4"],
    ],
  );
  const after = side(
    [
      ["1", "start", { variables: [["paper", "file"]] }],
      ["2", "document-extractor", { variable_selector: ["paper", "1"] }],
      ["3", "llm", { system: "You are a careful scientific summariser.", user: "Summarise the paper in plain words: {{#'2'.text#}}" }],
      ["4", "llm", { system: "You translate English into French.", user: "Translate into French: {{#'3'.text#}}" }],
      ["5", "end", { outputs: [["summary", ["text", "4"]]] }],
    ],
    [
      ["1", 0, "2"],
      ["2", 0, "3"],
      ["3", 0, "4"],
      ["4", 0, "5"],
    ],
  );

  it("matches the shifted nodes by content and notes the renames", () => {
    const diff = diffWorkflows(before, after);
    expect(pairs(diff)).toEqual([
      ["1", "1"],
      ["2", "3"],
      ["3", "4"],
      ["4", "5"],
    ]);
    expect(diff.renames).toEqual([
      { before: "2", after: "3" },
      { before: "3", after: "4" },
      { before: "4", after: "5" },
    ]);
    expect(nodeByAfterId(diff, "2").status).toBe("added");
    expect(nodeByAfterId(diff, "3").matchedById).toBe(false);
  });

  it("treats references to renumbered nodes as unchanged and reports the one real retarget", () => {
    const diff = diffWorkflows(before, after);
    // The translator and the end node only changed ids: nothing else.
    expect(nodeByAfterId(diff, "4")).toMatchObject({ status: "unchanged", renamed: true, fields: [], references: [] });
    expect(nodeByAfterId(diff, "5")).toMatchObject({ status: "unchanged", renamed: true, fields: [], references: [] });
    // The summariser now reads the extractor instead of the raw file.
    const summariser = nodeByAfterId(diff, "3");
    expect(summariser.status).toBe("modified");
    expect(summariser.references).toEqual([
      {
        op: "retargeted",
        slot: "user",
        before: { via: "inline", path: ["user"], variable: "paper", nodeId: "1", nodeLabel: 'Start "1"' },
        after: { via: "inline", path: ["user"], variable: "text", nodeId: "2", nodeLabel: 'Document Extractor "2"' },
      },
    ]);
    expect(diff.changes.find((c) => c.kind === "reference-retargeted")?.description).toBe(
      'LLM "3" user: reads "text" of Document Extractor "2" instead of "paper" of Start "1"',
    );
  });

  it("compares edges through the matching: only the edges around the inserted node change", () => {
    const diff = diffWorkflows(before, after);
    const show = (e: { source: string | null; target: string | null } | null): string => `${e?.source}->${e?.target}`;
    expect(diff.edges.filter((e) => e.status === "unchanged").map((e) => `${show(e.before)} = ${show(e.after)}`)).toEqual(["2->3 = 3->4", "3->4 = 4->5"]);
    expect(diff.edges.filter((e) => e.status === "added").map((e) => show(e.after))).toEqual(["1->2", "2->3"]);
    expect(diff.edges.filter((e) => e.status === "removed").map((e) => show(e.before))).toEqual(["1->2"]);
    expect(kinds(diff).filter((k) => k === "node-renamed")).toHaveLength(3);
  });
});

describe("diffWorkflows: field-level changes", () => {
  it("reports a changed prompt with a word diff of the text", () => {
    const edited: Node = ["2", "llm", { system: SUMMARY[2].system, user: "Summarise this text in five short bullet points: {{#'1'.query#}}" }];
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES), side([START, edited, END_2], BASE_EDGES));
    const node = nodeByAfterId(diff, "2");
    expect(node.status).toBe("modified");
    expect(node.fields).toHaveLength(1);
    const field = node.fields[0];
    expect(field).toMatchObject({ op: "changed", path: ["user"], before: SUMMARY[2].user, after: edited[2].user });
    expect(field?.text?.granularity).toBe("words");
    const parts = field?.text?.parts ?? [];
    expect(parts.filter((p) => p.op !== "insert").map((p) => p.text).join("")).toBe(SUMMARY[2].user);
    expect(parts.filter((p) => p.op !== "delete").map((p) => p.text).join("")).toBe(edited[2].user);
    expect(parts.filter((p) => p.op === "delete").map((p) => p.text.trim()).join(" ")).toBe("three sentences");
    expect(field?.text).toMatchObject({ deleted: 2, inserted: 4 });
    expect(kinds(diff)).toEqual(["node-modified"]);
    expect(diff.changes[0]?.description).toBe('Changed LLM "2": user');
  });

  it("diffs multi-line code by lines", () => {
    const code = (body: string): Node => ["2", "code", { variables: [["text", ["query", "1"]]], outputs: [["n", "number"]], code: body }];
    const before = "def main(text: str):\n    words = text.split()\n    return {'n': len(words)}\n";
    const after = "def main(text: str):\n    words = [w for w in text.split() if w]\n    return {'n': len(words)}\n";
    const diff = diffWorkflows(side([START, code(before), END_2], BASE_EDGES), side([START, code(after), END_2], BASE_EDGES));
    const field = nodeByAfterId(diff, "2").fields[0];
    expect(field?.path).toEqual(["code"]);
    expect(field?.text).toMatchObject({ granularity: "lines", inserted: 1, deleted: 1 });
    expect(field?.text?.parts.map((p) => p.op)).toEqual(["equal", "delete", "insert", "equal"]);
  });

  it("reports a retargeted selector as a reference change and a field change", () => {
    const twoLlms: Node[] = [START, SUMMARY, ["3", "llm", { system: "You write titles.", user: "A title for: {{#'1'.query#}}" }], ["4", "end", { outputs: [["result", ["text", "2"]]] }]];
    const edges: Edge[] = [
      ["1", 0, "2"],
      ["1", 0, "3"],
      ["2", 0, "4"],
      ["3", 0, "4"],
    ];
    const retargeted = twoLlms.map((n): Node => (n[0] === "4" ? ["4", "end", { outputs: [["result", ["text", "3"]]] }] : n));
    const diff = diffWorkflows(side(twoLlms, edges), side(retargeted, edges));
    const end = nodeByAfterId(diff, "4");
    expect(end.fields).toEqual([{ op: "changed", path: ["outputs", 0, 1, 1], before: "2", after: "3" }]);
    expect(end.references).toEqual([
      {
        op: "retargeted",
        slot: "outputs/result",
        before: { via: "selector", path: ["outputs", 0, 1], variable: "text", nodeId: "2", nodeLabel: 'LLM "2"' },
        after: { via: "selector", path: ["outputs", 0, 1], variable: "text", nodeId: "3", nodeLabel: 'LLM "3"' },
      },
    ]);
    expect(kinds(diff)).toEqual(["node-modified", "reference-retargeted"]);
  });

  it("notices a selector id written as a number instead of a string", () => {
    const numeric: Node = ["3", "end", { outputs: [["result", ["text", 2]]] }];
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES), side([START, SUMMARY, numeric], BASE_EDGES));
    expect(nodeByAfterId(diff, "3").fields).toEqual([{ op: "changed", path: ["outputs", 0, 1, 1], before: "2", after: 2 }]);
    expect(nodeByAfterId(diff, "3").references).toEqual([]);
  });

  it("reports a type renamed to its catalog id as a modification of the same node", () => {
    const template = (type: string): Node => ["2", type, { variables: [["q", ["query", "1"]]], template: "Question: {{q}}" }];
    const diff = diffWorkflows(side([START, template("template"), END_2], BASE_EDGES), side([START, template("template-transform"), END_2], BASE_EDGES));
    expect(nodeByAfterId(diff, "2")).toMatchObject({ status: "modified", typeChange: { before: "template", after: "template-transform" }, fields: [] });
    expect(diff.changes[0]?.description).toBe('Changed Template "2": type template → template-transform');
  });

  it("aligns list elements: an inserted start variable is one addition, not a cascade", () => {
    const start = (variables: string[][]): Node => ["1", "start", { variables }];
    const diff = diffWorkflows(
      side([start([["query", "string"], ["lang", "string"]]), SUMMARY, END_2], BASE_EDGES),
      side([start([["query", "string"], ["file", "file"], ["lang", "number"]]), SUMMARY, END_2], BASE_EDGES),
    );
    expect(nodeByAfterId(diff, "1").fields).toEqual([
      { op: "added", path: ["variables", 1], after: ["file", "file"] },
      { op: "changed", path: ["variables", 2, 1], beforePath: ["variables", 1, 1], before: "string", after: "number" },
    ]);
    expect(diff.io.inputs).toEqual({ added: ["file"], removed: [], kept: ["query", "lang"], retyped: [{ name: "lang", before: "string", after: "number" }] });
    expect(kinds(diff)).toEqual(["input-added", "input-retyped", "node-modified"]);
  });
});

describe("diffWorkflows: branch ports", () => {
  const cond = (word: string): unknown[] => [null, [[["query", "1"], "contains", word]]];
  const reply = (id: string, topic: string): Node => [id, "llm", { system: `You answer ${topic} questions.`, user: `Answer about ${topic}: {{#'1'.query#}}` }];
  const aggregate: Node = ["9", "variable-aggregator", { variables: [["text", "3"], ["text", "4"], ["text", "5"]] }];
  const end: Node = ["10", "end", { outputs: [["answer", ["output", "9"]]] }];

  it("compares if-else edges by case identity when a case is inserted before the others", () => {
    const before = side(
      [START, ["2", "if-else", { cases: [cond("refund")] }], reply("3", "refund"), reply("4", "general"), aggregate, end],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["2", 1, "4"],
        ["3", 0, "9"],
        ["4", 0, "9"],
        ["9", 0, "10"],
      ],
    );
    const after = side(
      [START, ["2", "if-else", { cases: [cond("urgent"), cond("refund")] }], reply("3", "refund"), reply("4", "general"), reply("5", "urgent"), aggregate, end],
      [
        ["1", 0, "2"],
        ["2", 1, "3"],
        ["2", 2, "4"],
        ["2", 0, "5"],
        ["3", 0, "9"],
        ["4", 0, "9"],
        ["5", 0, "9"],
        ["9", 0, "10"],
      ],
    );
    const diff = diffWorkflows(before, after);
    const ifElse = nodeByAfterId(diff, "2");
    expect(ifElse.branches).toEqual([
      { beforePort: null, afterPort: 0, beforeLabel: null, afterLabel: "IF" },
      { beforePort: 0, afterPort: 1, beforeLabel: "IF", afterLabel: "ELIF 1" },
      { beforePort: 1, afterPort: 2, beforeLabel: "ELSE", afterLabel: "ELSE" },
    ]);
    // The refund and ELSE edges kept their branch although their port numbers shifted.
    expect(diff.edges.filter((e) => e.status === "unchanged" && e.before?.source === "2").map((e) => [e.before?.port, e.after?.port])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const added = diff.edges.filter((e) => e.status === "added");
    expect(added.map((e) => `${e.after?.source}[${e.after?.portLabel}]->${e.after?.target}`)).toEqual(["2[IF]->5", "5[null]->9"]);
    expect(diff.summary.edges.removed).toBe(0);
    expect(diff.changes.find((c) => c.kind === "edge-added")?.description).toBe('Added edge If-Else "2" [IF] → LLM "5"');
    expect(ifElse.fields).toEqual([{ op: "added", path: ["cases", 0], after: cond("urgent") }]);
  });

  it("compares question-classifier edges by class name when a class is inserted", () => {
    const classifier = (classes: string[]): Node => ["2", "question-classifier", { query_variable_selector: ["query", "1"], classes }];
    const before = side(
      [START, classifier(["Billing", "Other"]), reply("3", "billing"), reply("4", "general"), aggregate, end],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["2", 1, "4"],
        ["3", 0, "9"],
        ["4", 0, "9"],
        ["9", 0, "10"],
      ],
    );
    const after = side(
      [START, classifier(["Billing", "Shipping", "Other"]), reply("3", "billing"), reply("4", "general"), reply("5", "shipping"), aggregate, end],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["2", 2, "4"],
        ["2", 1, "5"],
        ["3", 0, "9"],
        ["4", 0, "9"],
        ["5", 0, "9"],
        ["9", 0, "10"],
      ],
    );
    const diff = diffWorkflows(before, after);
    expect(diff.edges.filter((e) => e.status === "removed")).toEqual([]);
    expect(diff.edges.filter((e) => e.status === "added").map((e) => e.after?.portLabel ?? null)).toEqual(["Shipping", null]);
    expect(nodeByAfterId(diff, "2").branches?.find((b) => b.afterLabel === "Other")).toEqual({ beforePort: 1, afterPort: 2, beforeLabel: "Other", afterLabel: "Other" });
  });

  it("reports an edge moved to another branch as removed and added", () => {
    const make = (port: number): DiffSide =>
      side(
        [START, ["2", "if-else", { cases: [cond("refund")] }], reply("3", "refund"), reply("4", "general"), aggregate, end],
        [
          ["1", 0, "2"],
          ["2", port, "3"],
          ["2", 1 - port, "4"],
          ["3", 0, "9"],
          ["4", 0, "9"],
          ["9", 0, "10"],
        ],
      );
    const diff = diffWorkflows(make(0), make(1));
    expect(diff.summary.edges).toEqual({ added: 2, removed: 2, unchanged: 4 });
    expect(diff.changes.map((c) => c.description)).toContain('Removed edge If-Else "2" [IF] → LLM "3"');
  });
});

describe("diffWorkflows: iterations", () => {
  const translate = (id: string, source: string): Node => [id, "llm", { system: "You translate text into idiomatic Spanish.", user: `Translate into Spanish, keep the tone: {{#'${source}'.text#}}` }];

  it("reports an iteration added in round 2 and the LLM that moved into it", () => {
    const round1 = side(
      [["1", "start", { variables: [["text", "string"]] }], translate("2", "1"), ["3", "end", { outputs: [["translation", ["text", "2"]]] }]],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
      ],
      { nodeSelection: "Start, LLM, End" },
    );
    const round2 = side(
      [
        ["1", "start", { variables: [["text", "string"]] }],
        ["2", "code", { variables: [["text", ["text", "1"]]], outputs: [["parts", "array[string]"]], code: "def main(text):\n    return {'parts': text.split('\\n\\n')}" }],
        ["3", "iteration", { iterator_selector: ["parts", "2"], output_selector: ["text", "3-2"] }],
        ["3-1", "iteration-start", {}],
        ["3-2", "llm", { system: "You translate text into idiomatic Spanish.", user: "Translate into Spanish, keep the tone: {{#'3'.item#}}" }],
        ["4", "template-transform", { variables: [["parts", ["output", "3"]]], template: "{{ parts | join('\\n\\n') }}" }],
        ["5", "end", { outputs: [["translation", ["output", "4"]]] }],
      ],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["3-1", 0, "3-2"],
        ["3", 0, "4"],
        ["4", 0, "5"],
      ],
      { nodeSelection: "Start, Code, Iteration, Iteration-Start, LLM, Template, End" },
    );
    const diff = diffWorkflows(round1, round2);
    expect(diff.nodes.filter((n) => n.status === "added").map((n) => n.after?.id)).toEqual(["2", "3", "3-1", "4"]);
    expect(diff.nodes.filter((n) => n.status === "removed")).toEqual([]);
    const moved = nodeByAfterId(diff, "3-2");
    expect(moved.before?.id).toBe("2");
    expect(moved.move).toEqual({ fromParent: null, toParent: "3" });
    expect(diff.changes.find((c) => c.kind === "node-moved")?.description).toBe('LLM "3-2" moved into Iteration "3"');
    expect(diff.changes.find((c) => c.kind === "node-added" && c.node?.after?.id === "3-1")?.description).toBe('Added Iteration Start "3-1" inside Iteration "3"');
    expect(diff.selection).toEqual({ added: ["code", "iteration", "iteration-start", "template-transform"], removed: [], kept: ["start", "llm", "end"] });

    // And back: the LLM moves out of the iteration, which is removed with its other child.
    const back = diffWorkflows(round2, round1);
    expect(nodeByBeforeId(back, "3-2").move).toEqual({ fromParent: "3", toParent: null });
    expect(back.changes.find((c) => c.kind === "node-moved")?.description).toBe('LLM "2" moved out of Iteration "3" to the top level');
    expect(back.nodes.filter((n) => n.status === "removed").map((n) => n.before?.id)).toEqual(["2", "3", "3-1", "4"]);
  });

  it("keeps an iteration whose ids were renumbered matched, children included", () => {
    const loop = (at: string, shift: number): Node[] => [
      [at, "iteration", { iterator_selector: ["files", "1"], output_selector: ["text", `${at}-2`] }],
      [`${at}-1`, "iteration-start", {}],
      [`${at}-2`, "llm", { system: "Describe images.", user: `Describe this image: {{#'${at}'.item#}} (${shift})` }],
    ];
    const start: Node = ["1", "start", { variables: [["files", "array[file]"]] }];
    const before = side([start, ...loop("2", 0), ["3", "end", { outputs: [["out", ["output", "2"]]] }]], [["1", 0, "2"], ["2-1", 0, "2-2"], ["2", 0, "3"]]);
    const after = side(
      [start, ["2", "list-operator", { variable: ["files", "1"], operator: ["limit", 3] }], ...loop("3", 0), ["4", "end", { outputs: [["out", ["output", "3"]]] }]],
      [["1", 0, "2"], ["2", 0, "3"], ["3-1", 0, "3-2"], ["3", 0, "4"]],
    );
    const diff = diffWorkflows(before, after);
    expect(pairs(diff)).toEqual([
      ["1", "1"],
      ["2", "3"],
      ["2-1", "3-1"],
      ["2-2", "3-2"],
      ["3", "4"],
    ]);
    expect(diff.nodes.filter((n) => n.move)).toEqual([]);
    expect(nodeByAfterId(diff, "3-2").status).toBe("unchanged");
  });
});

describe("diffWorkflows: declarations and task requirements", () => {
  it("reports node_selection, end outputs and the task's required outputs changing", () => {
    const before = side(BASE_NODES, BASE_EDGES, {
      nodeSelection: "Start, LLM, End",
      turn: { inputVars: ["query"], outputVars: ["result"], keyNodes: ["llm"] },
    });
    const after = side(
      [START, SUMMARY, ["3", "end", { outputs: [["result", ["text", "2"]], ["audio", ["files", "4"]]] }], ["4", "tts", { text: "{{#'2'.text#}}" }]],
      [...BASE_EDGES, ["2", 0, "4"], ["4", 0, "3"]],
      { nodeSelection: "Start, LLM, Text to Speech, End", turn: { inputVars: ["query"], outputVars: ["result", "audio"], keyNodes: ["llm", "tts"] } },
    );
    const diff = diffWorkflows(before, after);
    expect(diff.selection).toEqual({ added: ["tts"], removed: [], kept: ["start", "llm", "end"] });
    expect(diff.task).toEqual({
      inputs: { added: [], removed: [], kept: ["query"] },
      outputs: { added: ["audio"], removed: [], kept: ["result"] },
      keyNodes: { added: ["tts"], removed: [], kept: ["llm"] },
    });
    expect(diff.changes.slice(0, 4).map((c) => [c.kind, c.description])).toEqual([
      ["task-output-added", 'The task now requires output "audio"'],
      ["task-key-node-added", "The task now requires a Text to Speech node"],
      ["selection-added", "node_selection now declares Text to Speech"],
      ["output-added", 'End output "audio" added'],
    ]);
    expect(diff.summary.byKind["selection-added"]).toBe(1);
  });

  it("does not compare selections or tasks that were not given", () => {
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES, { nodeSelection: "Start, LLM, End" }), side(BASE_NODES, BASE_EDGES));
    expect(diff.selection).toBeNull();
    expect(diff.task).toBeNull();
  });

  it("treats a missing node_selection tag (null) as declaring nothing", () => {
    const diff = diffWorkflows(side(BASE_NODES, BASE_EDGES, { nodeSelection: null }), side(BASE_NODES, BASE_EDGES, { nodeSelection: "Start, LLM, End" }));
    expect(diff.selection?.added).toEqual(["start", "llm", "end"]);
  });
});

describe("diffWorkflows: the change list", () => {
  it("gives every change a unique id that is the same when the diff is computed again", () => {
    const before = side(BASE_NODES, BASE_EDGES);
    const after = side(
      [START, ["2", "llm", { system: "Other.", user: "Other {{#'1'.query#}}" }], ["3", "llm", { system: "x", user: "y" }], ["4", "end", { outputs: [["result", ["text", "3"]]] }]],
      [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["3", 0, "4"],
      ],
    );
    const first = diffWorkflows(before, after);
    const second = diffWorkflows(before, after);
    const ids = first.changes.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.changes.map((c) => c.id)).toEqual(ids);
    expect(first.summary.changeCount).toBe(first.changes.length);
    expect(Object.values(first.summary.byKind).reduce((a, b) => a + b, 0)).toBe(first.changes.length);
  });
});

describe("diffWorkflows: broken inputs", () => {
  const broken: unknown[] = [
    null,
    undefined,
    5,
    "nodes",
    [],
    [1, 2],
    {},
    { nodes_info: "x", edges: 3 },
    { nodes_info: [1, "a", null, [], { id: 5, type: 7 }], edges: [1, ["1"], [null, 0, {}], ["1", "x", "2", "extra"]] },
    { nodes_info: [{ id: "1", type: "start" }, { id: "1", type: "llm", param: "text" }, { type: "end", param: { outputs: 5 } }], edges: [["1", 0, "1"]] },
    { nodes_info: [{ id: "__proto__", type: "constructor", param: { __proto__: 1, toString: [] } }], edges: [["__proto__", "__proto__", "hasOwnProperty"]] },
    { nodes_info: [{ id: "2", type: "if-else", param: { cases: "x" } }, { id: "3", type: "question-classifier", param: { classes: [1, null] } }], edges: [["2", -1, "3"], ["3", 1.5, "2"], ["2", true, "3"]] },
  ];

  it("never throws, and reports what it could not read", () => {
    for (const a of broken) {
      for (const b of broken) {
        expect(() => diffWorkflows({ workflow: a }, { workflow: b })).not.toThrow();
      }
    }
    expect(diffWorkflows({ workflow: 5 }, { workflow: null }).issues).toEqual({
      before: [{ code: "not-an-object", message: "The workflow is a number, not an object with nodes_info and edges." }],
      after: [{ code: "no-workflow", message: "There is no workflow (it did not parse, or the answer had none)." }],
    });
    expect(diffWorkflows({ workflow: {} }, { workflow: {} }).issues.before.map((i) => i.code)).toEqual(["no-nodes-info"]);
  });

  it("reports duplicate ids and malformed entries, and still diffs the readable nodes", () => {
    const duplicate = { nodes_info: [{ id: "1", type: "start", param: { variables: [] } }, { id: "1", type: "llm", param: { system: "", user: "hi" } }, 7], edges: [["1", 0, "1"], "x"] };
    const diff = diffWorkflows({ workflow: duplicate }, { workflow: { nodes_info: [{ id: "1", type: "start", param: { variables: [] } }], edges: [] } });
    expect(diff.issues.before.map((i) => i.code)).toEqual(["node-not-object", "duplicate-id", "edge-malformed"]);
    expect(diff.nodes.map((n) => [n.status, n.before?.type ?? n.after?.type])).toEqual([
      ["unchanged", "start"],
      ["removed", "llm"],
    ]);
  });

  it("diffs an empty workflow against a real one as everything added", () => {
    const diff = diffWorkflows({ workflow: null }, side(BASE_NODES, BASE_EDGES));
    expect(diff.summary.nodes.added).toBe(3);
    expect(diff.summary.edges.added).toBe(2);
    expect(diff.io.inputs.added).toEqual(["query"]);
  });
});
