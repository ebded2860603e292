// The `echarts` node type: An ECharts chart (line, pie, bar) from `;`-separated data.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import { ownValue, type JsonValue } from "../python-values";
import { buildTool } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { CHART_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "echarts", param, ordinal);
}

export const echartsNode: NodeSpec = {
  type: "echarts",
  info: NODE_TYPES["echarts"],
  paramSchema: z.object({
    chart_type: z.string(),
    chart_title: z.string(),
    data: z.string(),
    x_axisORcategories: z.string(),
  }),
  requiredParams: ["chart_type", "chart_title", "data", "x_axisORcategories"],
  textParams: ["chart_type", "chart_title", "data", "x_axisORcategories"],
  selectorParams: [],
  outputs: [{ name: "text", realType: "string" }],
  branching: false,
  toDify,
  checkParams(ctx) {
    const chart = ownValue(ctx.param, "chart_type");
    if (typeof chart === "string") ctx.vocabulary(chart, ["chart_type"], CHART_TYPES, "chart type");
  },
};
