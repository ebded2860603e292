"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonStyles, tableStyles } from "@/components/ui/styles";
import { formatRatio } from "@/lib/format";
import type { ImportJobView } from "@/lib/server/jobs/import-job";

const PHASE_LABELS: Record<string, string> = {
  reading: "Reading the benchmark",
  validating: "Validating files",
  scoring: "Scoring and writing",
  done: "Finished",
};

async function fetchJob(jobId: string): Promise<ImportJobView> {
  const response = await fetch(`/api/imports/${encodeURIComponent(jobId)}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`The import's status could not be read (HTTP ${response.status}).`);
  return (await response.json()) as ImportJobView;
}

export function ImportJobStatus({ jobId, onReset }: { jobId: string; onReset: () => void }) {
  const { data: job, error } = useQuery({
    queryKey: ["import-job", jobId],
    queryFn: () => fetchJob(jobId),
    refetchInterval: (query) => (query.state.data && ["succeeded", "failed"].includes(query.state.data.status) ? false : 400),
  });

  if (error) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {error.message}
      </p>
    );
  }
  if (!job) return <p className="text-sm text-slate-500">Starting the import…</p>;

  const outcome = job.outcome;
  const running = job.status === "queued" || job.status === "running";
  return (
    <section aria-label="Import progress" aria-live="polite" className="space-y-5">
      <div className="flex items-center gap-3">
        <h2 className="text-lg font-medium">{running ? "Importing…" : job.status === "succeeded" ? "Import finished" : "Import failed"}</h2>
        <Badge tone={running ? "info" : job.status === "succeeded" ? "good" : "bad"}>{job.status}</Badge>
      </div>

      {running && job.progress ? (
        <div className="max-w-xl space-y-3">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {PHASE_LABELS[job.progress.phase] ?? job.progress.phase}
            {job.progress.file ? <span className="font-mono"> · {job.progress.file}</span> : null}
          </p>
          <ProgressBar label="Files" value={Math.min(job.progress.fileIndex + 1, job.progress.fileCount)} max={job.progress.fileCount} />
          <ProgressBar label="Responses scored" value={job.progress.responsesDone} max={job.progress.responsesTotal} />
        </div>
      ) : null}

      {job.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {job.error}
        </p>
      ) : null}

      {outcome && !outcome.ok ? (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          <p className="font-medium">The import was rejected and nothing was written. Fix these entries and try again:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 font-mono text-xs">
            {outcome.issues.slice(0, 100).map((problem, index) => (
              <li key={index}>{problem.message}</li>
            ))}
          </ul>
          {outcome.issues.length > 100 ? <p className="mt-2">… and {outcome.issues.length - 100} more.</p> : null}
        </div>
      ) : null}

      {outcome && outcome.ok ? (
        <div className="space-y-3">
          <p className="text-sm">
            Benchmark <strong>{outcome.benchmarkName}</strong> {outcome.benchmarkCreated ? "imported" : "was already present"}.{" "}
            {outcome.runs.filter((run) => run.created).length} run(s) imported, {outcome.runs.filter((run) => !run.created).length} already present.
          </p>
          <div className={tableStyles.wrapper}>
            <table className={tableStyles.table}>
              <caption className="sr-only">Imported runs</caption>
              <thead>
                <tr>
                  <th className={tableStyles.th}>Run</th>
                  <th className={tableStyles.th}>Model</th>
                  <th className={tableStyles.th}>Status</th>
                  <th className={tableStyles.th}>Responses</th>
                  <th className={tableStyles.th}>Pass rate</th>
                  <th className={tableStyles.th}>Resolve rate</th>
                  <th className={tableStyles.th}>Diagnostics</th>
                  <th className={tableStyles.th}>Disagreements</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {outcome.runs.map((run) => (
                  <tr key={run.runId}>
                    <td className={`${tableStyles.td} font-mono`}>{run.label}</td>
                    <td className={tableStyles.td}>
                      {run.model} <span className="text-xs text-slate-500">({run.origin})</span>
                    </td>
                    <td className={tableStyles.td}>{run.created ? <Badge tone="good">imported</Badge> : <Badge>already present</Badge>}</td>
                    <td className={tableStyles.tdNumber}>{run.responses}</td>
                    <td className={tableStyles.tdNumber} title={`${run.passed} of ${run.responses}`}>
                      {formatRatio(run.passed, run.responses)}
                    </td>
                    <td className={tableStyles.tdNumber}>{run.casesPassed === null ? "—" : formatRatio(run.casesPassed, 3 * run.responses)}</td>
                    <td className={tableStyles.td}>
                      {Object.entries(run.diagnosticsByCategory)
                        .map(([category, count]) => `${category} ${count}`)
                        .join(" · ")}
                    </td>
                    <td className={tableStyles.td} title="Where the recorded verdict and ours differ">
                      {run.disagreements.failStep} fail-step · {run.disagreements.judge} judge
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      {!running ? (
        <div className="flex gap-3">
          <button type="button" className={buttonStyles.secondary} onClick={onReset}>
            Import more
          </button>
          <Link href="/runs" className={buttonStyles.primary}>
            See all runs
          </Link>
        </div>
      ) : null}
    </section>
  );
}
