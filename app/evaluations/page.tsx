import type { Metadata } from "next";
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, tableStyles } from "@/components/ui/styles";
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
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="evaluations">
            <caption className="sr-only">Evaluations, newest first</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Status</th>
                <th scope="col" className={tableStyles.th}>Model</th>
                <th scope="col" className={tableStyles.th}>Mode</th>
                <th scope="col" className={tableStyles.th}>Benchmark</th>
                <th scope="col" className={`${tableStyles.th} text-right`}>Runs</th>
                <th scope="col" className={tableStyles.th}>Started</th>
                <th scope="col" className={`${tableStyles.th} text-right`}>Cost</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {evaluations.map((evaluation) => (
                <tr key={evaluation.id} data-testid="evaluation-row">
                  <td className={tableStyles.td}>
                    <Badge tone={STATUS_TONES[evaluation.status] ?? "neutral"}>{evaluation.status}</Badge>
                  </td>
                  <td className={tableStyles.td}>
                    <Link href={`/evaluations/${evaluation.id}`} className="font-medium text-brand-600 hover:underline dark:text-brand-500">
                      {evaluation.model?.displayName ?? evaluation.endpoint?.model ?? "deleted endpoint"}
                    </Link>
                    {evaluation.endpoint ? <span className="block text-xs text-slate-500">endpoint {evaluation.endpoint.label}</span> : null}
                  </td>
                  <td className={tableStyles.td}>{modeLabel(evaluation.mode)}</td>
                  <td className={tableStyles.td}>{evaluation.benchmark.name}</td>
                  <td className={tableStyles.tdNumber}>{evaluation.runCount}</td>
                  <td className={`${tableStyles.td} text-xs text-slate-500`}>{formatDateTime(evaluation.createdAt)}</td>
                  <td className={tableStyles.tdNumber}>{formatUsd(costs.get(evaluation.id) ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
