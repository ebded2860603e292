import type { Metadata } from "next";
import Link from "next/link";
import { LiveJobs } from "@/components/jobs/live-jobs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/roles";
import { database } from "@/lib/server/db";
import { listJobs } from "@/lib/server/jobs/jobs-data";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  const user = await requireSignedInPermission("runJobs", "/jobs");
  const jobs = await listJobs(database(), user);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Jobs"
        description="Judging and import jobs, newest first. Progress updates live while a job runs; a job survives restarts and resumes where it stopped."
        actions={
          can(user.role, "manageEndpoints") ? (
            <span className="flex gap-4">
              <Link href="/settings/endpoints" className="text-sm text-brand-600 hover:underline dark:text-brand-500">Model endpoints</Link>
              <Link href="/settings/dify" className="text-sm text-brand-600 hover:underline dark:text-brand-500">Dify connections</Link>
              <Link href="/settings/coze" className="text-sm text-brand-600 hover:underline dark:text-brand-500">Coze export</Link>
            </span>
          ) : null
        }
      />
      {jobs.length === 0 ? (
        <EmptyState title="No jobs yet" action={{ href: "/runs", label: "Choose a run to judge" }}>
          Start a judging job from a run&apos;s page (“Judge this run”), or import runs; their progress appears here.
        </EmptyState>
      ) : (
        <LiveJobs initial={jobs} emptyText="No jobs yet." />
      )}
    </div>
  );
}
