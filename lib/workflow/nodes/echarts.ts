// The `echarts` node type: An ECharts chart (line, pie, bar) from `;`-separated data.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { describeKind, isJsonObject, ownValue, pyStripChars, type JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { buildTool, toolVariables, type ToolSpec } from "./tool";
import { apiParam, PLUGIN_ICON, singleReferenceValue, stringInput } from "./coze-common";
import { fail } from "./failure";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { CHART_TYPES } from "./vocabulary";

const CHART_LABELS: Readonly<Record<string, string>> = { line_chart: "Line Chart", pie_chart: "Pie Chart", bar_chart: "Bar Chart" };

const TOOL: ToolSpec = {
  name(param) {
    const chart = isJsonObject(param) ? ownValue(param, "chart_type") : undefined;
    return typeof chart === "string" ? `${chart}_chart` : null;
  },
  provider: "langgenius/echarts/echarts",
  label: (name) => CHART_LABELS[name] ?? "",
  configurations: () => ({}),
  parameters(ctx, param) {
    const chart = ctx.rewriteText(ctx.param(param, "chart_type"), ["chart_type"]);
    const chartTitle = ctx.emittedText(ctx.param(param, "chart_title"), ["chart_title"]);
    const values = ctx.emittedText(ctx.param(param, "data"), ["data"]);
    const axis = ctx.emittedText(ctx.param(param, "x_axisORcategories"), ["x_axisORcategories"]);
    const parameters = { data: mixed(values), title: mixed(chartTitle), [chart === "pie" ? "categories" : "x_axis"]: mixed(axis) };
    return { parameters, name: `${chart}_chart` };
  },
  titledByName: true,
};

const OUTPUTS: readonly string[] = ["text"];

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "echarts", TOOL, param, ordinal);
}

const CHART_APIS: Readonly<Record<string, string>> = { bar: "7404745324968869922", line: "7404745324968886306", pie: "7362433438483300364" };

/** Strips leading and trailing backticks, then double quotes, then single quotes (§7.17). */
function cleanChartText(text: string): string {
  return pyStripChars(pyStripChars(pyStripChars(text, "`"), '"'), "'");
}

/** Python int() on one piece of pie data: whitespace, a sign and `_` separators are accepted. */
function pythonInt(text: string): number | null {
  const trimmed = text.trim();
  return /^[+-]?\d+(?:_\d+)*$/.test(trimmed) ? Number(trimmed.replace(/_/g, "")) : null;
}

function chartText(ctx: CozeBuildContext, value: JsonValue, key: string): string {
  if (typeof value !== "string") {
    fail({ code: "text-param-not-string", message: `${ctx.nodeRef()}: ${key} is ${describeKind(value)}; it must be a string.`, location: ctx.at([key]) });
  }
  return value;
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const chart = ctx.param(param, "chart_type");
  if (typeof chart !== "string") {
    fail({ code: "text-param-not-string", message: `${ctx.nodeRef()}: chart_type is ${describeKind(chart)}; it must be a string.`, location: ctx.at(["chart_type"]) });
  }
  const title = singleReferenceValue(ctx, ctx.param(param, "chart_title"), ["chart_title"]);
  const data = cleanChartText(chartText(ctx, ctx.param(param, "data"), "data"));
  const axis = cleanChartText(chartText(ctx, ctx.param(param, "x_axisORcategories"), "x_axisORcategories"));
  const nodeInputs: Record<string, unknown>[] = [{ name: "title", input: { type: "string", value: title } }];
  if (chart === "pie") {
    const values = data.split(";").map(pythonInt);
    const bad = values.findIndex((value) => value === null);
    if (bad >= 0) {
      fail({
        code: "coze-pie-data-not-integer",
        message: `${ctx.nodeRef()}: pie data piece ${JSON.stringify(data.split(";")[bad])} is not an integer; Coze pie charts need literal integers.`,
        location: ctx.at(["data"]),
        hint: "Write the values as literal integers separated by ';' (a reference cannot be used here).",
      });
    }
    const categories = axis.split(";").map((item) => item.trim());
    if (categories.length < values.length) {
      fail({ code: "coze-pie-data-not-integer", message: `${ctx.nodeRef()}: ${values.length} pie values but only ${categories.length} categories.`, location: ctx.at(["x_axisORcategories"]) });
    }
    const pairs = values.map((value, i) => `  {\n    "name": "${categories[i]}",\n    "value": ${value}\n  }`);
    nodeInputs.push({ name: "data", input: { type: "list", items: { type: "object", value: null }, value: `[\n${pairs.join(",\n")}\n]` } });
  } else {
    const items = axis.split(";");
    const last = items[items.length - 1];
    // A comma follows every item except those equal to the last one (the official join, repeated labels included).
    const joined = items.map((item) => `\\"${item}\\"${item === last ? "" : ","}`).join("");
    nodeInputs.push(
      stringInput("data", `[${data.replace(/;/g, ",")}]`),
      { name: "xAxis", input: { type: "object", value: `{"data": "[${joined}]"}` } },
      { name: "yAxis", input: { type: "object", value: '{"type":"value"}' } },
    );
  }
  return {
    baseTitle: `${chart}_charts`,
    parameters: {
      apiParam: apiParam(CHART_APIS[chart] ?? "", `${chart}_charts`, "7362433438483267596", "图表大师"),
      node_inputs: nodeInputs,
      node_outputs: { data: { type: "string", value: null } },
    },
  };
}

export const echartsNode: NodeSpec = {
  type: "echarts",
  info: NODE_TYPES["echarts"],
  paramShape: shape.object({
    chart_type: shape.string,
    chart_title: shape.string,
    data: shape.string,
    x_axisORcategories: shape.string,
  }),
  requiredParams: ["chart_type", "chart_title", "data", "x_axisORcategories"],
  textParams: ["chart_type", "chart_title", "data", "x_axisORcategories"],
  selectorParams: [],
  variables: toolVariables(
    "echarts",
    TOOL,
    OUTPUTS,
    "The official inference gives null: echarts nodes are typed `tool` and their tool name matches no rule.",
  ),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "_charts",
    icon: PLUGIN_ICON,
    description: "Visualization Node: Generates charts based on user-specified requirements.",
    build: toCoze,
  },
  checkParams(ctx) {
    const chart = ownValue(ctx.param, "chart_type");
    if (typeof chart === "string") ctx.vocabulary(chart, ["chart_type"], CHART_TYPES, "chart type");
  },
};
