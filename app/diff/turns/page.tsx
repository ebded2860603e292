import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DiffWorkbench } from "@/components/diff/diff-workbench";
import { InstructionPanel } from "@/components/diff/instruction-panel";
import { TurnPicker } from "@/components/diff/turn-picker";
import { VerdictTable } from "@/components/diff/verdict-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { modelDiffHref, readTurnDiffQuery, turnDiffHref } from "@/lib/diff/links";
import { verdictInputOf, verdictRows } from "@/lib/diff-view/verdicts";
import { database } from "@/lib/server/db";
import { comparisonOf, getTurnDiffSource, listDiffRuns } from "@/lib/server/data/diff";
import { checkAccess, requirePagePermission, type SessionUser } from "@/lib/server/session";

// The diff is computed here on the server (pure and fast: both turns re-scored, diffed and laid out) and handed to
// the client components as plain data.
const loadTurnDiff = cache(async (actor: SessionUser | null, runId: string, task: string | null, round: number | null) => {
  const source = await getTurnDiffSource(database(), actor, { runId, task, round });
  if (!source) return null;
  const { before, after } = source;
  const comparison = before && after ? await comparisonOf(before, after) : null;
  return { source, comparison };
});

const loadRuns = cache((actor: SessionUser | null) => listDiffRuns(database(), actor));

export async function generateMetadata({ searchParams }: PageProps<"/diff/turns">): Promise<Metadata> {
  const query = readTurnDiffQuery(await searchParams);
  const access = await checkAccess("read");
  if (!access.allowed || !query.runId) return { title: "Turn diff" };
  const loaded = await loadTurnDiff(access.user, query.runId, query.task, query.round);
  if (!loaded) return { title: "Turn diff not found" };
  const { source } = loaded;
  if (!source.task || source.round === null) return { title: `Turn diff · ${source.run.model.displayName}` };
  const rounds = source.round > 1 ? `round ${source.round - 1} → ${source.round}` : "round 1";
  return { title: `${source.task.name} ${rounds} · ${source.run.model.displayName}` };
}

export default async function TurnDiffPage({ searchParams }: PageProps<"/diff/turns">) {
  const query = readTurnDiffQuery(await searchParams);
  const user = await requirePagePermission("read", query.runId ? turnDiffHref({ runId: query.runId, task: query.task, round: query.round }) : "/diff/turns");
  if (query.roundInvalid) notFound();
  const runs = await loadRuns(user);
  if (runs.length === 0) {
    return (
      <>
        <PageHeader title="Turn diff" description="How a model's workflow changes from one turn of a task to the next." />
        <EmptyState title="No runs yet" action={{ href: "/import", label: "Import runs" }}>
          Import a recorded run or raw model output; then pick a run and a task here to compare its rounds.
        </EmptyState>
      </>
    );
  }
  const runId = query.runId ?? (runs[0] as (typeof runs)[number]).id;
  const loaded = await loadTurnDiff(user, runId, query.task, query.round);
  if (!loaded) notFound();
  const { source, comparison } = loaded;
  const { run, task, round, before, after } = source;
  const title = task && round !== null ? `${task.name} · ${round > 1 ? `round ${round - 1} → ${round}` : "round 1"}` : "Turn diff";
  const labels = { before: round !== null ? `Round ${round - 1}` : "Before", after: round !== null ? `Round ${round}` : "After" };
  const turnRow = task && round !== null ? task.instructions.find((entry) => entry.round === round) : undefined;

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/runs" className="hover:underline">
          Runs
        </Link>{" "}
        ›{" "}
        <Link href={`/runs/${run.id}`} className="hover:underline">
          {run.model.displayName} · {run.label}
        </Link>{" "}
        › Turn diff
      </nav>
      <PageHeader
        title={title}
        description={
          <>
            {run.model.displayName} ({run.model.name}) · {run.label} · {run.benchmark.name}. Each turn is re-scored with the current scoring core and diffed against the turn before it.
          </>
        }
        actions={
          after ? (
            <Link href={modelDiffHref({ turn: after.turn.key, a: run.id })} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Compare round {after.turn.round} with another model
            </Link>
          ) : null
        }
      />
      {/* Keyed by run and task: its selects start from what is shown; a new round keeps it (and the scrubber's focus). */}
      <TurnPicker key={`${run.id}:${task?.name ?? ""}`} runs={runs} runId={run.id} tasks={source.tasks} task={task?.name ?? null} round={round} />

      {!task ? (
        <EmptyState title="This run has no responses">Import the run&apos;s responses to compare its turns.</EmptyState>
      ) : round === null ? (
        <EmptyState title={`This run did not answer ${task.name}`}>Choose another task.</EmptyState>
      ) : (
        <>
          {turnRow ? <InstructionPanel round={round} roundCount={task.roundCount} instruction={turnRow.instruction} earlier={task.instructions.filter((entry) => entry.round < round)} previousOpen={false} /> : null}
          {round === 1 ? (
            <EmptyState
              title="Round 1 is the first turn: there is no previous turn to compare with"
              action={task.answeredRounds.includes(2) ? { href: turnDiffHref({ runId: run.id, task: task.name, round: 2 }), label: "Compare round 1 → 2" } : undefined}
            >
              {after ? (
                <>
                  See the round 1 workflow on its own on the{" "}
                  <Link href={`/responses/${after.id}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                    response page
                  </Link>
                  .
                </>
              ) : (
                "This run did not answer round 1 either."
              )}
            </EmptyState>
          ) : !after ? (
            <EmptyState title={`This run has no response for round ${round}`}>Choose another round with the scrubber above.</EmptyState>
          ) : !before ? (
            <EmptyState title={`This run has no response for round ${round - 1}, so there is nothing to compare round ${round} with`}>
              See round {round} on its own on the{" "}
              <Link href={`/responses/${after.id}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                response page
              </Link>
              .
            </EmptyState>
          ) : comparison ? (
            <>
              <DiffWorkbench
                key={`${before.id}:${after.id}`}
                comparison={comparison}
                labels={labels}
                mode="turns"
                responseHrefs={{ before: `/responses/${before.id}`, after: `/responses/${after.id}` }}
              />
              <section aria-labelledby="verdicts-title" className="space-y-2">
                <h2 id="verdicts-title" className="text-lg font-semibold">
                  Verdicts
                </h2>
                <VerdictTable
                  rows={verdictRows(verdictInputOf(comparison.before.verdict, before), verdictInputOf(comparison.after.verdict, after))}
                  labels={{ a: labels.before, b: labels.after }}
                  caption={`Verdicts of round ${round - 1} and round ${round}`}
                />
              </section>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
