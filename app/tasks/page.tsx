import type { Metadata } from "next";
import Link from "next/link";
import { BenchmarkSelect } from "@/components/leaderboard/benchmark-select";
import { TableDownload } from "@/components/leaderboard/table-download";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, tableStyles } from "@/components/ui/styles";
import { formatRatio } from "@/lib/format";
import { taskExportRow } from "@/lib/leaderboard/tables";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { listTasks } from "@/lib/server/data/drilldown";
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
  const tasks = selection.benchmark ? await listTasks(db, user, selection.benchmark.id) : [];
  const query = selection.param ? `?benchmark=${encodeURIComponent(selection.param)}` : "";
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
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {selection.benchmark.name}: {tasks.length} tasks, {tasks.reduce((sum, task) => sum + task.turns, 0)} turns, {selection.benchmark.runCount} runs. Rates pool every run&apos;s
              responses to the task.
            </p>
          </div>
          <div className={tableStyles.wrapper}>
            <table className={tableStyles.table} data-testid="tasks-table">
              <caption className="sr-only">Tasks of {selection.benchmark.name}</caption>
              <thead>
                <tr>
                  <th scope="col" className={tableStyles.th}>#</th>
                  <th scope="col" className={tableStyles.th}>Task</th>
                  <th scope="col" className={tableStyles.th}>Domain</th>
                  <th scope="col" className={`${tableStyles.th} text-right`}>Rounds</th>
                  <th scope="col" className={`${tableStyles.th} text-right`}>Responses</th>
                  <th scope="col" className={`${tableStyles.th} text-right`}>Pass rate</th>
                  <th scope="col" className={`${tableStyles.th} text-right`}>Resolve rate</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {tasks.map((task) => (
                  <tr key={task.name} data-testid="task-row">
                    <td className={tableStyles.tdNumber}>{task.externalId}</td>
                    <td className={tableStyles.td}>
                      <Link prefetch={false} href={`/tasks/${encodeURIComponent(task.name)}${query}`} className="font-medium text-brand-700 hover:underline dark:text-brand-400">
                        {task.name}
                      </Link>
                    </td>
                    <td className={tableStyles.td}>{task.domain}</td>
                    <td className={tableStyles.tdNumber}>{task.rounds}</td>
                    <td className={tableStyles.tdNumber}>{task.responses}</td>
                    <td className={tableStyles.tdNumber} title={`${task.passed} of ${task.responses} responses pass`}>
                      {formatRatio(task.passed, task.responses)}
                    </td>
                    <td className={tableStyles.tdNumber} title={task.resolveResponses ? `${task.casesPassed} of ${3 * task.resolveResponses} test cases resolved` : "No resolve data"}>
                      {task.resolveResponses ? formatRatio(task.casesPassed, 3 * task.resolveResponses) : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="mt-3">
            <TableDownload table="tasks" rows={tasks.map(taskExportRow)} name={["tasks", selection.benchmark.name]} label="the task list" />
          </div>
        </>
      )}
    </>
  );
}
