import "server-only";
// Stability of a leaderboard row across its runs (lib/stats/stability): each run's stored verdicts, by its own judge,
// as every other page shows them. Pooled only within one configuration: the caller passes one row's runs.
import { CASES_PER_TURN } from "@/lib/stats/rates";
import { stabilityAcrossRuns, type Stability, type StabilityRunTurn, type StabilityTurnInput } from "@/lib/stats/stability";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";

export interface RowStability extends Stability {
  runLabels: Record<string, string>;
}

/** Null for fewer than two runs; runs still generating are left out. */
export async function getRowStability(db: Database, actor: SessionUser | null, runIds: readonly string[]): Promise<RowStability | null> {
  assertAllowed(actor, "read");
  const runs = await db.run.findMany({ where: { id: { in: [...runIds] }, status: "complete" }, select: { id: true, label: true, hasResolve: true }, orderBy: { importedAt: "asc" } });
  if (runs.length < 2) return null;
  const responses = await db.response.findMany({
    where: { runId: { in: runs.map((run) => run.id) } },
    select: {
      runId: true,
      turn: { select: { key: true, round: true, task: { select: { name: true, domain: { select: { name: true } } } } } },
      passResult: { select: { valid: true } },
      caseResults: { select: { position: true, verdict: true } },
    },
  });
  const turns = new Map<string, StabilityTurnInput & { byRun: Map<string, StabilityRunTurn> }>();
  for (const response of responses) {
    const key = response.turn.key;
    const turn = turns.get(key) ?? { turnKey: key, task: response.turn.task.name, round: response.turn.round, domain: response.turn.task.domain.name, byRun: new Map<string, StabilityRunTurn>() };
    const cases = Array.from({ length: CASES_PER_TURN }, (_, index) => {
      const result = response.caseResults.find((entry) => entry.position === index + 1);
      return result ? result.verdict : false;
    });
    turn.byRun.set(response.runId, { passed: response.passResult?.valid ?? false, cases });
    turns.set(key, turn);
  }
  const ordered = [...turns.values()].sort((a, b) => a.task.localeCompare(b.task) || a.round - b.round);
  const casesPerTurn = runs.every((run) => run.hasResolve) ? CASES_PER_TURN : 0;
  return { ...stabilityAcrossRuns(runs.map((run) => run.id), ordered, casesPerTurn), runLabels: Object.fromEntries(runs.map((run) => [run.id, run.label])) };
}
