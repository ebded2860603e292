import type { Metadata } from "next";
import Link from "next/link";
import { NewEvaluationForm } from "@/components/evaluations/new-evaluation-form";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/roles";
import { database } from "@/lib/server/db";
import { listBenchmarks } from "@/lib/server/data/runs";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";
import { listDifyConnectionChoices } from "@/lib/server/evaluations/start-evaluation";
import { MAX_EVALUATION_RUNS } from "@/lib/server/evaluations/types";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "New evaluation" };
export const dynamic = "force-dynamic";

export default async function NewEvaluationPage() {
  const user = await requireSignedInPermission("runJobs", "/evaluations/new");
  const db = database();
  const [benchmarks, endpoints, difyConnections] = await Promise.all([listBenchmarks(db, user), listEndpoints(db, user), listDifyConnectionChoices(db, user)]);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/evaluations" className="hover:underline">
          Evaluations
        </Link>{" "}
        › New
      </nav>
      <PageHeader
        title="New evaluation"
        description="Generate answers to every task of a benchmark from a model endpoint, score each turn as it arrives, and follow it live. Runs created here appear on the leaderboard, the run pages and the charts like imported ones."
      />
      <NewEvaluationForm
        benchmarks={benchmarks.map((benchmark) => ({ id: benchmark.id, label: benchmark.name, detail: `${benchmark.turnCount} turns` }))}
        endpoints={endpoints.map((endpoint) => ({ id: endpoint.id, label: endpoint.label, detail: endpoint.model }))}
        difyConnections={difyConnections}
        maxRuns={MAX_EVALUATION_RUNS}
        mayManageEndpoints={can(user.role, "manageEndpoints")}
      />
    </>
  );
}
