import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DiffWorkbench } from "@/components/diff/diff-workbench";
import { InstructionPanel } from "@/components/diff/instruction-panel";
import { ModelPicker } from "@/components/diff/model-picker";
import { VerdictTable } from "@/components/diff/verdict-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { modelDiffHref, readModelDiffQuery, turnDiffHref } from "@/lib/diff/links";
import { verdictInputOf, verdictRows } from "@/lib/diff-view/verdicts";
import { database } from "@/lib/server/db";
import { comparisonOf, getModelDiffSource } from "@/lib/server/data/diff";
import { checkAccess, requirePagePermission, type SessionUser } from "@/lib/server/session";

const loadModelDiff = cache(async (actor: SessionUser | null, turn: string | null, a: string | null, b: string | null) => {
  const source = await getModelDiffSource(database(), actor, { turn, a, b });
  if (!source) return null;
  const left = source.a?.response;
  const right = source.b?.response;
  const comparison = left && right ? await comparisonOf(left, right) : null;
  return { source, comparison };
});

type Side = { run: { label: string; model: { displayName: string } } };

/** "A · GPT-5.2", with the run label when both sides are runs of one model. */
function sideLabels(a: Side | null, b: Side | null): { before: string; after: string } {
  const same = a && b && a.run.model.displayName === b.run.model.displayName;
  const name = (side: Side | null) => (side ? (same ? `${side.run.model.displayName} (${side.run.label})` : side.run.model.displayName) : "none");
  return { before: `A · ${name(a)}`, after: `B · ${name(b)}` };
}

export async function generateMetadata({ searchParams }: PageProps<"/diff/models">): Promise<Metadata> {
  const query = readModelDiffQuery(await searchParams);
  const access = await checkAccess("read");
  if (!access.allowed) return { title: "Model diff" };
  const loaded = await loadModelDiff(access.user, query.turn, query.a, query.b);
  if (!loaded) return { title: query.turn || query.a || query.b ? "Model diff not found" : "Model diff" };
  const { source } = loaded;
  const labels = sideLabels(source.a, source.b);
  return { title: `${source.turn.key}: ${labels.before} vs ${labels.after}` };
}

export default async function ModelDiffPage({ searchParams }: PageProps<"/diff/models">) {
  const query = readModelDiffQuery(await searchParams);
  const user = await requirePagePermission("read", query.turn || query.a ? modelDiffHref({ turn: query.turn ?? "", a: query.a ?? "", b: query.b }) : "/diff/models");
  const loaded = await loadModelDiff(user, query.turn, query.a, query.b);
  if (!loaded) {
    if (query.turn || query.a || query.b) notFound();
    return (
      <>
        <PageHeader title="Model diff" description="The same turn answered by two models, side by side." />
        <EmptyState title="No runs yet" action={{ href: "/import", label: "Import runs" }}>
          Import at least two runs of one benchmark to compare their workflows turn by turn.
        </EmptyState>
      </>
    );
  }
  const { source, comparison } = loaded;
  const { turn, a, b } = source;
  const labels = sideLabels(a, b);
  const left = a?.response ?? null;
  const right = b?.response ?? null;

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/diff" className="hover:underline">
          Compare
        </Link>{" "}
        › Model diff › {turn.key}
      </nav>
      <PageHeader
        title={`${turn.task} round ${turn.round}: ${labels.before} vs ${labels.after}`}
        description={
          <>
            {source.benchmark.name}. Both answers are re-scored with the current scoring core; B is marked relative to A (added: only B has it; removed: only A has it).
          </>
        }
      />
      <ModelPicker key={`${turn.key}:${a?.run.id ?? ""}:${b?.run.id ?? ""}`} turns={source.turns} turnKey={turn.key} runs={source.runs} a={a?.run.id ?? null} b={b?.run.id ?? null} />
      <InstructionPanel round={turn.round} roundCount={turn.roundCount} instruction={turn.instruction} earlier={turn.earlier} />

      {!a || !b ? (
        <EmptyState title="Only one run answered this turn">Choose another turn, or import another run of this benchmark.</EmptyState>
      ) : !left || !right ? (
        <EmptyState title={`${!left ? labels.before : labels.after} has no response for ${turn.key}`}>Choose another run or turn above.</EmptyState>
      ) : comparison ? (
        <>
          {a.run.id === b.run.id ? <p className="text-sm text-amber-800 dark:text-amber-300">A and B are the same run: choose two different runs to compare models.</p> : null}
          <DiffWorkbench key={`${left.id}:${right.id}`} comparison={comparison} labels={labels} mode="models" responseHrefs={{ before: `/responses/${left.id}`, after: `/responses/${right.id}` }} />
          <section aria-labelledby="verdicts-title" className="space-y-2">
            <h2 id="verdicts-title" className="text-lg font-semibold">
              Verdicts side by side
            </h2>
            <VerdictTable rows={verdictRows(verdictInputOf(comparison.before.verdict, left), verdictInputOf(comparison.after.verdict, right))} labels={{ a: labels.before, b: labels.after }} caption={`Verdicts of ${labels.before} and ${labels.after} on ${turn.key}`} />
          </section>
          {turn.round > 1 ? (
            <p className="text-sm">
              How each got here:{" "}
              <Link href={turnDiffHref({ runId: a.run.id, task: turn.task, round: turn.round })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {labels.before}, round {turn.round - 1} → {turn.round}
              </Link>{" "}
              ·{" "}
              <Link href={turnDiffHref({ runId: b.run.id, task: turn.task, round: turn.round })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {labels.after}, round {turn.round - 1} → {turn.round}
              </Link>
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
