import type { Metadata } from "next";
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { buttonStyles } from "@/components/ui/styles";
import { can } from "@/lib/auth/roles";
import { formatDateTime, formatUsd } from "@/lib/format";
import { database } from "@/lib/server/db";
import { evaluationCosts, listEvaluations } from "@/lib/server/evaluations/list-evaluations";
import { requirePagePermission } from "@/lib/server/session";
import { modeLabel } from "@/lib/generation/modes";

export const metadata: Metadata = { title: "Evaluations" };
export const dynamic = "force-dynamic";

const STATUS_TONES: Record<string, BadgeTone> = { running: "info", succeeded: "good", failed: "bad", cancelled: "neutral" };

export default async function EvaluationsPage() {
  const user = await requirePagePermission("read", "/evaluations");
  const db = database();
  const evaluations = await listEvaluations(db, user);
  const costs = await evaluationCosts(db, user, evaluations);
  const mayStart = user !== null && can(user.role, "runJobs");
  return (
    <>
      <PageHeader
        title="Evaluations"
        description="Models evaluated from their endpoints by this app: each evaluation generates one or more runs of the benchmark, scores every turn as it arrives, and its runs appear on the leaderboard like imported ones."
        actions={
          mayStart ? (
            <Link href="/evaluations/new" className={buttonStyles.primary}>
              New evaluation
            </Link>
          ) : null
        }
      />
      {evaluations.length === 0 ? (
        <EmptyState title="No evaluation yet" action={mayStart ? { href: "/evaluations/new", label: "Start an evaluation" } : undefined}>
          {mayStart ? "Start one to take a model from its endpoint to a leaderboard row." : "Researchers and admins start evaluations; their runs will be listed here."}
        </EmptyState>
      ) : (
        <DataTable
          caption="Evaluations, newest first"
          testId="evaluations"
          rowTestId="evaluation-row"
          headers={["Status", "Model", "Mode", "Benchmark", "Runs", "Started", "Cost"]}
          numeric={[4, 6]}
          columnClasses={{ 5: "text-xs text-slate-500" }}
          rows={evaluations.map((evaluation) => ({
            key: evaluation.id,
            cells: [
              <Badge key="status" tone={STATUS_TONES[evaluation.status] ?? "neutral"}>{evaluation.status}</Badge>,
              <>
                <Link href={`/evaluations/${evaluation.id}`} className="font-medium text-brand-600 hover:underline dark:text-brand-500">
                  {evaluation.model?.displayName ?? evaluation.endpoint?.model ?? "deleted endpoint"}
                </Link>
                {evaluation.endpoint ? <span className="block text-xs text-slate-500">endpoint {evaluation.endpoint.label}</span> : null}
              </>,
              modeLabel(evaluation.mode),
              evaluation.benchmark.name,
              evaluation.runCount,
              formatDateTime(evaluation.createdAt),
              formatUsd(costs.get(evaluation.id) ?? 0),
            ],
          }))}
        />
      )}
    </>
  );
}
