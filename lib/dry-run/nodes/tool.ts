// Tool nodes (markdown exporter, mermaid converter, text to image, text to speech, Google search, ECharts): their
// mixed parameters are rendered from the pool (nodes/tool/tool_node.py) and the tool answers with `text`, `files`
// and `json`. In a dry run each tool is a typed placeholder: the files it would return, with their real extensions.

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, succeeded, type NodeExecutor } from "../types";
import { producedFile, type DryFile } from "../values";

/** md_exporter's file per target (md_to_<target>); LaTeX is written as .tex. */
function exporterExtension(target: string): string {
  if (target === "latex") return ".tex";
  if (target === "markdown") return ".md";
  return `.${target}`;
}

function chartText(title: string, data: string, axis: string): { ok: true; text: string } | { ok: false; reason: string } {
  // The ECharts tools split `data` on ";" and read every piece as a number.
  const pieces = data.split(";");
  if (pieces.some((piece) => piece.trim() === "" || !Number.isFinite(Number(piece.trim())))) return { ok: false, reason: `could not convert the chart data to numbers: ${JSON.stringify(data.slice(0, 80))}` };
  return { ok: true, text: `\`\`\`echarts\n${JSON.stringify({ title: { text: title }, axis: axis.split(";"), data: pieces.map(Number) })}\n\`\`\`` };
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
    const files = (file: DryFile): Record<string, JsonValue> => ({ text: "", files: [file], json: [] });
    if (tool.startsWith("md_to_")) {
      const file = producedFile("document", exporterExtension(tool.slice(6)), stem);
      const made = ctx.files ? await ctx.files.make({ extension: file.extension, markdown: parameters.md_text ?? "" }) : null;
      return succeeded(files(made ? { ...file, size: made.size } : file), true);
    }
    switch (tool) {
      case "mermaid_converter":
        return succeeded(files(producedFile("image", ".png", stem)), true);
      case "z_image_text_2_image":
        return succeeded(files(producedFile("image", ".png", stem)), true);
      case "tts":
        // The builtin audio tool returns its speech as a blob of mime type audio/x-wav (builtin_tool/providers/audio/tools/tts.py).
        return succeeded({ text: "Audio generated successfully", files: [producedFile("audio", ".wav", stem)], json: [] }, true);
      case "google_search":
        return succeeded({ text: `[search results for ${JSON.stringify((parameters.query ?? "").slice(0, 80))}]`, files: [], json: [{ organic_results: [] }] }, true);
      case "line_chart":
      case "bar_chart":
      case "pie_chart": {
        const chart = chartText(parameters.title ?? "", parameters.data ?? "", parameters.x_axis ?? parameters.categories ?? "");
        // Data rendered from a list or an object is JSON text, which never splits into numbers: certain, mock or not.
        if (!chart.ok) return failed(chart.reason, mocked && !structured.has("data"));
        return succeeded({ text: chart.text, files: [], json: [] }, mocked);
      }
      default:
        return failed(`Tool ${tool} is not installed.`);
    }
  },
};
