// The leaderboard's optional grade columns (?grades=1): the toggle link and the per-model grade table, kept apart
// from the page so the page only places them.
import { ModelGradesTable } from "@/components/grading/model-grades-table";
import { QueryToggle, type QueryParams } from "@/components/leaderboard/query-toggle";
import { database } from "@/lib/server/db";
import { gradeBenchmarkStandings, loadDefaultRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";

export async function LeaderboardGrades({ user, benchmarkId }: { user: SessionUser | null; benchmarkId: string }) {
  const loaded = await loadDefaultRubric();
  if (!loaded.ok) return <p className="mt-8 text-sm text-red-700">The rubric could not be read: {loaded.issues.join("; ")}</p>;
  const standings = await gradeBenchmarkStandings(database(), user, benchmarkId, loaded.value);
  if (!standings.ok) return <p className="mt-8 text-sm text-red-700">Grading failed: {standings.issues.join("; ")}</p>;
  return <ModelGradesTable standings={standings.value} rubric={{ id: loaded.value.rubric.rubric_id, version: loaded.value.rubric.version }} />;
}

/** Link that switches the grade columns on or off. */
LeaderboardGrades.Toggle = function GradesToggle({ params }: { params: QueryParams }) {
  return <QueryToggle params={params} flag="grades" show="Show grades" hide="Hide grades" testId="grades-toggle" />;
};
