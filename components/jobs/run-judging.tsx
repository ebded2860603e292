"use client";

import type { JobView } from "@/lib/server/jobs/jobs-data";
import { JobCard } from "./job-card";
import { JudgeRunForm, type JudgeEndpointOption } from "./judge-run-form";
import { usePolling } from "./use-polling";

const isActive = (job: JobView) => job.status === "queued" || job.status === "running" || job.status === "paused";

/** The run page's judging section: the form, and this run's jobs with live progress. */
export function RunJudging(props: { runId: string; endpoints: JudgeEndpointOption[]; hasResolve: boolean; mayManageEndpoints: boolean; initialJobs: JobView[] }) {
  const { data, refetch } = usePolling<{ jobs: JobView[] }>(`/api/jobs?runId=${encodeURIComponent(props.runId)}`, { jobs: props.initialJobs }, (current) =>
    current.jobs.some(isActive),
  );
  return (
    <section aria-labelledby="run-judging" className="space-y-3">
      <h2 id="run-judging" className="sr-only">Judging</h2>
      <JudgeRunForm runId={props.runId} endpoints={props.endpoints} hasResolve={props.hasResolve} mayManageEndpoints={props.mayManageEndpoints} onStarted={() => void refetch()} />
      {data.jobs.length > 0 ? (
        <div className="space-y-3" aria-live="polite" data-testid="run-jobs">
          {data.jobs.slice(0, 5).map((job) => (
            <JobCard key={job.id} job={job} onChanged={() => void refetch()} />
          ))}
        </div>
      ) : null}
    </section>
  );
}
