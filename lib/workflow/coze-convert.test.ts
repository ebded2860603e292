// The Coze conversion per node type, against the coze-export spec's worked examples (§13) and tables (§7–§9),
// and the package layout (§2). Ids are deterministic here: 100001 start, 900001 end, then 100002, 100003, ….
import { describe, expect, it } from "vitest";
import { readZip } from "../zip/zip";
import { cozeCode } from "./nodes/code";
import { convertToCoze, type CozeWorkflow } from "./coze-convert";
import { cozeManifest, cozePackage, parseCozeYaml } from "./coze-package";
import type { JsonValue } from "./python-values";

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function convert(value: JsonValue, name = "Demo_1"): CozeWorkflow {
  const result = convertToCoze(value, name);
  if (!result.ok) throw new Error(result.issues[0]?.message);
  return result.value;
}

function failure(value: JsonValue): { code: string; message: string } {
  const result = convertToCoze(value, "Demo_1");
  if (result.ok) throw new Error("expected the Coze conversion to fail");
  const [diagnostic] = result.issues;
  expect(diagnostic?.officialStep).toBeUndefined();
  return { code: diagnostic?.code ?? "", message: diagnostic?.message ?? "" };
}

const nodes = (workflow: CozeWorkflow): Node[] => workflow.nodes as Node[];
const byTitle = (workflow: CozeWorkflow, title: string): Node => {
  const found = nodes(workflow).find((node) => node.title === title);
  if (!found) throw new Error(`no node titled ${title}`);
  return found;
};
const input = (node: Node, name: string): Node => (node.parameters.node_inputs as Node[]).find((entry) => entry.name === name) as Node;

const START = { id: "1", type: "start", param: { variables: [["topic", "string"], ["count", "number"]] } };

