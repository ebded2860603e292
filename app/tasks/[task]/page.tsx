import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { TaskMatrixTable } from "@/components/leaderboard/task-matrix-table";
import { TONE_CLASSES, TONE_LEGEND } from "@/components/leaderboard/verdicts";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles } from "@/components/ui/styles";
import { benchmarkParam } from "@/lib/leaderboard/benchmarks";
import { decodeSegment, param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { getTaskMatrix } from "@/lib/server/data/drilldown";
import { drilldownJudge } from "@/lib/server/data/judged-by";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { requirePagePermission } from "@/lib/server/session";

type Props = { params: Promise<{ task: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { task } = await params;
  return { title: `Task ${decodeSegment(task) ?? task}` };
}

export default async function TaskPage({ params, searchParams }: Props) {
  const { task: rawTask } = await params;
  const taskName = decodeSegment(rawTask);
  if (taskName === null) notFound();
  const user = await requirePagePermission("read", `/tasks/${encodeURIComponent(taskName)}`);
  const query = await searchParams;
  const db = database();
  const requested = param(query, "benchmark") ?? null;
  const selection = await selectBenchmark(db, user, requested);
  let benchmark = selection.benchmark;
  let detail = benchmark ? await getTaskMatrix(db, user, benchmark.id, taskName) : null;
  // A bare /tasks/<name> link: look in the other imported benchmarks too.
  if (!detail && !requested) {
    for (const choice of selection.choices) {
      if (choice.id === benchmark?.id) continue;
      detail = await getTaskMatrix(db, user, choice.id, taskName);
      if (detail) {
        benchmark = choice;
        break;
      }
    }
  }
  if (!detail || !benchmark) notFound();
  const judgedBy = await resolveJudgedBy(db, user, benchmark.id, param(query, "judge"));
  const underJudge = await drilldownJudge(db, user, benchmark.id, judgedBy.choice);
  if (underJudge) detail = (await getTaskMatrix(db, user, benchmark.id, taskName, {}, underJudge.judge)) ?? detail;
  const benchmarkValue = benchmarkParam(benchmark, selection.choices);
  nameBenchmarkInUrl(`/tasks/${encodeURIComponent(taskName)}`, query, benchmarkValue);
  const bq = `benchmark=${encodeURIComponent(benchmarkValue)}${judgedBy.choice.param ? `&judge=${encodeURIComponent(judgedBy.choice.param)}` : ""}`;
  const { matrix } = detail;

  return (
    <>
      <PageHeader
        title={detail.name}
        description={`${detail.domain} · task ${detail.externalId} of ${benchmark.name} · ${detail.turns.length} turns · ${matrix.rows.length} runs answered it`}
        actions={
          <>
            <Link href={`/tasks?${bq}`} className={buttonStyles.secondary}>
              All tasks
            </Link>
            <Link href={`/?${bq}`} className={buttonStyles.secondary}>
              Leaderboard
            </Link>
          </>
        }
      />

      <JudgedByBar judgedBy={judgedBy} judging={underJudge?.judging ?? null} benchmarkQuery={`?benchmark=${encodeURIComponent(benchmarkValue)}`} />
      <details className="mb-6 text-sm">
        <summary className="cursor-pointer font-medium">Instructions per round</summary>
        <ol className="mt-2 space-y-2">
          {detail.turns.map((turn) => (
            <li key={turn.turnId} className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
              <span className="font-medium">Round {turn.round}.</span> {turn.instruction}
            </li>
          ))}
        </ol>
      </details>

      {matrix.rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center text-sm dark:border-slate-700">No run has answered this task yet.</p>
      ) : (
        <>
          <ul className="mb-3 flex flex-wrap gap-3 text-xs" aria-label="Legend">
            {TONE_LEGEND.map((entry) => (
              <li key={entry.tone} className="flex items-center gap-1">
                <span className={`rounded px-1.5 py-0.5 font-medium ring-1 ${TONE_CLASSES[entry.tone]}`}>{entry.text}</span>
                <span>{entry.label}</span>
              </li>
            ))}
          </ul>
          <TaskMatrixTable wire={detail.wire} benchmark={benchmarkValue} judge={judgedBy.choice.param} taskName={detail.name} downloadName={["task", detail.name, benchmark.name]} inProgressRuns={detail.inProgressRuns} />
        </>
      )}
    </>
  );
}
