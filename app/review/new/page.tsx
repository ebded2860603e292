import type { Metadata } from "next";
import Link from "next/link";
import { QueueForm } from "@/components/review/queue-form";
import { linkClass } from "@/components/review/styles";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { listReviewOptions } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "New review queue" };

export default async function NewQueuePage() {
  const user = await requireSignedInPermission("manageQueues", "/review/new");
  const options = await listReviewOptions(database(), user);
  return (
    <>
      <PageHeader
        title="New review queue"
        description="Draw a deterministic sample of stored judge verdicts for annotators to check."
        actions={
          <Link href="/review" className={linkClass}>
            All queues
          </Link>
        }
      />
      {options.benchmarks.length === 0 ? (
        <EmptyState title="No judge verdicts to review" action={{ href: "/import", label: "Import runs" }}>
          Import a benchmark and recorded runs first; their judge verdicts are what a queue samples.
        </EmptyState>
      ) : (
        <QueueForm options={options} currentUserId={user.id} />
      )}
    </>
  );
}
