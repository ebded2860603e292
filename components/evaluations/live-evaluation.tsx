"use client";
// The evaluation page's live part: status, counts, calls, tokens and cost so far, and per run the task × round grid.
// Polls /api/evaluations/<id> every 2 s while the evaluation runs and stops once it has finished.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, useTransition } from "react";
import { cancelEvaluationAction } from "@/app/actions/evaluations";
import { formatUsd } from "@/components/jobs/job-card";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import type { EvaluationProgress } from "@/lib/server/data/evaluation-progress";
import { EvaluationGrid, GridLegend } from "./evaluation-grid";

export const POLL_INTERVAL_MS = 2_000;

const STATUS_TONES: Record<string, BadgeTone> = { running: "info", succeeded: "good", failed: "bad", cancelled: "neutral" };
const RUN_STATUS_TEXT: Record<string, string> = { "in-progress": "in progress", complete: "complete", failed: "failed", cancelled: "cancelled" };

async function fetchProgress(id: string): Promise<EvaluationProgress> {
  const response = await fetch(`/api/evaluations/${encodeURIComponent(id)}`, { cache: "no-store" });
  if (!response.ok) throw new Error(response.status === 404 ? "The evaluation no longer exists." : `The progress could not be read (HTTP ${response.status}).`);
  return (await response.json()) as EvaluationProgress;
}

function CancelButton({ evaluationId, onDone }: { evaluationId: string; onDone: () => void }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        className={buttonStyles.ghostDanger}
        disabled={pending}
        onClick={() => {
          if (!window.confirm("Cancel this evaluation? Turns already stored stay; the rest are not generated.")) return;
          setMessage(null);
          startTransition(async () => {
            const result = await cancelEvaluationAction({ evaluationId });
            if (!result.ok) setMessage(result.message);
            onDone();
          });
        }}
      >
        {pending ? "Cancelling…" : "Cancel evaluation"}
      </button>
      {message ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </span>
      ) : null}
    </div>
  );
}

export function LiveEvaluation({ initial, mayControl, benchmarkParam }: { initial: EvaluationProgress; mayControl: boolean; benchmarkParam: string }) {
  const queryClient = useQueryClient();
  const id = initial.evaluation.id;
  const { data, error } = useQuery({
    queryKey: ["evaluation", id],
    queryFn: () => fetchProgress(id),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.active === false ? false : POLL_INTERVAL_MS),
  });
  const progress = data ?? initial;
  const { evaluation, counts, usage } = progress;
  const total = counts.pending + counts.running + counts.passed + counts.failed + counts.error;
  const stored = counts.passed + counts.failed;
  const leaderboardHref = `/${benchmarkParam ? `?benchmark=${encodeURIComponent(benchmarkParam)}` : ""}`;

  return (
    <div className="space-y-6">
      {error ? <p className="text-sm text-amber-700 dark:text-amber-400">{error.message} Retrying.</p> : null}
      <section className={`${cardStyles} space-y-3`} aria-label="Progress" aria-live="polite" data-testid="evaluation-summary" data-status={evaluation.status}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex items-center gap-2">
            <Badge tone={STATUS_TONES[evaluation.status] ?? "neutral"}>{evaluation.status}</Badge>
            <span className="text-sm text-slate-600 dark:text-slate-400">
              {stored} of {total} turns stored · {counts.passed} pass · {counts.failed} fail
              {counts.running ? ` · ${counts.running} running` : ""}
              {counts.error ? ` · ${counts.error} in error` : ""}
            </span>
          </p>
          {mayControl && progress.active ? <CancelButton evaluationId={id} onDone={() => void queryClient.invalidateQueries({ queryKey: ["evaluation", id] })} /> : null}
        </div>
        <div className="max-w-xl">
          <ProgressBar label="Turns stored" value={stored} max={Math.max(total, 1)} />
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
              {formatUsd(usage.cost)}
            </dd>
          </div>
        </dl>
        <nav aria-label="Related pages" className="flex flex-wrap gap-3 text-sm">
          <Link href={leaderboardHref} className="text-brand-600 hover:underline dark:text-brand-500">
            Leaderboard of {evaluation.benchmark.name}
          </Link>
          {mayControl && evaluation.jobId ? (
            <Link href={`/jobs/${evaluation.jobId}`} className="text-brand-600 hover:underline dark:text-brand-500">
              Generation job
            </Link>
          ) : null}
          {mayControl
            ? progress.judgeJobIds.map((jobId, index) => (
                <Link key={jobId} href={`/jobs/${jobId}`} className="text-brand-600 hover:underline dark:text-brand-500">
                  Judge job {index + 1}
                </Link>
              ))
            : null}
        </nav>
      </section>

      <GridLegend />

      {progress.runs.map((run) => (
        <section key={run.id} aria-labelledby={`run-${run.id}`} className="space-y-2" data-testid="evaluation-run">
          <h2 id={`run-${run.id}`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            Run {run.runNumber}
            <Badge tone={run.status === "in-progress" ? "info" : run.status === "complete" ? "good" : "neutral"}>{RUN_STATUS_TEXT[run.status] ?? run.status}</Badge>
            <Link href={`/runs/${run.id}`} className="text-sm font-normal text-brand-600 hover:underline dark:text-brand-500">
              Open the run ({run.label})
            </Link>
            {evaluation.model ? (
              <Link
                href={`/compare?${new URLSearchParams({ ...(benchmarkParam ? { benchmark: benchmarkParam } : {}), a: evaluation.model.name, runA: run.id, b: evaluation.model.name })}`}
                className="text-sm font-normal text-brand-600 hover:underline dark:text-brand-500"
              >
                Compare with another run
              </Link>
            ) : null}
          </h2>
          <p className="text-xs text-slate-500">
            {run.counts.passed} pass · {run.counts.failed} fail · {run.counts.running} running · {run.counts.error} in error · {run.counts.pending} pending
          </p>
          <EvaluationGrid rows={run.rows} label={`Run ${run.runNumber}`} />
        </section>
      ))}
    </div>
  );
}
