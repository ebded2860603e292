import type { Metadata } from "next";
import Link from "next/link";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { BenchmarkSelect } from "@/components/leaderboard/benchmark-select";
import { TableDownload } from "@/components/leaderboard/table-download";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SortableTable } from "@/components/ui/sortable-table";
import { buttonStyles, tableStyles } from "@/components/ui/styles";
import { formatRatio } from "@/lib/format";
import { taskExportRow } from "@/lib/leaderboard/tables";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { listTasks } from "@/lib/server/data/drilldown";
import { drilldownJudge } from "@/lib/server/data/judged-by";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { withJudge } from "@/lib/judge/choice";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Tasks" };

export default async function TasksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/tasks");
  const params = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(params, "benchmark") ?? null);
  nameBenchmarkInUrl("/tasks", params, selection.param);
  const judgedBy = await resolveJudgedBy(db, user, selection.benchmark?.id ?? null, param(params, "judge"));
  const underJudge = selection.benchmark ? await drilldownJudge(db, user, selection.benchmark.id, judgedBy.choice) : null;
  const tasks = selection.benchmark ? await listTasks(db, user, selection.benchmark.id, underJudge?.judge) : [];
  const benchmarkQuery = selection.param ? `?benchmark=${encodeURIComponent(selection.param)}` : "";
  const query = withJudge(benchmarkQuery, judgedBy.choice);
  return (
    <>
      <PageHeader
        title="Tasks"
        description="The benchmark's multi-turn tasks, each with its turns and every model's verdicts."
        actions={
          <Link href={`/${query}`} className={buttonStyles.secondary}>
            Leaderboard
          </Link>
        }
      />
      {!selection.benchmark || tasks.length === 0 ? (
        <EmptyState title="No benchmark imported" action={{ href: "/import", label: "Import a benchmark" }}>
          Tasks appear once a benchmark directory has been imported.
        </EmptyState>
      ) : (
        <>
          <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
            <BenchmarkSelect choices={selection.choices} value={selection.param} />
            <JudgedByBar judgedBy={judgedBy} judging={underJudge?.judging ?? null} benchmarkQuery={benchmarkQuery} />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {selection.benchmark.name}: {tasks.length} tasks, {tasks.reduce((sum, task) => sum + task.turns, 0)} turns, {selection.benchmark.runCount} runs. Rates pool every run&apos;s
              responses to the task.
            </p>
          </div>
          <SortableTable
            caption={`Tasks of ${selection.benchmark.name}`}
            testId="tasks-table"
            rowTestId="task-row"
            filterLabel="Filter tasks"
            filterPlaceholder="name or domain"
            columns={[
              { label: "#", numeric: true },
              { label: "Task", className: tableStyles.sticky },
              { label: "Domain" },
              { label: "Rounds", numeric: true },
              { label: "Responses", numeric: true },
              { label: "Pass rate", numeric: true },
              { label: "Resolve rate", numeric: true },
            ]}
            rows={tasks.map((task) => ({
              id: task.name,
              text: `${task.name} ${task.domain}`,
              values: [task.externalId, task.name, task.domain, task.rounds, task.responses, task.responses ? task.passed / task.responses : null, task.resolveResponses && !task.casesNotJudged ? task.casesPassed / (3 * task.resolveResponses) : null],
              cells: [
                task.externalId,
                <Link key="task" prefetch={false} href={`/tasks/${encodeURIComponent(task.name)}${query}`} className="font-medium text-brand-700 hover:underline dark:text-brand-400">
                  {task.name}
                </Link>,
                task.domain,
                task.rounds,
                task.responses,
                <span key="pass" title={`${task.passed} of ${task.responses} responses pass`}>
                  {formatRatio(task.passed, task.responses)}
                </span>,
                task.casesNotJudged ? (
                  <span key="resolve" title={`${task.casesNotJudged} test cases have text outputs no LLM judge has answered: no resolve rate until they are judged`}>
                    not judged ({task.casesNotJudged})
                  </span>
                ) : (
                  <span key="resolve" title={task.resolveResponses ? `${task.casesPassed} of ${3 * task.resolveResponses} test cases resolved` : "No resolve data"}>
                    {task.resolveResponses ? formatRatio(task.casesPassed, 3 * task.resolveResponses) : "—"}
                  </span>
                ),
              ],
            }))}
          />
          <div className="mt-3">
            <TableDownload table="tasks" rows={tasks.map(taskExportRow)} name={["tasks", selection.benchmark.name]} label="the task list" />
          </div>
        </>
      )}
    </>
  );
}
