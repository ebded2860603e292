// The leaderboard's optional grade columns (?grades=1): the toggle link and the per-model grade table, kept apart
// from the page so the page only places them.
import Link from "next/link";
import { ModelGradesTable } from "@/components/grading/model-grades-table";
import { buttonStyles } from "@/components/ui/styles";
import { database } from "@/lib/server/db";
import { gradeBenchmarkStandings, loadDefaultRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";

type Params = Record<string, string | string[] | undefined>;

export async function LeaderboardGrades({ user, benchmarkId }: { user: SessionUser | null; benchmarkId: string }) {
  const loaded = await loadDefaultRubric();
  if (!loaded.ok) return <p className="mt-8 text-sm text-red-700">The rubric could not be read: {loaded.issues.join("; ")}</p>;
  const standings = await gradeBenchmarkStandings(database(), user, benchmarkId, loaded.value);
  if (!standings.ok) return <p className="mt-8 text-sm text-red-700">Grading failed: {standings.issues.join("; ")}</p>;
  return <ModelGradesTable standings={standings.value} rubric={{ id: loaded.value.rubric.rubric_id, version: loaded.value.rubric.version }} />;
}

/** Link that switches the grade columns on or off, keeping the other query parameters. */
LeaderboardGrades.Toggle = function GradesToggle({ params }: { params: Params }) {
  const next = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === "grades" || value === undefined) continue;
    for (const entry of Array.isArray(value) ? value : [value]) next.append(key, entry);
  }
  const on = params.grades === "1";
  if (!on) next.set("grades", "1");
  const query = next.toString();
  return (
    <Link href={`/${query ? `?${query}` : ""}`} className={buttonStyles.secondary} data-testid="grades-toggle" data-on={on ? "true" : "false"}>
      {on ? "Hide grades" : "Show grades"}
    </Link>
  );
};
