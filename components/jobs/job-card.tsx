"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { controlJobAction } from "@/app/actions/jobs";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import { formatUsd } from "@/lib/format";
import type { JobView } from "@/lib/server/jobs/jobs-data";

const STATUS_TONES: Record<JobView["status"], BadgeTone> = {
  queued: "neutral",
  running: "info",
  paused: "warn",
  cancelled: "neutral",
  succeeded: "good",
  failed: "bad",
};

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** A job's live figures and its controls; `onChanged` refetches after a control. */
export function JobCard({ job, onChanged, linkTitle = true }: { job: JobView; onChanged: () => void; linkTitle?: boolean }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const active = job.status === "queued" || job.status === "running" || job.status === "paused";

  function control(verb: "cancel" | "pause" | "resume") {
    setMessage(null);
    startTransition(async () => {
      const result = await controlJobAction({ jobId: job.id, control: verb });
      if (!result.ok) setMessage(result.message);
      onChanged();
    });
  }

  return (
    <article className={`${cardStyles} space-y-3`} aria-label={job.title} data-testid="job-card" data-status={job.status}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-medium">{linkTitle ? <Link href={`/jobs/${job.id}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">{job.title}</Link> : job.title}</h3>
          <p className="text-xs text-slate-500">
            started {new Date(job.createdAt).toLocaleString()}
            {job.refresh ? " · cache bypassed" : ""}
            {job.runId ? (
              <>
                {" · "}
                <Link href={`/runs/${job.runId}`} className="hover:underline">run page</Link>
              </>
            ) : null}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge tone={STATUS_TONES[job.status]}>
            <span data-testid="job-status">{job.status}</span>
          </Badge>
          {job.status === "running" || job.status === "queued" ? (
            <button type="button" className={buttonStyles.secondary} onClick={() => control("pause")} disabled={pending}>Pause</button>
          ) : null}
          {job.status === "paused" ? (
            <button type="button" className={buttonStyles.secondary} onClick={() => control("resume")} disabled={pending}>Resume</button>
          ) : null}
          {active ? (
            <button type="button" className={buttonStyles.ghostDanger} onClick={() => control("cancel")} disabled={pending}>Cancel</button>
          ) : null}
        </div>
      </div>
      <ProgressBar label="Items settled" value={job.done + job.failed} max={job.total} />
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <Figure label="Done" value={job.done} testId="job-done" />
        <Figure label="Failed" value={job.failed} testId="job-failed" />
        <Figure label="Remaining" value={job.remaining} testId="job-remaining" />
        <Figure label="ETA" value={job.etaSeconds !== null ? formatDuration(job.etaSeconds) : "—"} />
        <Figure label="HTTP calls" value={job.calls} testId="job-calls" />
        <Figure label="From cache" value={job.cachedCalls} testId="job-cached" />
        <Figure label="Tokens in / out" value={`${job.inputTokens.toLocaleString()} / ${job.outputTokens.toLocaleString()}`} />
        <Figure
          label="Cost"
          value={job.cost === null ? "no prices set" : `${formatUsd(job.cost)}${job.estimatedTotalCost !== null && active ? ` (≈ ${formatUsd(job.estimatedTotalCost)} in all)` : ""}`}
        />
      </dl>
      {job.error ? <p className="text-sm text-red-700 dark:text-red-400">{job.error}</p> : null}
      {message ? <p role="status" className="text-sm text-slate-600 dark:text-slate-400">{message}</p> : null}
    </article>
  );
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>{value}</dd>
    </div>
  );
}
