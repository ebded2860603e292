import "server-only";
// The command palette's search: models, tasks, runs and response ids matching a query, readable by anyone who may
// read the leaderboard. The lists are small (tens of models and runs, hundreds of tasks), so candidates are read
// once and ranked in memory; response ids are looked up by prefix in SQL.
import { benchmarkHref, benchmarkParam, type BenchmarkChoice } from "@/lib/leaderboard/benchmarks";
import { MAX_QUERY_LENGTH, MIN_QUERY_LENGTH, rankMatches, type SearchResult } from "@/lib/search/results";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

const PER_KIND = 6;

export async function searchEverything(db: Database, actor: SessionUser | null, rawQuery: string): Promise<SearchResult[]> {
  assertAllowed(actor, "read");
  const query = rawQuery.trim().slice(0, MAX_QUERY_LENGTH);
  if (query.length < MIN_QUERY_LENGTH) return [];
  const [models, tasks, runs, benchmarks] = await Promise.all([
    db.model.findMany({ select: { name: true, displayName: true, family: true } }),
    db.task.findMany({ select: { name: true, benchmarkId: true, roundCount: true, domain: { select: { name: true } } } }),
    db.run.findMany({ select: { id: true, label: true, benchmarkId: true, model: { select: { name: true, displayName: true } } } }),
    db.benchmark.findMany({ select: { id: true, name: true } }),
  ]);
  const choices = benchmarks.map((benchmark) => ({ ...benchmark, version: "", runCount: 0, turnCount: 0, importedAt: "" }) satisfies BenchmarkChoice);
  const benchmarkOf = new Map(choices.map((choice) => [choice.id, choice]));
  const param = (id: string) => {
    const choice = benchmarkOf.get(id);
    return choice ? benchmarkParam(choice, choices) : null;
  };

  const results: SearchResult[] = [];
  for (const model of rankMatches(query, models, (model) => [model.name, model.displayName, model.family ?? ""].filter(Boolean), PER_KIND)) {
    results.push({ kind: "model", title: model.displayName, detail: [model.name, model.family].filter(Boolean).join(" · "), href: `/models/${encodeURIComponent(model.name)}` });
  }
  for (const task of rankMatches(query, tasks, (task) => [task.name], PER_KIND)) {
    results.push({
      kind: "task",
      title: task.name,
      detail: `${task.domain.name} · ${task.roundCount} round${task.roundCount === 1 ? "" : "s"} · ${benchmarkOf.get(task.benchmarkId)?.name ?? ""}`,
      href: benchmarkHref(`/tasks/${encodeURIComponent(task.name)}`, param(task.benchmarkId)),
    });
  }
  for (const run of rankMatches(query, runs, (run) => [run.label, run.model.name, run.model.displayName, run.id], PER_KIND)) {
    results.push({ kind: "run", title: `${run.model.displayName} · ${run.label}`, detail: `run ${run.id} · ${benchmarkOf.get(run.benchmarkId)?.name ?? ""}`, href: `/runs/${run.id}` });
  }
  if (/^[a-z0-9]{4,}$/i.test(query)) {
    const responses = await db.response.findMany({
      where: { id: { startsWith: query } },
      take: PER_KIND,
      select: { id: true, run: { select: { label: true } }, turn: { select: { round: true, task: { select: { name: true } } } } },
    });
    for (const response of responses) {
      results.push({ kind: "response", title: `${response.turn.task.name} · round ${response.turn.round}`, detail: `response ${response.id} · ${response.run.label}`, href: `/responses/${response.id}` });
    }
  }
  return results;
}
