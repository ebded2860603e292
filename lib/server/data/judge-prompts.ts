import "server-only";
// The judge's system prompt for a review queue: the benchmark's stored prompt file for the queue's stage
// (evaluation_pass_system / evaluation_resolve_system), exactly as imported. Annotators need "annotate".
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

export interface JudgeSystemPrompt {
  /** The prompt file's name without extension, e.g. "evaluation_pass_system". */
  name: string;
  text: string;
  fingerprint: string;
}

export const systemPromptName = (stage: string): string => `evaluation_${stage}_system`;

/** The system prompt the benchmark's judge used for the queue's stage; null when the benchmark has none stored. */
export async function getQueueJudgePrompt(db: Database, actor: SessionUser, queueId: string): Promise<JudgeSystemPrompt | null> {
  assertAllowed(actor, "annotate");
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId }, select: { benchmarkId: true, stage: true } });
  if (!queue) return null;
  const prompt = await db.benchmarkPrompt.findUnique({
    where: { benchmarkId_name: { benchmarkId: queue.benchmarkId, name: systemPromptName(queue.stage) } },
    select: { name: true, text: true, fingerprint: true },
  });
  return prompt;
}
