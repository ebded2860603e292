// Tool nodes (markdown exporter, mermaid converter, text to image, text to speech, Google search, ECharts): their
// mixed parameters are rendered from the pool (nodes/tool/tool_node.py) and the tool answers with `text`, `files`
// and `json`. Exporters write real files where a writer is given; images are a placeholder PNG; the rest are typed
// placeholders with their real extensions. The trace lists each file and a chart's SVG preview.

import { PLACEHOLDER_PNG } from "../placeholder-png";
import { failed, succeededWith, type ChartRequest, type NodeContext, type NodeExecutor, type NodeOutcome, type TracedFile } from "../types";
import { producedFile, type DryFile } from "../values";

/** An exporter's Markdown kept in the trace, so its file can be written again for a download; longer: not kept. Ours. */
export const KEPT_MARKDOWN = 16_000;

/** md_exporter's file per target (md_to_<target>); LaTeX is written as .tex. */
function exporterExtension(target: string): string {
  if (target === "latex") return ".tex";
  if (target === "markdown") return ".md";
  return `.${target}`;
}

function chartText(title: string, data: string, axis: string): { ok: true; text: string; values: number[] } | { ok: false; reason: string } {
  // The ECharts tools split `data` on ";" and read every piece as a number.
  const pieces = data.split(";");
  if (pieces.some((piece) => piece.trim() === "" || !Number.isFinite(Number(piece.trim())))) return { ok: false, reason: `could not convert the chart data to numbers: ${JSON.stringify(data.slice(0, 80))}` };
  const values = pieces.map(Number);
  return { ok: true, values, text: `\`\`\`echarts\n${JSON.stringify({ title: { text: title }, axis: axis.split(";"), data: values })}\n\`\`\`` };
}

function traced(file: DryFile, content: TracedFile["content"], markdown?: string): TracedFile {
  const entry: TracedFile = { name: file.filename, extension: file.extension, kind: file.type, size: file.size, content };
  return markdown !== undefined && markdown.length <= KEPT_MARKDOWN ? { ...entry, markdown } : entry;
}

/** A tool's answer with one file: the file in `files`, and in the trace. */
function withFile(file: DryFile, entry: TracedFile, text = ""): NodeOutcome {
  return succeededWith({ text, files: [file], json: [] }, true, { files: [entry] });
}

/** The placeholder PNG for a tool whose image is not rendered here. */
function placeholderImage(stem: string): NodeOutcome {
  const file = { ...producedFile("image", ".png", stem), size: PLACEHOLDER_PNG.byteLength };
  return withFile(file, traced(file, "placeholder"));
}

async function exporterOutcome(target: string, markdown: string, mocked: boolean, stem: string, ctx: NodeContext): Promise<NodeOutcome> {
  // md_to_png renders the Markdown's PDF pages as images, which the dry run does not do.
  if (target === "png") return placeholderImage(stem);
  const file = producedFile("document", exporterExtension(target), stem);
  const made = ctx.files ? await ctx.files.make({ extension: file.extension, markdown }) : null;
  if (made && "failure" in made) return failed(made.failure, mocked);
  if (!made) return withFile(file, traced(file, "none"));
  const written = { ...file, size: made.size };
  return withFile(written, traced(written, "written", markdown));
}

async function chartOutcome(tool: string, parameters: Record<string, string>, mocked: boolean, structured: Set<string>, ctx: NodeContext): Promise<NodeOutcome> {
  const title = parameters.title ?? "";
  const axis = parameters.x_axis ?? parameters.categories ?? "";
  const chart = chartText(title, parameters.data ?? "", axis);
  // Data rendered from a list or an object is JSON text, which never splits into numbers: certain, mock or not.
  if (!chart.ok) return failed(chart.reason, mocked && !structured.has("data"));
  const request: ChartRequest = { chart: tool === "pie_chart" ? "pie" : tool === "bar_chart" ? "bar" : "line", title, labels: axis === "" ? [] : axis.split(";"), values: chart.values };
  const preview = ctx.charts ? await ctx.charts.render(request) : null;
  return succeededWith({ text: chart.text, files: [], json: [] }, mocked, preview ? { chart: preview } : {});
}

export const toolExecutor: NodeExecutor = {
  async run(data, ctx) {
    const parameters: Record<string, string> = {};
    let mocked = false;
    const structured = new Set<string>();
    const raw = (data.tool_parameters ?? {}) as Record<string, { value?: unknown }>;
    for (const [name, parameter] of Object.entries(raw)) {
      const rendered = ctx.pool.render(typeof parameter?.value === "string" ? parameter.value : "");
      parameters[name] = rendered.text;
      mocked ||= rendered.mocked;
      if (rendered.structured) structured.add(name);
    }
    const tool = String(data.tool_name ?? "");
    const stem = String(data.title ?? tool).replace(/\W+/g, "_");
    if (tool.startsWith("md_to_")) return exporterOutcome(tool.slice(6), parameters.md_text ?? "", mocked, stem, ctx);
    switch (tool) {
      case "mermaid_converter":
      case "z_image_text_2_image":
        return placeholderImage(stem);
      case "tts": {
        // The builtin audio tool returns its speech as a blob of mime type audio/x-wav (builtin_tool/providers/audio/tools/tts.py).
        const file = producedFile("audio", ".wav", stem);
        return withFile(file, traced(file, "none"), "Audio generated successfully");
      }
      case "google_search":
        return succeededWith({ text: `[search results for ${JSON.stringify((parameters.query ?? "").slice(0, 80))}]`, files: [], json: [{ organic_results: [] }] }, true, {});
      case "line_chart":
      case "bar_chart":
      case "pie_chart":
        return chartOutcome(tool, parameters, mocked, structured, ctx);
      default:
        return failed(`Tool ${tool} is not installed.`);
    }
  },
};