describe("§13.1 start → llm → end", () => {
  const workflow = convert({
    nodes_info: [
      START,
      { id: "2", type: "llm", param: { system: "You are a writer.", user: "Write about {{#'1'.topic#}} in {{#1.count#}} lines. Again: {{#'1'.topic#}}" } },
      { id: "3", type: "end", param: { outputs: [["result", ["text", "2"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"]],
  });

  it("writes the top-level mapping", () => {
    expect(Object.keys(workflow).sort()).toEqual(["description", "edges", "icon", "id", "mode", "name", "nodes", "schema_version"]);
    expect(workflow).toMatchObject({ description: "coze workflow", icon: "plugin_icon/workflow.png", id: 1, mode: "workflow", name: "Demo_1", schema_version: "1.0.0" });
  });

  it("gives start and end their fixed ids, renders number as float, and lays out at 460 per layer", () => {
    const [start, llm, end] = nodes(workflow);
    expect(start).toMatchObject({ id: "100001", type: "start", title: "Start", position: { x: 0, y: 0 } });
    expect(start?.parameters.node_outputs).toEqual({ topic: { type: "string", value: null }, count: { type: "float", value: null } });
    expect(llm).toMatchObject({ id: "100002", type: "llm", title: "LLM", position: { x: 460, y: 0 } });
    expect(end).toMatchObject({ id: "900001", type: "end", position: { x: 920, y: 0 } });
    expect(start?.icon).toMatch(/\/icon-Start-v2\.jpg$/);
  });

  it("rewrites inline references to {{_id_var}} and lists each distinct one once", () => {
    const llm = byTitle(workflow, "LLM");
    const params = llm.parameters.llmParam as Node[];
    expect(params.map((p) => p.name)).toEqual(["temperature", "maxTokens", "thinkingType", "responseFormat", "modelName", "modelType", "parameters", "systemPrompt", "prompt"]);
    expect(params[8]?.input).toEqual({ type: "string", value: "Write about {{_100001_topic}} in {{_100001_count}} lines. Again: {{_100001_topic}}" });
    expect(params[3]?.input).toEqual({ type: "integer", value: "0" });
    expect(llm.parameters.node_inputs).toEqual([
      { name: "_100001_topic", input: { value: { path: "topic", ref_node: "100001" } } },
      { name: "_100001_count", input: { value: { path: "count", ref_node: "100001" } } },
    ]);
  });

  it("returns the end outputs by reference and connects the nodes without ports", () => {
    expect(byTitle(workflow, "End").parameters).toEqual({ node_inputs: [{ name: "result", input: { value: { path: "text", ref_node: "100002" } } }], terminatePlan: "returnVariables" });
    expect(workflow.edges).toEqual([{ source_node: "100001", target_node: "100002" }, { source_node: "100002", target_node: "900001" }]);
  });
});

describe("§13.2 if-else", () => {
  const ifElse = (cases: JsonValue, extra: JsonValue[] = []): JsonValue => ({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["query", "string"], ["score", "number"], ["kw", "string"]] } },
      { id: "2", type: "if-else", param: { cases } },
      { id: "3", type: "llm", param: { system: "", user: "a" } },
      { id: "4", type: "llm", param: { system: "", user: "b" } },
      { id: "5", type: "llm", param: { system: "", user: "c" } },
      { id: "7", type: "end", param: { outputs: [["o", ["text", "3"]]] } },
      ...extra,
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["2", 1, "4"], ["2", 2, "5"], ["3", 0, "7"], ["4", 0, "7"], ["5", 0, "7"]],
  });
  const cases = [
    [null, [[["query", "1"], "contains", "urgent"], [["score", "1"], "≥", "80"]]],
    ["or", [[["query", "1"], "empty"]]],
  ];

  it("maps logic and operators, gives valued conditions a right side and unary ones none", () => {
    const node = byTitle(convert(ifElse(cases)), "IF-Else");
    expect(node.type).toBe("condition");
    expect(node.parameters.branches).toEqual([
      {
        condition: {
          conditions: [
            { left: { input: { value: { path: "query", ref_node: "100001" } } }, operator: 7, right: { input: { value: "urgent" } } },
            { left: { input: { value: { path: "score", ref_node: "100001" } } }, operator: 14, right: { input: { value: "80" } } },
          ],
          logic: 2,
        },
      },
      { condition: { conditions: [{ left: { input: { value: { path: "query", ref_node: "100001" } } }, operator: 9 }], logic: 1 } },
    ]);
  });

  it("labels the ports true, true_1 and false (the ELSE port is the number of cases)", () => {
    const edges = convert(ifElse(cases)).edges as Node[];
    expect(edges.filter((edge) => edge.source_node === "100002").map((edge) => edge.source_port)).toEqual(["true", "true_1", "false"]);
  });

  it("gives every valued condition the first reference of the last valued one", () => {
    const withReference = [[null, [[["query", "1"], "contains", "urgent"], [["query", "1"], "is", "{{#'1'.kw#}}"]]]];
    const node = byTitle(convert(ifElse(withReference)), "IF-Else");
    const rights = (node.parameters.branches as Node[])[0]?.condition.conditions.map((c: Node) => c.right.input.value);
    expect(rights).toEqual([{ path: "kw", ref_node: "100001" }, { path: "kw", ref_node: "100001" }]);
  });

  it("fails when no condition has a value", () => {
    expect(failure(ifElse([[null, [[["query", "1"], "not empty"]]]])).code).toBe("coze-if-else-unvalued");
  });
});

describe("§13.3 iteration → batch", () => {
  const workflow = convert({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["files", "array[file]"]] } },
      { id: "2", type: "iteration", param: { iterator_selector: ["files", "1"], output_selector: ["output", "2-5"] } },
      { id: "2-1", type: "iteration-start", param: {} },
      { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
      { id: "2-3", type: "if-else", param: { cases: [[null, [[["text", "2-2"], "contains", "Abstract"]]]] } },
      { id: "2-4", type: "llm", param: { system: "", user: "Summarize #{{#'2'.index#}}: {{#'2-2'.text#}}" } },
      { id: "2-5", type: "template-transform", param: { variables: [["summary", ["text", "2-4"]], ["raw", ["text", "2-2"]]], template: "{{summary}} / {{ raw }} / {{raw}}" } },
      { id: "3", type: "end", param: { outputs: [["out", ["output", "2"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["2-1", 0, "2-2"], ["2-2", 0, "2-3"], ["2-3", 0, "2-4"], ["2-3", 1, "2-5"], ["2-4", 0, "2-5"]],
  });
  const batch = byTitle(workflow, "Iteration");

  it("emits one batch at top level holding the four built children (the iteration-start is dropped)", () => {
    expect(nodes(workflow).map((node) => node.type)).toEqual(["start", "batch", "end"]);
    expect(batch).toMatchObject({ id: "100002", position: { x: 460, y: 0 }, canvas_position: { x: 360, y: -400 } });
    expect((batch.nodes as Node[]).map((node) => [node.title, node.position])).toEqual([
      ["Document Extractor", { x: 0, y: 100 }],
      ["IF-Else", { x: 460, y: 100 }],
      ["LLM", { x: 920, y: 100 }],
      ["Template", { x: 1380, y: 100 }],
    ]);
    expect(batch.parameters.node_inputs).toEqual([{ name: "iterator_selector", input: { value: { path: "files", ref_node: "100001" } } }]);
  });

  it("binds the output to the named child and remaps selector names by title (not inline ones)", () => {
    const [extractor, condition, llm, template] = batch.nodes as Node[];
    expect(batch.parameters.node_outputs).toEqual({ output: { value: { type: "list", items: { value: null }, value: { path: "output", ref_node: template?.id } } } });
    expect(input(extractor as Node, "url").input.value).toEqual({ path: "iterator_selector", ref_node: "100002" });
    expect(condition?.parameters.branches[0].condition.conditions[0].left.input.value).toEqual({ path: "data", ref_node: extractor?.id });
    expect((llm?.parameters.llmParam as Node[])[8]?.input.value).toBe(`Summarize #{{_100002_index}}: {{_${extractor?.id}_text}}`);
    expect(template?.parameters.concatParams).toEqual([{ name: "concatResult", input: { type: "string", value: "{{String1}} / {{ raw }} / {{String2}}" } }]);
    expect(template?.parameters.node_inputs).toEqual([
      { name: "String1", input: { value: { path: "text", ref_node: llm?.id } } },
      { name: "String2", input: { value: { path: "data", ref_node: extractor?.id } } },
    ]);
  });

  it("routes inner edges with the shifted port labels and adds the batch's own two edges", () => {
    const [extractor, condition, llm, template] = (batch.nodes as Node[]).map((node) => node.id);
    expect(batch.edges).toEqual([
      { source_node: extractor, target_node: condition },
      { source_node: condition, source_port: "true", target_node: llm },
      { source_node: condition, source_port: "true_1", target_node: template },
      { source_node: llm, target_node: template },
      { source_node: "100002", source_port: "batch-function-inline-output", target_node: extractor },
      { source_node: template, target_node: "100002", target_port: "batch-function-inline-input" },
    ]);
    expect(workflow.edges).toEqual([{ source_node: "100001", target_node: "100002" }, { source_node: "100002", source_port: "batch-output", target_node: "900001" }]);
    expect(input(byTitle(workflow, "End"), "out").input.value).toEqual({ path: "output", ref_node: "100002" });
  });

  it("fails on a reference to the iteration-start, which Coze never registers", () => {
    const value: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["files", "array[file]"]] } },
        { id: "2", type: "iteration", param: { iterator_selector: ["files", "1"], output_selector: ["text", "2-2"] } },
        { id: "2-1", type: "iteration-start", param: {} },
        { id: "2-2", type: "llm", param: { system: "", user: "{{#'2-1'.item#}}" } },
        { id: "3", type: "end", param: { outputs: [["out", ["output", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    expect(failure(value).code).toBe("reference-iteration-start");
  });
});

/** A start, one node under test reading the start's `q`, and an end: the node's Coze form. */
function single(node: Node, variables: JsonValue = [["q", "string"]]): Node {
  const workflow = convert({
    nodes_info: [{ id: "1", type: "start", param: { variables } }, { id: "2", ...node }, { id: "3", type: "end", param: { outputs: [["o", ["q", "1"]]] } }],
    edges: [["1", 0, "2"], ["2", 0, "3"]],
  });
  return nodes(workflow)[1] as Node;
}

describe("§7 node types", () => {
  it("question-classifier: the last class is the default port; class_name reads classificationId", () => {
    const workflow = convert({
      nodes_info: [
        START,
        { id: "2", type: "question-classifier", param: { query_variable_selector: ["topic", "1"], classes: ["a", "b", "c"], instruction: "{{#'1'.topic#}}" } },
        { id: "3", type: "end", param: { outputs: [["o", ["class_name", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"], ["2", 1, "3"], ["2", 2, "3"]],
    });
    const classifier = byTitle(workflow, "Question Classifier");
    expect(classifier.type).toBe("intent");
    expect(classifier.parameters.intents).toEqual([{ name: "a" }, { name: "b" }]);
    expect(classifier.parameters.llmParam.systemPrompt).toEqual({ type: "string", value: { content: "{{#'1'.topic#}}", type: "literal" } });
    expect((workflow.edges as Node[]).filter((e) => e.source_node === classifier.id).map((e) => e.source_port)).toEqual(["branch_0", "branch_1", "default"]);
    expect(input(byTitle(workflow, "End"), "o").input.value).toEqual({ path: "classificationId", ref_node: classifier.id });
  });

  it("code: rewrites main into Coze's async main(args) and renders the outputs", () => {
    const node = single({ type: "code", param: { variables: [["a", ["q", "1"]]], outputs: [["n", "number"], ["items", "array[string]"]], code: "import re\ndef main(a: str):\n  return {'n': len(a)}" } });
    expect(node.parameters.code).toBe("async def main(args: Args) -> Output:\n  params = args.params\n  return {'n': len(params['a'])}");
    expect(node.parameters.language).toBe(3);
    expect(node.parameters.node_outputs).toEqual({ n: { type: "float", value: null }, items: { type: "list", items: { type: "string", value: null }, value: null } });
    // No match (a return annotation, no main) leaves the code as it is, as the official transform does.
    expect(cozeCode("def main(a) -> dict:\n    return {}")).toBe("def main(a) -> dict:\n    return {}");
    expect(cozeCode("x = 1")).toBe("x = 1");
    expect(cozeCode("def main(*args):\n    return {}")).toBeNull();
  });

  describe("code: an empty argument list leaves the body alone (the official transform skips empty names)", () => {
    // Expected texts are what the official auto_transform_code returns for the same source.
    it("a node with no input variables and def main():", () => {
      const node = single({ type: "code", param: { variables: [], outputs: [["text", "string"]], code: 'def main():\n\treturn {\n\t\t"text": "Invalid"\n\t}' } });
      expect(node.parameters.node_inputs).toEqual([]);
      expect(node.parameters.code).toBe('async def main(args: Args) -> Output:\n\tparams = args.params\n\treturn {\n\t\t"text": "Invalid"\n\t}');
    });

    it("def main( ): only whitespace between the parentheses", () => {
      expect(cozeCode('def main( ):\n  return {"x": 2}')).toBe('async def main(args: Args) -> Output:\n  params = args.params\n  return {"x": 2}');
    });

    it("a trailing comma, a doubled comma and an annotation without a name add no empty name", () => {
      expect(cozeCode('def main(a, ):\n    return {"a": a}')).toBe("async def main(args: Args) -> Output:\n    params = args.params\n    return {\"a\": params['a']}");
      expect(cozeCode('def main(a,, b):\n    return {"s": a + b}')).toBe("async def main(args: Args) -> Output:\n    params = args.params\n    return {\"s\": params['a'] + params['b']}");
      expect(cozeCode("def main(: str):\n    return {}")).toBe("async def main(args: Args) -> Output:\n    params = args.params\n    return {}");
    });
  });

  it("code: names outside ASCII have word boundaries, as in Python", () => {
    expect(cozeCode('def main(数据: str):\n    return {"n": len(数据)}')).toBe("async def main(args: Args) -> Output:\n    params = args.params\n    return {\"n\": len(params['数据'])}");
    // Still whole words only: 数据集 is another name.
    expect(cozeCode("def main(数据):\n    return {'n': 数据集}")).toBe("async def main(args: Args) -> Output:\n    params = args.params\n    return {'n': 数据集}");
  });

  it("document-extractor, tts, mermaid, google: plugin ids and single-reference inputs", () => {
    const extractor = single({ type: "document-extractor", param: { variable_selector: ["f", "1"] } }, [["f", "file"]]);
    expect((extractor.parameters.apiParam as Node[]).map((p) => p.input.value)).toEqual(["7405805158996934683", "read", "7405805158996918299", "文件读取"]);
    const tts = single({ type: "tts", param: { text: "Say {{#'1'.q#}} now" } });
    expect(tts.parameters.node_inputs).toEqual([{ name: "text", input: { value: { path: "q", ref_node: "100001" } } }]);
    expect(single({ type: "mermaid-converter", param: { mermaid_code: "graph TD; A-->B" } }).parameters.node_inputs).toEqual([{ name: "mermaidCode", input: { value: "graph TD; A-->B" } }]);
    expect((single({ type: "google-search", param: { query: "x" } }).parameters.apiParam as Node[])[1]?.input.value).toBe("search_url");
  });

  it("markdown-exporter: png goes to MD2Image, pptx has no to_format, md becomes markdown", () => {
    const png = single({ type: "markdown-exporter", param: { target_type: "png", md_text: "# t" } });
    expect((png.parameters.apiParam as Node[])[1]?.input.value).toBe("generatePosterImage");
    expect(png.parameters.node_outputs).toEqual({ url: { type: "string", value: null } });
    const pptx = single({ type: "markdown-exporter", param: { target_type: "pptx", md_text: "# t" } });
    expect((pptx.parameters.node_inputs as Node[]).map((i) => i.name)).toEqual(["formatted_markdown", "title"]);
    const md = single({ type: "markdown-exporter", param: { target_type: "md", md_text: "# t" } });
    expect(input(md, "to_format").input).toEqual({ type: "string", value: "markdown" });
  });

  it("echarts: the worked values of §7.17 (pie pairs, line data, the axis join with a repeated label)", () => {
    const pie = single({ type: "echarts", param: { chart_type: "pie", chart_title: "T", data: "10;20;30", x_axisORcategories: "a; b ;c" } });
    expect(pie.title).toBe("pie_charts");
    expect(input(pie, "data").input.value).toBe('[\n  {\n    "name": "a",\n    "value": 10\n  },\n  {\n    "name": "b",\n    "value": 20\n  },\n  {\n    "name": "c",\n    "value": 30\n  }\n]');
    const line = single({ type: "echarts", param: { chart_type: "line", chart_title: "T", data: '"1;2.5;3"', x_axisORcategories: "x;y;x" } });
    expect(input(line, "data").input.value).toBe("[1,2.5,3]");
    expect(input(line, "xAxis").input.value).toBe('{"data": "[\\"x\\"\\"y\\",\\"x\\"]"}');
    expect((line.parameters.apiParam as Node[])[0]?.input.value).toBe("7404745324968886306");
  });

  it("echarts: pie data that is a reference cannot be exported", () => {
    const value: JsonValue = {
      nodes_info: [START, { id: "2", type: "echarts", param: { chart_type: "pie", chart_title: "T", data: "{{#'1'.topic#}}", x_axisORcategories: "a" } }, { id: "3", type: "end", param: { outputs: [["o", ["text", "2"]]] } }],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    expect(failure(value).code).toBe("coze-pie-data-not-integer");
  });

  it("http-request, parameter-extractor, text2image, variable-aggregator", () => {
    const http = single({ type: "http-request", param: { url: ["q", "1"] } });
    expect(http.parameters.apiInfo).toEqual({ method: "GET", url: "{{block_output_100001.q}}" });
    expect(http.parameters.auth.authData.bearerTokenData[0].input.value).toBe("EMPTY");
    const extractor = single({ type: "parameter-extractor", param: { query: ["q", "1"], parameters: [["the count", "n", "number"]], instruction: "Find {{#'1'.q#}}" } });
    expect((extractor.parameters.llmParam as Node[]).slice(7).map((p) => p.input.value)).toEqual(["Find {{_100001_q}}", "{{query}}"]);
    expect(extractor.parameters.node_outputs).toEqual({ n: { type: "float", value: null, description: "the count" } });
    expect((extractor.parameters.node_inputs as Node[]).map((i) => i.name)).toEqual(["query", "_100001_q"]);
    const image = single({ type: "text2image", param: { prompt: "A {{#'1'.q#}}" } });
    expect(image.parameters.prompt).toEqual({ negative_prompt: "", prompt: "A {{_100001_q}}" });
    const aggregator = single({ type: "variable-aggregator", param: { variables: [["q", "1"]] } });
    expect(aggregator.parameters.mergeGroups).toEqual([{ name: "output", variables: [{ value: { content: { blockID: "100001", name: "q", source: "block-output" }, type: "ref" } }] }]);
    expect(single({ type: "variable-aggregator", param: { variables: [] } }).parameters.mergeGroups[0].variables).toEqual([]);
  });

  it("list-operator and unknown types have no Coze equivalent, referenced or not", () => {
    const value = (type: string, read: boolean): JsonValue => ({
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["files", "array[file]"]] } },
        { id: "2", type, param: { variable: ["files", "1"], operator: ["limit", 1] } },
        { id: "3", type: "end", param: { outputs: [["o", read ? ["result", "2"] : ["files", "1"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    });
    expect(failure(value("list-operator", true)).code).toBe("coze-no-equivalent");
    expect(failure(value("list-operator", false)).code).toBe("coze-no-equivalent");
    expect(failure(value("template", true)).message).toMatch(/no Coze equivalent/);
  });
});

describe("the package (§2)", () => {
  const value: JsonValue = { nodes_info: [START, { id: "2", type: "end", param: { outputs: [["o", ["topic", "1"]]] } }], edges: [["1", 0, "2"]] };

  it("is Workflow-<name>-draft.zip holding the manifest then the workflow YAML, which parse back", () => {
    const built = cozePackage(value, "BatchFiles_1");
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.fileName).toBe("Workflow-BatchFiles_1-draft.zip");
    const entries = readZip(built.value.bytes);
    expect(entries.ok).toBe(true);
    if (!entries.ok) return;
    expect(entries.value.map((entry) => entry.name)).toEqual(["Workflow-BatchFiles_1-draft/MANIFEST.yml", "Workflow-BatchFiles_1-draft/workflow/BatchFiles_1-draft.yaml"]);
    const [manifest, workflow] = entries.value.map((entry) => parseCozeYaml(new TextDecoder().decode(entry.data)));
    expect(manifest).toEqual({ ok: true, value: cozeManifest("BatchFiles_1") });
    expect(workflow).toEqual({ ok: true, value: built.value.workflow });
    // Ids stay strings in the YAML (quoted), as in the official packages.
    expect(built.value.files[1]?.text).toMatch(/id: ["']100001["']/);
  });

  it("is not built when the conversion fails, and says why", () => {
    const built = cozePackage({ nodes_info: [START], edges: [] }, "X_1");
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.issues[0]?.code).toBe("node-without-edges");
  });
});
