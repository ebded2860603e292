// How a run was made and judged, as one configuration: only runs of one configuration pool into a leaderboard row.
// A row is a series: a model under one configuration, named by a stable id (the model name for official recorded runs).

import { modeLabel } from "../generation/modes";
import { ZERO_SHOT_PARAMS } from "../generation/protocol";
import { describeRunJudge, RECORDED_ORIGIN, type RunJudge } from "../judge/run-judge";

/** What a run records about how it was made: its origin, and for generated runs the mode and parameter overrides. */
export interface RunSetup {
  origin: string;
  mode: string | null;
  overrides: { temperature?: number; maxTokens?: number } | null;
}

export interface Configuration {
  /** Identifies the configuration among a model's; "" for official recorded runs. */
  key: string;
  /** How the runs were made: "official recorded run", "imported output", "Zero-shot (official) · T 0.7 · max 32768". */
  setup: string;
  /** Who judged them: "recorded verdicts", "rule judge (not the official LLM judge)", "judge: gpt-5.1 ×1". */
  judge: string;
  /** Both, as a row shows it: "Zero-shot (official) · T 0.7 · max 32768 · judge: gpt-5.1 ×1"; "official recorded run". */
  label: string;
}

/** The separator of a series id: model names never hold it. */
export const SERIES_SEPARATOR = "~";

/** The sampling parameters a generated run's calls sent: zero-shot's protocol defaults, else only the overrides. */
function sampling(setup: RunSetup): { temperature: number | null; maxTokens: number | null } {
  const defaults = setup.mode === "zero-shot" ? { temperature: ZERO_SHOT_PARAMS.temperature ?? null, maxTokens: ZERO_SHOT_PARAMS.max_tokens ?? null } : { temperature: null, maxTokens: null };
  return { temperature: setup.overrides?.temperature ?? defaults.temperature, maxTokens: setup.overrides?.maxTokens ?? defaults.maxTokens };
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name for a configuration. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * A run's configuration: recorded runs are one configuration, imported model output another, generated runs one per
 * mode, sampling parameters and own judge. The key (and so the series id) depends only on how the run was made and
 * its own judge, never on the judge a page re-views it under (`viewedBy`), so a row keeps its id across views.
 */
export function runConfiguration(setup: RunSetup, ownJudge: RunJudge, viewedBy?: string): Configuration {
  const own = describeRunJudge(ownJudge);
  const judge = viewedBy ?? own;
  if (setup.origin === RECORDED_ORIGIN && ownJudge.kind === "recorded") {
    return { key: "", setup: "official recorded run", judge, label: viewedBy === undefined ? "official recorded run" : `official recorded run · ${judge}` };
  }
  if (setup.origin !== "generated" || setup.mode === null) {
    const described = setup.origin === "imported" ? "imported output" : `${setup.origin} output`;
    return { key: `${slug(setup.origin)}.${shortHash(JSON.stringify([setup.origin, own]))}`, setup: described, judge, label: `${described} · ${judge}` };
  }
  const { temperature, maxTokens } = sampling(setup);
  // The opencode agent sends its own sampling parameters, as the official baseline does.
  const parts = setup.mode === "agentic-opencode" ? ["opencode's own sampling"] : [temperature === null ? "T server default" : `T ${temperature}`, maxTokens === null ? "max server default" : `max ${maxTokens}`];
  const described = [modeLabel(setup.mode), ...parts].join(" · ");
  return { key: `${slug(setup.mode)}.${shortHash(JSON.stringify([setup.mode, temperature, maxTokens, own]))}`, setup: described, judge, label: `${described} · ${judge}` };
}

const slug = (text: string) => text.replace(/[^\w.-]+/g, "_") || "unknown";

/** The series (leaderboard row) of a model under a configuration: the model name itself for its official recorded runs. */
export function seriesId(model: string, configuration: Pick<Configuration, "key">): string {
  return configuration.key === "" ? model : `${model}${SERIES_SEPARATOR}${configuration.key}`;
}

/** The model name of a series id ("gpt_5d2" and "gpt_5d2~zero-shot.1a2b3c4d" both give "gpt_5d2"). */
export function modelOfSeries(series: string): string {
  const at = series.indexOf(SERIES_SEPARATOR);
  return at < 0 ? series : series.slice(0, at);
}

/** A row's name where its configuration must show in one string (chart legends, pickers): "Qwen3-32B (Zero-shot (official) · …)". */
export function seriesLabel(info: { name: string; displayName: string; model?: string; configuration?: string }): string {
  return info.configuration && info.model !== undefined && info.name !== info.model ? `${info.displayName} (${info.configuration})` : info.displayName;
}
