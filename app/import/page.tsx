import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  await requireSignedInPermission("import", "/import");
  return (
    <>
      <PageHeader title="Import" description="Load a benchmark directory and model runs, then score them." />
      <EmptyState title="Nothing imported yet">
        Importing from this page arrives with the data model. Meanwhile use the command line:{" "}
        <code className="font-mono">npm run import -- --benchmark &lt;dir&gt; --runs &lt;dir&gt;</code>.
      </EmptyState>
    </>
  );
}
