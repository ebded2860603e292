import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DiffWorkbench } from "@/components/diff/diff-workbench";
import { VerdictTable } from "@/components/diff/verdict-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { modelDiffHref, readResponseDiffQuery, responseDiffHref, turnDiffHref } from "@/lib/diff/links";
import { verdictInputOf, verdictRows } from "@/lib/diff-view/verdicts";
import { database } from "@/lib/server/db";
import { comparisonOf, getResponsePair, type DiffResponse } from "@/lib/server/data/diff";
import { checkAccess, requirePagePermission, type SessionUser } from "@/lib/server/session";

const loadPair = cache(async (actor: SessionUser | null, a: string, b: string) => {
  const pair = await getResponsePair(database(), actor, a, b);
  if (!pair) return null;
  return { pair, comparison: await comparisonOf(pair.a, pair.b) };
});

function describe(response: DiffResponse): string {
  return `${response.run.model.displayName} · ${response.turn.task.name} round ${response.turn.round}`;
}

export async function generateMetadata({ searchParams }: PageProps<"/diff/responses">): Promise<Metadata> {
  const { a, b } = readResponseDiffQuery(await searchParams);
  const access = await checkAccess("read");
  if (!access.allowed || !a || !b) return { title: "Response diff" };
  const loaded = await loadPair(access.user, a, b);
  return { title: loaded ? `${describe(loaded.pair.a)} vs ${describe(loaded.pair.b)}` : "Response diff not found" };
}

export default async function ResponseDiffPage({ searchParams }: PageProps<"/diff/responses">) {
  const { a, b } = readResponseDiffQuery(await searchParams);
  const user = await requirePagePermission("read", a && b ? responseDiffHref(a, b) : "/diff/responses");
  if (!a || !b) {
    return (
      <>
        <PageHeader title="Response diff" description="Any two stored responses, side by side." />
        <EmptyState title="Name two responses to compare" action={{ href: "/diff", label: "Compare turns or models" }}>
          Open <code>/diff/responses?a=&lt;response id&gt;&amp;b=&lt;response id&gt;</code>, or start from a turn diff or a model diff.
        </EmptyState>
      </>
    );
  }
  const loaded = await loadPair(user, a, b);
  if (!loaded) notFound();
  const { pair, comparison } = loaded;
  const labels = { before: `A · ${describe(pair.a)}`, after: `B · ${describe(pair.b)}` };
  const sameTurn = pair.a.turn.id === pair.b.turn.id;
  const consecutive = pair.a.run.id === pair.b.run.id && pair.a.turn.task.name === pair.b.turn.task.name && pair.b.turn.round === pair.a.turn.round + 1;

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/diff" className="hover:underline">
          Compare
        </Link>{" "}
        › Response diff
      </nav>
      <PageHeader
        title={`${describe(pair.a)} vs ${describe(pair.b)}`}
        description={<>B is marked relative to A. Both responses are re-scored with the current scoring core.</>}
        actions={
          sameTurn && pair.a.run.id !== pair.b.run.id ? (
            <Link href={modelDiffHref({ turn: pair.a.turn.key, a: pair.a.run.id, b: pair.b.run.id })} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Open as a model diff
            </Link>
          ) : consecutive ? (
            <Link href={turnDiffHref({ runId: pair.b.run.id, task: pair.b.turn.task.name, round: pair.b.turn.round })} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Open as a turn diff
            </Link>
          ) : null
        }
      />
      {!sameTurn ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The two responses answer different turns ({pair.a.turn.key} and {pair.b.turn.key}); the task&apos;s requirement changes are listed with the other changes.
        </p>
      ) : null}
      <DiffWorkbench key={`${pair.a.id}:${pair.b.id}`} comparison={comparison} labels={labels} mode="models" responseHrefs={{ before: `/responses/${pair.a.id}`, after: `/responses/${pair.b.id}` }} />
      <section aria-labelledby="verdicts-title" className="space-y-2">
        <h2 id="verdicts-title" className="text-lg font-semibold">
          Verdicts side by side
        </h2>
        <VerdictTable rows={verdictRows(verdictInputOf(comparison.before.verdict, pair.a), verdictInputOf(comparison.after.verdict, pair.b))} labels={{ a: labels.before, b: labels.after }} caption="Verdicts of A and B" />
      </section>
    </div>
  );
}
