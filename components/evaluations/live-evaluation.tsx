"use client";
// The evaluation page's live part: status, counts, calls, tokens and cost so far, and per run the task × round grid.
// Polls /api/evaluations/<id> every 2 s while the evaluation runs and stops once it has finished.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, useTransition } from "react";
import { cancelEvaluationAction } from "@/app/actions/evaluations";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatUsd } from "@/lib/format";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import type { EvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { RunFigures } from "@/components/runs/run-figures";
import { EvaluationGrid, GridLegend } from "./evaluation-grid";

export const POLL_INTERVAL_MS = 2_000;

const STATUS_TONES: Record<string, BadgeTone> = { running: "info", succeeded: "good", failed: "bad", cancelled: "neutral" };
const RUN_STATUS_TEXT: Record<string, string> = { "in-progress": "in progress", complete: "complete", failed: "failed", cancelled: "cancelled" };

async function fetchProgress(id: string): Promise<EvaluationProgress> {
  const response = await fetch(`/api/evaluations/${encodeURIComponent(id)}`, { cache: "no-store" });
  if (!response.ok) throw new Error(response.status === 404 ? "The evaluation no longer exists." : `The progress could not be read (HTTP ${response.status}).`);
  return (await response.json()) as EvaluationProgress;
}

function CancelButton({ evaluationId, onDone, label = "Cancel evaluation", confirm = true }: { evaluationId: string; onDone: () => void; label?: string; confirm?: boolean }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        className={buttonStyles.ghostDanger}
        disabled={pending}
        onClick={() => {
          if (confirm && !window.confirm("Cancel this evaluation? Turns already stored stay; the rest are not generated.")) return;
          setMessage(null);
          startTransition(async () => {
            const result = await cancelEvaluationAction({ evaluationId });
            if (!result.ok) setMessage(result.message);
            onDone();
          });
        }}
      >
        {pending ? "Cancelling…" : label}
      </button>
      {message ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </span>
      ) : null}
    </div>
  );
}

/** Header facts the page knows once (they do not change while the evaluation runs). */
export interface EvaluationContext {
  benchmarkName: string;
  /** What links carry as ?benchmark=. */
  benchmarkParam: string;
  /** The generated runs' model name, for the comparison link; null once unknown. */
  modelName: string | null;
}

