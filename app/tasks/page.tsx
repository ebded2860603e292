import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Tasks" };

export default async function TasksPage() {
  await requirePagePermission("read", "/tasks");
  return (
    <>
      <PageHeader title="Tasks" description="The benchmark's multi-turn tasks, each with its turns and every model's verdicts." />
      <EmptyState title="No benchmark imported" action={{ href: "/import", label: "Import a benchmark" }}>
        Tasks appear once a benchmark directory has been imported.
      </EmptyState>
    </>
  );
}
