"use client";

import { DataTable } from "@/components/ui/data-table";
import type { JobDetail } from "@/lib/server/jobs/jobs-data";
import { isUnfinished } from "@/lib/server/jobs/queue";
import { JobCard } from "./job-card";
import { usePolling } from "./use-polling";

/** One job's figures and its item errors, refreshed while it runs. */
export function LiveJobDetail({ initial }: { initial: JobDetail }) {
  const { data: job, error, refetch } = usePolling<JobDetail>(`/api/jobs/${initial.id}`, initial, (current) => isUnfinished(current.status));
  return (
    <div className="space-y-6" aria-live="polite">
      {error ? <p className="text-sm text-amber-700 dark:text-amber-400">{error}</p> : null}
      <JobCard job={job} onChanged={() => void refetch()} linkTitle={false} />
      {typeof job.params.calls === "string" ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="judge-call-params">
          Each judge call sends {job.params.calls}.
        </p>
      ) : null}
      {job.retrying > 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{job.retrying} item(s) wait to be retried after an error.</p> : null}
      <section aria-labelledby="job-errors">
        <h2 id="job-errors" className="mb-2 text-lg font-medium">Item errors</h2>
        {job.errors.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No item has failed.</p>
        ) : (
          <DataTable
            caption="The latest item errors"
            testId="job-errors"
            headers={["Item", "Status", "Attempts", "Error"]}
            numeric={[2]}
            wrap={[3]}
            columnClasses={{ 0: "font-mono text-xs", 3: "max-w-xl whitespace-pre-wrap break-words text-xs" }}
            rows={job.errors.map((item) => ({ key: item.key, cells: [item.key, item.status === "pending" ? "will retry" : item.status, item.attempts, item.error] }))}
          />
        )}
      </section>
    </div>
  );
}
