import "server-only";
// Pairwise judging of two stored runs (§8): for each turn both runs answered, an LLM judge compares the two workflows
// in both orders through the chat client; the pure tally (lib/grading/pairwise) turns the answers into a win rate.
import { judgeSwappedPairs, type AskJudge, type InconsistencyPolicy, type PairwiseItem, type PairwiseRun } from "@/lib/grading/pairwise";
import { err, ok } from "@/lib/result";
import type { Database } from "./db";
import { assertAllowed } from "./authz";
import type { ChatClient } from "./llm";
import type { SessionUser } from "./session";

/** The client as the pairwise tally's `ask`: temperature 0 (guide §8.5), failures as reasons, never as answers. */
export function askWithClient(client: ChatClient, signal?: AbortSignal): AskJudge {
  return async (messages) => {
    const outcome = await client.complete(messages, { params: { temperature: 0 }, ...(signal ? { signal } : {}) });
    return outcome.ok ? ok(outcome.content) : err(`${outcome.error.kind}: ${outcome.error.message}`);
  };
}

/** The turns both runs answered, with each run's workflow (or raw answer when there is none) and the instruction. */
export async function pairwiseItems(db: Database, actor: SessionUser | null, candidateRunId: string, baselineRunId: string): Promise<PairwiseItem[]> {
  assertAllowed(actor, "read");
  const load = (runId: string) =>
    db.response.findMany({ where: { runId }, select: { turnId: true, workflow: true, rawText: true, turn: { select: { key: true, instruction: true } } } });
  const [candidate, baseline] = await Promise.all([load(candidateRunId), load(baselineRunId)]);
  const baselineByTurn = new Map(baseline.map((response) => [response.turnId, response]));
  return candidate
    .filter((response) => baselineByTurn.has(response.turnId))
    .map((response) => {
      const other = baselineByTurn.get(response.turnId)!;
      return {
        key: response.turn.key,
        instruction: response.turn.instruction,
        candidate: response.workflow ?? response.rawText ?? "",
        baseline: other.workflow ?? other.rawText ?? "",
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Judges two stored runs pairwise with swapped order; researchers and admins only, since it spends model calls. */
export async function judgeRunsPairwise(
  db: Database,
  actor: SessionUser | null,
  candidateRunId: string,
  baselineRunId: string,
  client: ChatClient,
  policy: InconsistencyPolicy = "tie",
  signal?: AbortSignal,
): Promise<PairwiseRun & { judge: { endpoint: string; model: string } }> {
  assertAllowed(actor, "import");
  const items = await pairwiseItems(db, actor, candidateRunId, baselineRunId);
  const run = await judgeSwappedPairs(items, askWithClient(client, signal), policy);
  return { ...run, judge: { endpoint: client.endpoint, model: client.model } };
}
