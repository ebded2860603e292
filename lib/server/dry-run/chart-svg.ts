import "server-only";
// Our preview of what an ECharts tool's text describes: the chart drawn with `echarts` server-side rendering to an SVG
// string (no DOM, no canvas), shown in the dry-run trace as an image. Dify's tool answers with the ```echarts text
// only; the preview is ours, never a tool output. Bounded: at most MAX_POINTS values, short labels and title.
import * as echarts from "echarts";
import type { ChartPreview, ChartRenderer, ChartRequest } from "@/lib/dry-run/types";

export const MAX_POINTS = 100;
const MAX_LABEL = 40;
const MAX_TITLE = 200;
/** An SVG longer than this is not kept in the trace. */
const MAX_SVG = 150_000;
const [WIDTH, HEIGHT] = [640, 360];

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

function optionOf(request: ChartRequest, title: string, labels: string[], values: number[]): echarts.EChartsOption {
  const base = { animation: false, title: { text: title, left: "center", textStyle: { fontSize: 14 } } };
  if (request.chart === "pie") {
    return { ...base, series: [{ type: "pie", radius: "55%", center: ["50%", "58%"], data: values.map((value, index) => ({ value, name: labels[index] ?? `${index + 1}` })) }] };
  }
  return {
    ...base,
    grid: { left: 56, right: 24, top: 48, bottom: 48 },
    xAxis: { type: "category", data: values.map((_value, index) => labels[index] ?? `${index + 1}`) },
    yAxis: { type: "value" },
    series: [{ type: request.chart, data: values }],
  };
}

export function chartAlt(request: ChartRequest, title: string, labels: string[], values: number[]): string {
  const kind = { line: "Line", bar: "Bar", pie: "Pie" }[request.chart];
  const pairs = values.slice(0, 5).map((value, index) => `${labels[index] ?? index + 1}: ${value}`).join(", ");
  const more = request.values.length > 5 ? `, and ${request.values.length - 5} more` : "";
  return `${kind} chart${title === "" ? "" : ` "${title}"`} of ${request.values.length} value${request.values.length === 1 ? "" : "s"} (${pairs}${more})`;
}

export function chartSvg(request: ChartRequest): ChartPreview | null {
  const title = clip(request.title, MAX_TITLE);
  const values = request.values.slice(0, MAX_POINTS);
  const labels = request.labels.slice(0, MAX_POINTS).map((label) => clip(label.trim(), MAX_LABEL));
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: WIDTH, height: HEIGHT });
  try {
    chart.setOption(optionOf(request, title, labels, values));
    const svg = chart.renderToSVGString();
    return svg.length > MAX_SVG ? null : { svg, alt: chartAlt(request, title, labels, values) };
  } finally {
    chart.dispose();
  }
}

export const chartPreviews: ChartRenderer = {
  async render(request) {
    return chartSvg(request);
  },
};
