// The leaderboard's "Predicted execution" figure, ours and never a Dify resolve rate: of a row's dry-run executions
// (three per passing turn, mock model), the share predicted to reach the judge. Only runs whose every passing turn was
// dry-run count; a partly dry-run run and executions with a model endpoint are reported beside it, never pooled.

/** The dry-run job's deterministic mock model (DryRunCase.model); any other value is a local execution with an endpoint. */
export const MOCK_DRY_RUN_MODEL = "mock";

export const PREDICTED_EXECUTION_LABEL = "dry run, mock model — a prediction of Dify's execution, not a resolve rate";

/** One group of the data layer's query: a run's passing turns (`model` null), or its dry-run executions by one model. */
export interface DryRunGroup {
  runId: string;
  model: string | null;
  /** Passing turns (model null), or passing turns with dry-run executions by `model`. */
  turns: number;
  executions: number;
  /** Executions that completed and whose file check did not fail: predicted to reach the judge. */
  reached: number;
}

export interface PredictedExecution {
  /** Counted executions predicted to reach the judge, of `executions`, over `turns` passing turns of `runs` runs. */
  reached: number;
  executions: number;
  turns: number;
  runs: number;
  /** Runs with only some passing turns dry-run (mock model): not counted, with their dry-run and passing turns. */
  partialRuns: number;
  partialTurns: number;
  partialPassingTurns: number;
  /** Passing turns executed with a model endpoint (local execution): never pooled with the mock model's. */
  endpointTurns: number;
}

const EMPTY: PredictedExecution = { reached: 0, executions: 0, turns: 0, runs: 0, partialRuns: 0, partialTurns: 0, partialPassingTurns: 0, endpointTurns: 0 };

/** Per series (a leaderboard row), from the runs it pools; series whose runs have no dry-run results are absent. */
export function predictedExecutionBySeries(runs: readonly { id: string; series: string }[], groups: readonly DryRunGroup[]): Map<string, PredictedExecution> {
  const passing = new Map<string, number>();
  const mock = new Map<string, DryRunGroup>();
  const endpoint = new Map<string, number>();
  for (const group of groups) {
    if (group.model === null) passing.set(group.runId, (passing.get(group.runId) ?? 0) + group.turns);
    else if (group.model === MOCK_DRY_RUN_MODEL) mock.set(group.runId, group);
    else endpoint.set(group.runId, (endpoint.get(group.runId) ?? 0) + group.turns);
  }
  const bySeries = new Map<string, PredictedExecution>();
  for (const run of runs) {
    const dry = mock.get(run.id);
    const endpointTurns = endpoint.get(run.id) ?? 0;
    if (!dry && endpointTurns === 0) continue;
    const entry = bySeries.get(run.series) ?? { ...EMPTY };
    entry.endpointTurns += endpointTurns;
    const passingTurns = passing.get(run.id) ?? 0;
    if (dry && dry.turns >= passingTurns) {
      entry.reached += dry.reached;
      entry.executions += dry.executions;
      entry.turns += dry.turns;
      entry.runs += 1;
    } else if (dry) {
      entry.partialRuns += 1;
      entry.partialTurns += dry.turns;
      entry.partialPassingTurns += passingTurns;
    }
    bySeries.set(run.series, entry);
  }
  return bySeries;
}

/** "81.2% (n = 213)", or null when no run of the row counts. */
export function formatPredictedExecution(figure: PredictedExecution): string | null {
  return figure.executions > 0 ? `${((figure.reached / figure.executions) * 100).toFixed(1)}% (n = ${figure.executions})` : null;
}

/** What the figure covers and leaves out, one clause each: turns and runs counted, partial runs, endpoint turns. */
export function describePredictedCoverage(figure: PredictedExecution): string[] {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const lines: string[] = [];
  if (figure.runs > 0) lines.push(`${plural(figure.turns, "passing turn")} of ${plural(figure.runs, "fully dry-run run")}`);
  if (figure.partialRuns > 0) lines.push(`${plural(figure.partialRuns, "run")} partly dry-run (${figure.partialTurns} of ${figure.partialPassingTurns} passing turns), not counted`);
  if (figure.endpointTurns > 0) lines.push(`${plural(figure.endpointTurns, "turn")} executed with a model endpoint (local execution), not pooled`);
  return lines;
}
