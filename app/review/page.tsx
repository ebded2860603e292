import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage() {
  await requireSignedInPermission("annotate", "/review");
  return (
    <>
      <PageHeader title="Review" description="Annotation queues for checking the judge's verdicts, and agreement figures." />
      <EmptyState title="No review queues">Queues you are assigned to will appear here.</EmptyState>
    </>
  );
}
