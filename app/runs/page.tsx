import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requirePagePermission("read", "/runs");
  return (
    <>
      <PageHeader title="Runs" description="Recorded and imported model runs with their origin, size and rates." />
      <EmptyState title="No runs yet" action={{ href: "/import", label: "Import runs" }}>
        Import recorded runs or raw model output to score them.
      </EmptyState>
    </>
  );
}
