// Everything an end-to-end evaluation needs on loopback, for the API and run-bundle tests: the shared benchmark
// imported, a generation stub replaying a shared run's recorded answers (not a model), a judge stub whose verdicts
// follow a hash of the question (so some turns pass and some fail, the same way every time), the fake Dify
// executing workflows with outputs shaped by the turn's checks, and a worker running all three job kinds.
import { createHash } from "node:crypto";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { outputGroups } from "@/lib/benchmark/turn";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import type { Database } from "@/lib/server/db";
import { generateJobHandler } from "@/lib/server/jobs/generate-job";
import { jobQueue } from "@/lib/server/jobs/instance";
import { judgeJobHandler } from "@/lib/server/jobs/judge-job";
import { resolveJobHandler } from "@/lib/server/jobs/resolve-job";
import { JobWorker } from "@/lib/server/jobs/worker";
import { testDatabaseUrl } from "./database";
import { importBenchmarkOnly } from "./evaluation-fixtures";
import { difyFileOutput, startFakeDify, type FakeDify } from "./fake-dify";
import { zeroShotReplay, type GenerationReplay } from "./generation-replay";
import { officialReply, startOpenAIStub, type OpenAIStub, type StubHandler } from "./openai-stub";

/** Secrets the tests hand to the app; none may ever appear in an answer or a bundle. */
export const SECRETS = {
  endpointKey: "sk-test-endpoint-key-4f1d9c2b7a",
  judgeKey: "sk-test-judge-key-8e3b5a0c61",
  difyPassword: "dify-test-password-93c1e7",
} as const;

export const DIFY_EMAIL = "admin@example.com";
/** The shared run whose recorded answers the generation stub replays. */
export const REPLAYED_MODEL = "claude_sonnet4d5";

/** Pass or fail by a hash of the question: deterministic, and both verdicts occur. */
export const hashedJudge: StubHandler = (request) => {
  const digest = createHash("sha256").update(JSON.stringify(request.messages)).digest();
  const verdict = (digest[0]! & 3) !== 0;
  return { kind: "reply", content: officialReply(verdict ? "The workflow meets the design." : "A required step is missing.", verdict) };
};

export interface EvaluationWorld {
  files: BenchmarkFiles;
  benchmarkId: string;
  benchmarkDir: string;
  caseFilesDir: string;
  generation: OpenAIStub;
  replay: GenerationReplay;
  judge: OpenAIStub;
  dify: FakeDify;
  /** A worker over every job kind an evaluation queues (generation, judging, Dify execution). */
  worker(): JobWorker;
  close(): Promise<void>;
}

export async function startEvaluationWorld(db: Database, benchmarkDir: string): Promise<EvaluationWorld> {
  const read = await readBenchmarkDir(benchmarkDir);
  if (!read.ok) throw new Error(read.issues.map((entry) => entry.message).join("\n"));
  const files = read.value;
  const records = files.runs.find((run) => run.model === REPLAYED_MODEL)?.records ?? [];
  const replay = zeroShotReplay(files.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "", files.queries, records);
  const generation = await startOpenAIStub(replay.handler);
  const judge = await startOpenAIStub(hashedJudge);
  const dify = await startFakeDify({
    email: DIFY_EMAIL,
    password: SECRETS.difyPassword,
    run: (app) => {
      const name = String((parseYaml(app.yaml) as { app: { name: string } }).app.name);
      const checks = files.checkResolve[name] ?? {};
      const outputs: Record<string, unknown> = {};
      for (const group of outputGroups(files.turns.get(name)?.outputVars ?? [])) {
        for (const variable of group) outputs[variable] = checks[variable] ? difyFileOutput(checks[variable], "application/octet-stream") : `text for ${variable}`;
      }
      return outputs;
    },
  });
  const benchmarkId = await importBenchmarkOnly(db, benchmarkDir);
  const queue = () => jobQueue(db, testDatabaseUrl(), { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 });
  return {
    files,
    benchmarkId,
    benchmarkDir,
    caseFilesDir: path.join(benchmarkDir, "case_files"),
    generation,
    replay,
    judge,
    dify,
    worker: () =>
      new JobWorker(
        db,
        queue(),
        [generateJobHandler({ clientRetries: 0, clientBackoffBaseMs: 5 }), judgeJobHandler({ clientRetries: 0, clientBackoffBaseMs: 5 }), resolveJobHandler({ maxAttempts: 2, serviceBackoffMs: 10, judgeClientRetries: 0 })],
        { pollMs: 20, leaseMs: 10_000 },
      ),
    close: async () => {
      await Promise.all([generation.close(), judge.close(), dify.close()]);
    },
  };
}
