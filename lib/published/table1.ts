// The Chat2Workflow paper's Table 1: pass and resolve rates (%) per model and domain, each the mean of three runs
// judged by GPT-5.1 on Dify 1.9.2. Figures only (arXiv 2604.19667); seeded into the database as "published" results.


export interface PublishedModel {
  /** The name of the model's run file in the benchmark's runs/ folder (e.g. "gpt_5d2"), also our model name. */
  name: string;
  displayName: string;
  family: string;
  provider: string;
  access: "open" | "closed";
  /** Domain name, or "Average", to [pass rate %, resolve rate %]. */
  rates: Record<string, readonly [number, number]>;
}

export const PUBLISHED_SOURCE = "Chat2Workflow paper, Table 1 (arXiv 2604.19667)";

export const PUBLISHED_TABLE1: readonly PublishedModel[] = [
  { name: "gpt_5d1", displayName: "GPT-5.1", family: "GPT", provider: "OpenAI", access: "closed", rates: { Research: [48.89, 41.48], Document: [53.33, 40.74], Enterprise: [50.0, 33.33], Developer: [20.83, 8.33], Education: [36.36, 19.19], AIGC: [57.41, 45.06], Average: [47.26, 34.46] } },
  { name: "gpt_5d2", displayName: "GPT-5.2", family: "GPT", provider: "OpenAI", access: "closed", rates: { Research: [68.89, 53.33], Document: [66.67, 50.37], Enterprise: [86.11, 58.33], Developer: [70.83, 38.89], Education: [75.76, 54.55], AIGC: [48.15, 32.1], Average: [67.51, 47.4] } },
  { name: "claude_sonnet4d5", displayName: "Claude-Sonnet-4.5", family: "Claude", provider: "Anthropic", access: "closed", rates: { Research: [68.89, 56.3], Document: [75.56, 62.22], Enterprise: [61.11, 27.78], Developer: [75.0, 31.94], Education: [90.91, 60.61], AIGC: [62.97, 41.97], Average: [71.31, 47.96] } },
  { name: "gemini3_propreview", displayName: "Gemini-3-Pro-Preview", family: "Gemini", provider: "Google", access: "closed", rates: { Research: [77.78, 62.96], Document: [82.22, 69.63], Enterprise: [86.11, 64.82], Developer: [70.83, 44.44], Education: [90.91, 59.6], AIGC: [74.08, 54.32], Average: [80.17, 60.2] } },
  { name: "qwen3_8B", displayName: "Qwen-3-8B", family: "Qwen", provider: "Alibaba", access: "open", rates: { Research: [40.0, 21.48], Document: [8.89, 4.45], Enterprise: [8.33, 0.0], Developer: [12.5, 1.39], Education: [3.03, 0.0], AIGC: [7.41, 6.79], Average: [13.92, 6.61] } },
  { name: "qwen3_14B", displayName: "Qwen-3-14B", family: "Qwen", provider: "Alibaba", access: "open", rates: { Research: [26.67, 18.52], Document: [33.33, 14.08], Enterprise: [13.89, 0.0], Developer: [20.83, 11.11], Education: [27.27, 0.0], AIGC: [35.18, 22.22], Average: [27.43, 12.38] } },
  { name: "qwen3_32B", displayName: "Qwen-3-32B", family: "Qwen", provider: "Alibaba", access: "open", rates: { Research: [31.11, 22.22], Document: [28.89, 13.33], Enterprise: [30.56, 5.55], Developer: [50.0, 15.28], Education: [33.33, 23.23], AIGC: [48.15, 29.63], Average: [36.71, 19.13] } },
  { name: "qwen3_235B_A22B", displayName: "Qwen-3-235B-A22B", family: "Qwen", provider: "Alibaba", access: "open", rates: { Research: [35.55, 32.59], Document: [51.11, 34.07], Enterprise: [19.45, 1.85], Developer: [62.5, 20.83], Education: [39.39, 29.29], AIGC: [42.59, 23.46], Average: [40.93, 24.47] } },
  { name: "qwen3_coder_480B_A35B_instruct", displayName: "Qwen-3-Coder-480B-A35B-Instruct", family: "Qwen", provider: "Alibaba", access: "open", rates: { Research: [53.33, 29.63], Document: [57.78, 28.89], Enterprise: [25.0, 1.85], Developer: [25.0, 0.0], Education: [45.45, 17.17], AIGC: [37.03, 23.46], Average: [42.19, 19.13] } },
  { name: "glm_4d6", displayName: "GLM-4.6", family: "GLM", provider: "Zhipu AI", access: "open", rates: { Research: [62.22, 57.04], Document: [60.0, 39.26], Enterprise: [63.89, 24.07], Developer: [45.83, 5.55], Education: [72.73, 25.25], AIGC: [64.82, 39.51], Average: [62.45, 35.02] } },
  { name: "glm_4d7", displayName: "GLM-4.7", family: "GLM", provider: "Zhipu AI", access: "open", rates: { Research: [80.0, 54.82], Document: [62.22, 45.18], Enterprise: [72.22, 44.45], Developer: [41.67, 19.45], Education: [78.79, 52.53], AIGC: [70.37, 50.61], Average: [69.2, 46.55] } },
  { name: "deepseek_v3d1", displayName: "Deepseek-V3.1", family: "DeepSeek", provider: "DeepSeek", access: "open", rates: { Research: [51.11, 42.22], Document: [51.11, 34.07], Enterprise: [61.11, 24.07], Developer: [20.83, 2.78], Education: [45.45, 32.32], AIGC: [62.96, 40.12], Average: [51.48, 32.07] } },
  { name: "deepseek_v3d2", displayName: "Deepseek-V3.2", family: "DeepSeek", provider: "DeepSeek", access: "open", rates: { Research: [51.11, 40.74], Document: [46.67, 36.29], Enterprise: [27.78, 1.85], Developer: [16.67, 4.17], Education: [42.42, 22.22], AIGC: [57.41, 39.51], Average: [43.46, 27.43] } },
  { name: "k2_instruct", displayName: "Kimi-K2-Instruct", family: "Kimi", provider: "Moonshot AI", access: "open", rates: { Research: [51.11, 40.74], Document: [37.78, 27.4], Enterprise: [11.11, 8.33], Developer: [29.17, 5.56], Education: [21.21, 13.13], AIGC: [51.85, 35.19], Average: [36.29, 24.61] } },
  { name: "k2_thinking", displayName: "Kimi-K2-Thinking", family: "Kimi", provider: "Moonshot AI", access: "open", rates: { Research: [55.56, 44.44], Document: [66.67, 46.67], Enterprise: [52.78, 25.93], Developer: [62.5, 26.39], Education: [27.27, 15.15], AIGC: [72.22, 43.83], Average: [57.81, 36.0] } },
];

/** One printed figure pair of Table 1: a model in one column (a domain or "Average"), as the database stores it. */
export interface PublishedCell {
  modelName: string;
  displayName: string;
  family: string;
  access: "open" | "closed";
  domain: string;
  passRate: number;
  resolveRate: number;
}

/** Every cell of Table 1 (15 models × 7 columns), in the paper's order. */
export function publishedCells(): PublishedCell[] {
  return PUBLISHED_TABLE1.flatMap((model) =>
    Object.entries(model.rates).map(([domain, [passRate, resolveRate]]) => ({
      modelName: model.name,
      displayName: model.displayName,
      family: model.family,
      access: model.access,
      domain,
      passRate,
      resolveRate,
    })),
  );
}

/** Looks a model up by run-file name or display name, case-insensitively. */
export function findPublishedModel(name: string): PublishedModel | undefined {
  const wanted = name.trim().toLowerCase();
  return PUBLISHED_TABLE1.find((model) => model.name.toLowerCase() === wanted || model.displayName.toLowerCase() === wanted);
}
