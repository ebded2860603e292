import "server-only";
// The shapes an evaluation is made of: its start request (validated), its judge choice, its generation overrides and
// the generate job's item keys. Shared by the evaluation service, the generate job and the progress read model.
import { z } from "zod";
import { GENERATION_MODES } from "@/lib/generation/protocol";
import { MAX_JUDGE_SAMPLES } from "@/lib/judge/majority";

export const GENERATE_JOB_KIND = "generate";
export const MAX_EVALUATION_RUNS = 5;

export const evaluationJudgeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("rule") }),
  z.object({
    kind: z.literal("llm"),
    endpointIds: z.array(z.string().min(1).max(100)).min(1, "Choose at least one judge endpoint.").max(9),
    samples: z.number().int().min(1).max(MAX_JUDGE_SAMPLES).optional(),
  }),
]);
export type EvaluationJudge = z.output<typeof evaluationJudgeSchema>;

export const startEvaluationSchema = z.object({
  benchmarkId: z.string().min(1).max(100),
  endpointId: z.string().min(1).max(100),
  mode: z.enum(GENERATION_MODES),
  judge: evaluationJudgeSchema.default({ kind: "none" }),
  difyConnectionId: z.string().min(1).max(100).optional(),
  caseFilesDir: z.string().min(1).max(1_000).optional(),
  runCount: z.number().int().min(1).max(MAX_EVALUATION_RUNS).default(1),
  params: z
    .object({
      temperature: z.number().min(0).max(2).optional(),
      maxTokens: z.number().int().min(1).max(1_000_000).optional(),
    })
    .strict()
    .default({}),
});
export type StartEvaluationInput = z.input<typeof startEvaluationSchema>;

/** Generation parameter overrides as stored on the evaluation ({temperature?, maxTokens?}). */
export type GenerationOverrides = { temperature?: number; maxTokens?: number };

export function generateItemKey(runId: string, task: string): string {
  return `${runId}:${task}`;
}

export function parseEvaluationJudge(text: string): EvaluationJudge {
  try {
    const parsed = evaluationJudgeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { kind: "none" };
  } catch {
    return { kind: "none" };
  }
}

export type EvaluationStatus = "running" | "succeeded" | "failed" | "cancelled";
