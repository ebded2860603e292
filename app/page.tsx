import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Leaderboard" };

export default async function LeaderboardPage() {
  await requirePagePermission("read", "/");
  return (
    <>
      <PageHeader
        title="Leaderboard"
        description="Pass and resolve rates per model and domain, published by the Chat2Workflow paper or measured from imported runs."
      />
      <EmptyState title="No results yet" action={{ href: "/import", label: "Import runs" }}>
        Import the benchmark and model runs to see pass and resolve rates here.
      </EmptyState>
    </>
  );
}