export function LiveEvaluation({ initial, mayControl, context }: { initial: EvaluationProgress; mayControl: boolean; context: EvaluationContext }) {
  const queryClient = useQueryClient();
  const id = initial.evaluationId;
  const { data, error } = useQuery({
    queryKey: ["evaluation", id],
    queryFn: () => fetchProgress(id),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== "running" ? false : POLL_INTERVAL_MS),
  });
  const progress = data ?? initial;
  const { counts, usage } = progress;
  const active = progress.status === "running";
  const stored = counts.passed + counts.failed;
  const leaderboardHref = `/${context.benchmarkParam ? `?benchmark=${encodeURIComponent(context.benchmarkParam)}` : ""}`;

  return (
    <div className="space-y-6">
      {error ? <p className="text-sm text-amber-700 dark:text-amber-400">{error.message} Retrying.</p> : null}
      <section className={`${cardStyles} space-y-3`} aria-label="Progress" aria-live="polite" data-testid="evaluation-summary" data-status={progress.status}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex items-center gap-2">
            <Badge tone={STATUS_TONES[progress.status] ?? "neutral"}>{progress.status}</Badge>
            <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="evaluation-counts">
              {stored} of {counts.turns} turns stored · {counts.passed} pass · {counts.failed} fail
              {counts.running ? ` · ${counts.running} running` : ""}
              {counts.error ? ` · ${counts.error} in error` : ""}
            </span>
          </p>
          {mayControl && active ? <CancelButton evaluationId={id} onDone={() => void queryClient.invalidateQueries({ queryKey: ["evaluation", id] })} /> : null}
        </div>
        {progress.outcome ? (
          <p className="text-sm font-medium" data-testid="evaluation-outcome" data-tone={progress.outcome.tone}>
            <Badge tone={progress.outcome.tone}>{progress.outcome.tone === "bad" ? "nothing passed" : progress.outcome.tone === "good" ? "done" : "stopped"}</Badge> {progress.outcome.text}
          </p>
        ) : null}
        <div className="max-w-xl">
          <ProgressBar label="Turns stored" value={stored} max={Math.max(counts.turns, 1)} />
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="evaluation-usage">
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Calls</dt>
            <dd className="tabular-nums">
              {usage.calls}
              {usage.cachedCalls ? ` (${usage.cachedCalls} cached)` : ""}
            </dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Input tokens</dt>
            <dd className="tabular-nums">{usage.inputTokens.toLocaleString("en")}</dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Output tokens</dt>
            <dd className="tabular-nums">{usage.outputTokens.toLocaleString("en")}</dd>
          </div>
          <div>
            <dt className="text-xs uppercase tracking-wide text-slate-500">Cost so far</dt>
            <dd className="tabular-nums" title="Counted for endpoints with prices">
              {usage.cost === null ? "— (no prices set)" : formatUsd(usage.cost)}
            </dd>
          </div>
        </dl>
        <nav aria-label="Related pages" className="flex flex-wrap gap-3 text-sm">
          <Link href={leaderboardHref} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Leaderboard of {context.benchmarkName}
          </Link>
          {mayControl && progress.jobId ? (
            <Link href={`/jobs/${progress.jobId}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
              Generation job{progress.jobStatus ? ` (${progress.jobStatus})` : ""}
            </Link>
          ) : null}
          {mayControl ? (
            <Link href="/jobs" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
              All jobs (judging included)
            </Link>
          ) : null}
        </nav>
      </section>

      {progress.warnings.length > 0 ? (
        <section aria-labelledby="early-warning-title" className="space-y-2 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40" data-testid="early-warning">
          <h2 id="early-warning-title" className="text-base font-semibold text-amber-950 dark:text-amber-100">
            {active ? "Early warning: this evaluation may be going nowhere" : "What the first turns showed"}
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-amber-950 dark:text-amber-100">
            {progress.warnings.map((warning) => (
              <li key={warning.kind} data-kind={warning.kind}>
                {warning.message}
                {warning.examples.length > 0 ? (
                  <>
                    {" "}Look at:{" "}
                    {warning.examples.map((example, index) => (
                      <span key={example.responseId}>
                        {index > 0 ? ", " : ""}
                        <Link href={`/responses/${example.responseId}`} className="font-medium underline underline-offset-2">
                          {example.label}
                        </Link>
                      </span>
                    ))}
                    .
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {mayControl && active ? (
            <CancelButton evaluationId={id} label="Cancel it now" confirm={false} onDone={() => void queryClient.invalidateQueries({ queryKey: ["evaluation", id] })} />
          ) : null}
        </section>
      ) : null}

      <GridLegend />

      {progress.runs.map((run) => (
        <section key={run.runId} aria-labelledby={`run-${run.runId}`} className="space-y-2" data-testid="evaluation-run">
          <h2 id={`run-${run.runId}`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            Run {run.runNumber}
            <Badge tone={run.status === "in-progress" ? "info" : run.status === "complete" ? "good" : "neutral"}>{RUN_STATUS_TEXT[run.status] ?? run.status}</Badge>
            <Link href={`/runs/${run.runId}`} className="text-sm font-normal text-brand-600 hover:underline dark:text-brand-500">
              Open the run ({run.label})
            </Link>
            {context.modelName ? (
              <Link
                href={`/compare?${new URLSearchParams({ ...(context.benchmarkParam ? { benchmark: context.benchmarkParam } : {}), a: run.figures?.series ?? context.modelName, runA: run.runId, b: context.modelName })}`}
                className="text-sm font-normal text-brand-600 hover:underline dark:text-brand-500"
              >
                Compare with another run
              </Link>
            ) : null}
          </h2>
          <p className="text-xs text-slate-500">
            {run.counts.passed} pass · {run.counts.failed} fail · {run.counts.running} running · {run.counts.error} in error · {run.counts.pending} pending
          </p>
          {run.figures ? (
            <>
              <RunFigures figures={run.figures} />
              <p className="text-xs text-slate-500">
                {run.figures.configuration} ·{" "}
                <Link href={`/models/${encodeURIComponent(run.figures.series)}${context.benchmarkParam ? `?benchmark=${encodeURIComponent(context.benchmarkParam)}` : ""}`} className="text-brand-600 underline dark:text-brand-500">
                  its leaderboard row
                </Link>
              </p>
            </>
          ) : null}
          <EvaluationGrid rows={run.tasks} label={`Run ${run.runNumber}`} />
        </section>
      ))}
    </div>
  );
}
