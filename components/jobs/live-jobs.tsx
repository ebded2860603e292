"use client";

import type { JobView } from "@/lib/server/jobs/jobs-data";
import { JobCard } from "./job-card";
import { usePolling } from "./use-polling";

const isActive = (job: JobView) => job.status === "queued" || job.status === "running" || job.status === "paused";

/** A list of jobs whose progress refreshes while any of them can still change. */
export function LiveJobs({ initial, runId, emptyText }: { initial: JobView[]; runId?: string; emptyText: string }) {
  const url = runId ? `/api/jobs?runId=${encodeURIComponent(runId)}` : "/api/jobs";
  const { data, error, refetch } = usePolling<{ jobs: JobView[] }>(url, { jobs: initial }, (current) => current.jobs.some(isActive));
  return (
    <div className="space-y-3" aria-live="polite">
      {error ? <p className="text-sm text-amber-700 dark:text-amber-400">{error}</p> : null}
      {data.jobs.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{emptyText}</p> : null}
      {data.jobs.map((job) => (
        <JobCard key={job.id} job={job} onChanged={() => void refetch()} />
      ))}
    </div>
  );
}
