// A deterministic, valid synthetic workflow of any size, so layout tests and the viewer benchmark exercise layout
// rather than error overlays.

import type { JsonObject, JsonValue } from "../workflow/python-values";

interface Builder {
  nodes: JsonObject[];
  edges: JsonValue[][];
  next: number;
}

function add(builder: Builder, type: string, param: JsonObject, id = String(builder.next++)): string {
  builder.nodes.push({ id, type, param });
  return id;
}

function llm(builder: Builder, from: string): string {
  return add(builder, "llm", { system: "You are a careful assistant.", user: `Continue from {{#'${from}'.text#}} in three sentences.` });
}

/** Appends one block after `from` and returns the id its successors connect to. */
function block(builder: Builder, from: string, kind: number): string {
  const { edges } = builder;
  switch (kind % 4) {
    case 0: {
      const a = llm(builder, from);
      edges.push([from, 0, a]);
      const b = add(builder, "code", {
        variables: [["text", ["text", a]]],
        outputs: [["summary", "string"]],
        code: "def main(text: str):\n    return {'summary': text[:200]}",
      });
      edges.push([a, 0, b]);
      const c = add(builder, "template-transform", { variables: [["s", ["summary", b]]], template: "Summary: {{ s }}" });
      edges.push([b, 0, c]);
      return c;
    }
    case 1: {
      const branch = add(builder, "if-else", { cases: [[null, [[["text", from], "contains", "urgent"]]], [null, [[["text", from], "empty"]]]] });
      edges.push([from, 0, branch]);
      const arms = [0, 1, 2].map((port) => {
        const arm = llm(builder, from);
        edges.push([branch, port, arm]);
        return arm;
      });
      const merge = add(builder, "variable-aggregator", { variables: arms.map((arm) => ["text", arm]) });
      for (const arm of arms) edges.push([arm, 0, merge]);
      return merge;
    }
    case 2: {
      const classify = add(builder, "question-classifier", { query_variable_selector: ["text", from], classes: ["billing", "technical", "other", "sales"] });
      edges.push([from, 0, classify]);
      const arms = [0, 1, 2, 3].map((port) => {
        const arm = llm(builder, from);
        edges.push([classify, port, arm]);
        return arm;
      });
      const merge = add(builder, "variable-aggregator", { variables: arms.map((arm) => ["text", arm]) });
      for (const arm of arms) edges.push([arm, 0, merge]);
      return merge;
    }
    default: {
      const split = add(builder, "code", {
        variables: [["text", ["text", from]]],
        outputs: [["parts", "array[string]"]],
        code: "def main(text: str):\n    return {'parts': text.split('\\n')}",
      });
      edges.push([from, 0, split]);
      const iteration = String(builder.next++);
      add(builder, "iteration", { iterator_selector: ["parts", split], output_selector: ["text", `${iteration}-3`] }, iteration);
      add(builder, "iteration-start", {}, `${iteration}-1`);
      add(builder, "template-transform", { variables: [["part", ["item", iteration]]], template: "Part: {{ part }}" }, `${iteration}-2`);
      add(builder, "llm", { system: "", user: `Rewrite {{#'${iteration}-2'.output#}}` }, `${iteration}-3`);
      edges.push([`${iteration}-1`, 0, `${iteration}-2`], [`${iteration}-2`, 0, `${iteration}-3`], [split, 0, iteration]);
      const join = add(builder, "template-transform", { variables: [["parts", ["output", iteration]]], template: "{{ parts | join('\\n') }}" });
      edges.push([iteration, 0, join]);
      return join;
    }
  }
}

export function syntheticWorkflow(nodeCount: number): { nodes_info: JsonObject[]; edges: JsonValue[][] } {
  const builder: Builder = { nodes: [], edges: [], next: 1 };
  let tail = add(builder, "start", { variables: [["text", "string"]] });
  for (let kind = 0; builder.nodes.length < nodeCount - 1; kind++) tail = block(builder, tail, kind);
  const end = add(builder, "end", { outputs: [["result", ["text", tail]]] });
  builder.edges.push([tail, 0, end]);
  return { nodes_info: builder.nodes, edges: builder.edges };
}
