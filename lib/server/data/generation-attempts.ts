import "server-only";
// The stored attempts of a generated turn (GenerationAttempt rows) for the response page's attempt timeline.
// Imported turns have none and get an empty list; texts are clipped to the page limit so a huge reply stays a download.
import { attemptTimeline, type TimelineAttempt } from "@/lib/generation/attempt-timeline";
import { clipNullable, clipText } from "@/lib/viewer/page-text";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";

export async function listGenerationAttempts(db: Database, actor: SessionUser | null, responseId: string): Promise<TimelineAttempt[]> {
  assertAllowed(actor, "read");
  const rows = await db.generationAttempt.findMany({
    where: { responseId },
    orderBy: { index: "asc" },
    select: { index: true, message: true, raw: true, outcome: true, candidate: true, repairs: true, issues: true, diagnostics: true, latencyMs: true, inputTokens: true, outputTokens: true, agentRun: true },
  });
  return attemptTimeline(rows.map((row) => ({ ...row, message: clipText(row.message).text, raw: clipText(row.raw).text, candidate: clipNullable(row.candidate) }))).map((attempt) =>
    attempt.agentRun ? { ...attempt, agentRun: { ...attempt.agentRun, steps: attempt.agentRun.steps.map((step) => clipText(step).text), stderrTail: clipText(attempt.agentRun.stderrTail).text } } : attempt,
  );
}
