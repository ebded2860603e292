"use client";
// Picks what a turn diff shows: the run and the task (a GET form, so it works without scripts too) and the round
// with a scrubber (round 1 → 2 → 3 …): a radio group, so arrow keys, Home and End step through the answered rounds.
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition, type FormEvent, type KeyboardEvent } from "react";
import { buttonStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { DIFF_ROUTES, turnDiffHref } from "@/lib/diff/links";
import { isScrubberKey, scrubberStops, stepRound } from "@/lib/diff-view/navigation";

export interface TurnPickerRun {
  id: string;
  label: string;
  model: { name: string; displayName: string };
  benchmark: { id: string; name: string };
}

export interface TurnPickerTask {
  name: string;
  domain: string;
  roundCount: number;
  answeredRounds: number[];
}

export interface TurnPickerProps {
  runs: readonly TurnPickerRun[];
  runId: string;
  tasks: readonly TurnPickerTask[];
  task: string | null;
  round: number | null;
}

function groupByBenchmark(runs: readonly TurnPickerRun[]): { id: string; name: string; runs: TurnPickerRun[] }[] {
  const groups: { id: string; name: string; runs: TurnPickerRun[] }[] = [];
  for (const run of runs) {
    const group = groups.find((g) => g.id === run.benchmark.id);
    if (group) group.runs.push(run);
    else groups.push({ id: run.benchmark.id, name: run.benchmark.name, runs: [run] });
  }
  return groups;
}

export function RunOptions({ runs }: { runs: readonly TurnPickerRun[] }) {
  return (
    <>
      {groupByBenchmark(runs).map((group) => (
        <optgroup key={group.id} label={group.name}>
          {group.runs.map((run) => (
            <option key={run.id} value={run.id}>
              {run.model.displayName} · {run.label}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

export function TurnPicker({ runs, runId, tasks, task, round }: TurnPickerProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [going, setGoing] = useState<string | null>(null);
  const [chosenRun, setChosenRun] = useState(runId);
  const [chosenTask, setChosenTask] = useState(task ?? "");
  const benchmarkOf = (id: string) => runs.find((run) => run.id === id)?.benchmark.id ?? null;
  // Another benchmark has other tasks: the task list only applies to the current run's benchmark.
  const sameBenchmark = benchmarkOf(chosenRun) === benchmarkOf(runId);
  const current = tasks.find((t) => t.name === task) ?? null;
  const stops = useMemo(() => (current ? scrubberStops(current.roundCount, current.answeredRounds, round) : []), [current, round]);
  const buttons = useRef<Map<number, HTMLButtonElement>>(new Map());

  const go = (href: string, what: string) => {
    setGoing(what);
    startTransition(() => router.push(href, { scroll: false }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const keepTask = sameBenchmark && chosenTask !== "";
    // Keep the round when staying on the task of another run of the same benchmark.
    const keepRound = keepTask && chosenTask === task ? round : null;
    go(turnDiffHref({ runId: chosenRun, task: keepTask ? chosenTask : null, round: keepRound }), "the comparison");
  };

  const toRound = (target: number) => {
    if (!current || target === round) return;
    go(turnDiffHref({ runId, task: current.name, round: target }), `round ${target}`);
  };

  const onScrubberKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!isScrubberKey(event.key)) return;
    event.preventDefault();
    const target = stepRound(stops, round, event.key);
    if (target === null) return;
    buttons.current.get(target)?.focus();
    toRound(target);
  };

  return (
    <div className="space-y-4" data-testid="turn-picker">
      <form method="get" action={DIFF_ROUTES.turns} onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-64">
          <label htmlFor="diff-run" className={labelStyles}>
            Run
          </label>
          <select id="diff-run" name="run" value={chosenRun} onChange={(event) => setChosenRun(event.target.value)} className={inputStyles}>
            <RunOptions runs={runs} />
          </select>
        </div>
        <div className="min-w-56">
          <label htmlFor="diff-task" className={labelStyles}>
            Task
          </label>
          <select id="diff-task" name="task" value={sameBenchmark ? chosenTask : ""} onChange={(event) => setChosenTask(event.target.value)} className={inputStyles} disabled={!sameBenchmark}>
            {!sameBenchmark ? <option value="">First task with two rounds</option> : null}
            {sameBenchmark
              ? tasks.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name} ({t.domain}, {t.answeredRounds.length}/{t.roundCount} rounds answered)
                  </option>
                ))
              : null}
          </select>
        </div>
        <button type="submit" className={buttonStyles.primary}>
          Show
        </button>
      </form>

      {current ? (
        <div className="flex flex-wrap items-center gap-4">
          <span id="round-scrubber-label" className="text-sm font-medium">
            Round
          </span>
          <div role="radiogroup" aria-labelledby="round-scrubber-label" aria-describedby="round-scrubber-help" className="flex items-center" onKeyDown={onScrubberKey} data-testid="round-scrubber">
            {stops.map((stop, i) => (
              <div key={stop.round} className="flex items-center">
                {i > 0 ? (
                  <span aria-hidden="true" className={`h-0.5 w-10 ${stop.current ? "bg-brand-600" : "bg-slate-300 dark:bg-slate-600"}`} />
                ) : null}
                <button
                  ref={(element) => {
                    if (element) buttons.current.set(stop.round, element);
                    else buttons.current.delete(stop.round);
                  }}
                  type="button"
                  role="radio"
                  aria-checked={stop.current}
                  aria-label={stop.label}
                  tabIndex={stop.current || (round === null && i === 0) ? 0 : -1}
                  disabled={!stop.answered}
                  onClick={() => toRound(stop.round)}
                  data-round={stop.round}
                  className={`flex h-9 min-w-9 items-center justify-center rounded-full border-2 px-2 text-sm font-semibold tabular-nums ${
                    stop.current
                      ? "border-brand-600 bg-brand-600 text-white"
                      : stop.answered
                        ? "border-slate-400 bg-white hover:border-brand-500 dark:border-slate-500 dark:bg-slate-900"
                        : "border-dashed border-slate-300 bg-slate-50 text-slate-400 dark:border-slate-700 dark:bg-slate-900"
                  }`}
                >
                  {stop.round}
                </button>
              </div>
            ))}
          </div>
          <span id="round-scrubber-help" className="text-xs text-slate-500">
            {round !== null && round > 1 ? `Showing round ${round - 1} → ${round}. ` : ""}Arrow keys step through the rounds.
          </span>
          <span role="status" aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400" data-testid="turn-picker-status">
            {pending && going ? `Loading ${going}…` : ""}
          </span>
        </div>
      ) : null}
    </div>
  );
}
