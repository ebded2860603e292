"use client";

import { tableStyles } from "@/components/ui/styles";
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
          <div className={tableStyles.wrapper}>
            <table className={tableStyles.table} data-testid="job-errors">
              <caption className="sr-only">The latest item errors</caption>
              <thead>
                <tr>
                  <th scope="col" className={tableStyles.th}>Item</th>
                  <th scope="col" className={tableStyles.th}>Status</th>
                  <th scope="col" className={tableStyles.th}>Attempts</th>
                  <th scope="col" className={tableStyles.th}>Error</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {job.errors.map((item) => (
                  <tr key={item.key}>
                    <td className={`${tableStyles.td} font-mono text-xs`}>{item.key}</td>
                    <td className={tableStyles.td}>{item.status === "pending" ? "will retry" : item.status}</td>
                    <td className={tableStyles.tdNumber}>{item.attempts}</td>
                    <td className="max-w-xl whitespace-pre-wrap break-words px-3 py-2 text-xs">{item.error}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
