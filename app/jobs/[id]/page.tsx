import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LiveJobDetail } from "@/components/jobs/live-job-detail";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { getJobDetail } from "@/lib/server/jobs/jobs-data";
import { requireSignedInPermission } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: PageProps<"/jobs/[id]">): Promise<Metadata> {
  const { id } = await params;
  return { title: `Job ${id.slice(0, 8)}` };
}

export default async function JobPage({ params }: PageProps<"/jobs/[id]">) {
  const { id } = await params;
  const user = await requireSignedInPermission("runJobs", `/jobs/${encodeURIComponent(id)}`);
  const job = await getJobDetail(database(), user, id);
  if (!job) notFound();
  const openRun = job.runId ? (
    <>
      {" "}
      <Link href={`/runs/${job.runId}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Open the run</Link>.
    </>
  ) : null;
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/jobs" className="hover:underline">Jobs</Link> › {job.title}
      </nav>
      <PageHeader
        title={job.title}
        description={
          job.kind === "judge" ? (
            <>
              Verdicts are stored under the judge label <strong>{job.endpointLabel}</strong>, one per sample; failed items never become verdicts.
              {openRun}
            </>
          ) : job.kind === "resolve" ? (
            <>
              Each turn is imported into Dify, its test cases run there and are checked and judged; a turn&apos;s case results are written when it finishes.
              {openRun}
            </>
          ) : (
            "An import of run files; it runs again from the start if the server stops midway (nothing is written until it completes)."
          )
        }
      />
      <LiveJobDetail initial={job} />
    </div>
  );
}
