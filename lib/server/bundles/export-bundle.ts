import "server-only";
// Exports a run as a run bundle (lib/bundle/format.ts): the benchmark's identity, the evaluation's configuration, the
// run's official files (the same bytes as its downloads), stored scoring, judge verdicts, executed test cases,
// generation attempts and every model call with its request and reply, from the call cache where it still holds them.
// Never a secret: endpoints and Dify appear by label, model and endpoint identity (no key, password or credentials).
import { createHash } from "node:crypto";
import { turnKey } from "@/lib/benchmark/dataset";
import { officialJsonText, resolveRecordsText } from "@/lib/benchmark/official-files";
import { BUNDLE_FILES, BUNDLE_FORMAT, BUNDLE_VERSION, benchmarkContentHashes, packBundle, SKILL_FOLDER, type BundleCall, type BundleFile, type BundleInfo, type BundleJudge, type CallRequest } from "@/lib/bundle/format";
import type { GenerationMode } from "@/lib/generation/protocol";
import { RECORDED_JUDGE_ID, RULE_JUDGE_ID } from "@/lib/import/plan";
import { callCacheMaterial, endpointIdentity, type ChatParams } from "@/lib/judge/identity";
import type { ChatMessage, JudgeStage } from "@/lib/judge/protocol";
import { CORE_VERSION } from "@/lib/workflow/version";
import { APP_NAME, APP_VERSION } from "../app-version";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { getRunPassRecords, getRunResponseFile } from "../data/official-downloads";
import { getResolveRecordFile } from "../data/resolve-records";
import { findGenerateJob } from "../evaluations/jobs-of-evaluation";
import { parseColumn } from "../data/json-columns";
import { parseEvaluationJudge, type GenerationOverrides } from "../evaluations/types";
import { sha256 } from "../hash";
import { loadBenchmarkSource } from "../import/benchmark-source";
import { databaseCallCache } from "../jobs/db-call-cache";
import { generateJobKind, SKILL_PLACEHOLDER, type GenerateJobParams } from "../jobs/generate-job";
import { judgeQuestionsForRun } from "../jobs/judge-job";
import { callCacheKey } from "../llm";
import type { SessionUser } from "../session";
import { replayTurn, type ReplayRequest, type ServedCall } from "./generation-replay";

const bytesSha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The skill text an attempt's message carried, written as the stored attempts write it. */
const masked = (text: string, skill: string): string => (skill ? text.split(skill).join(SKILL_PLACEHOLDER) : text);

export interface ExportedBundle {
  fileName: string;
  bytes: Uint8Array;
}

/** The run as a bundle, or null when there is no such run. Readers may export what they may read. */
export async function exportRunBundle(db: Database, actor: SessionUser | null, runId: string): Promise<ExportedBundle | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      label: true,
      origin: true,
      status: true,
      coreVersion: true,
      generationMode: true,
      agentVersion: true,
      runNumber: true,
      hasResolve: true,
      responseCount: true,
      benchmark: { select: { id: true, name: true, version: true, fingerprint: true } },
      model: { select: { name: true, displayName: true } },
      evaluation: { select: { id: true, mode: true, runCount: true, params: true, judge: true, endpointId: true, difyConnectionId: true } },
    },
  });
  if (!run) return null;
  const [source, responseFile, passFile, resolveFile] = await Promise.all([
    loadBenchmarkSource(db, run.benchmark.id),
    getRunResponseFile(db, actor, runId),
    getRunPassRecords(db, actor, runId),
    getResolveRecordFile(db, actor, runId),
  ]);
  if (!source || !responseFile || !passFile || !resolveFile) return null;

  const responses = await db.response.findMany({
    where: { runId },
    orderBy: [{ turn: { task: { externalId: "asc" } } }, { turn: { round: "asc" } }],
    select: {
      id: true,
      rawText: true,
      turn: { select: { round: true, task: { select: { name: true } } } },
      passResult: {
        select: { valid: true, failStep: true, verdictSource: true, recordedValid: true, recordedFailStep: true, officialFailStep: true, ruleJudge: true, deterministicValid: true, coreVersion: true },
      },
      judgeVerdicts: {
        where: { judge: { notIn: [RECORDED_JUDGE_ID, RULE_JUDGE_ID] } },
        orderBy: [{ stage: "asc" }, { casePosition: "asc" }, { judge: "asc" }, { sampleIndex: "asc" }],
        select: { stage: true, casePosition: true, judge: true, sampleIndex: true, verdict: true, reason: true, wellFormed: true, promptFingerprint: true, inputFingerprint: true, judgeIdentity: true, rawOutput: true },
      },
      caseResults: { orderBy: { position: "asc" }, select: { position: true, verdict: true, outputs: true, fileCheck: true, files: true, error: true, difyRunId: true, elapsedMs: true } },
      attempts: {
        orderBy: { index: "asc" },
        select: { index: true, message: true, raw: true, outcome: true, candidate: true, repairs: true, issues: true, diagnostics: true, agentRun: true, latencyMs: true, inputTokens: true, outputTokens: true },
      },
    },
  });

  const calls: BundleCall[] = [];
  const cache = databaseCallCache(db);

  // The evaluation's configuration: what answered, who judged, where it ran; identities only, never a secret.
  let info: BundleInfo["evaluation"] = null;
  let generation: { params: GenerateJobParams; endpoint: { label: string; baseUrl: string; model: string } | null } | null = null;
  const skillFiles: BundleFile[] = [];
  if (run.evaluation) {
    const evaluation = run.evaluation;
    const job = await findGenerateJob(db, evaluation.id);
    const jobRow = job ? await db.job.findUnique({ where: { id: job.id }, select: { params: true } }) : null;
    const params = jobRow ? parseColumn<GenerateJobParams | null>(jobRow.params, generateJobKind.paramsSchema, null) : null;
    const endpointRow = evaluation.endpointId ? await db.modelEndpoint.findUnique({ where: { id: evaluation.endpointId }, select: { label: true, baseUrl: true, model: true } }) : null;
    if (params) generation = { params, endpoint: endpointRow };
    const judgeChoice = parseEvaluationJudge(evaluation.judge);
    let judge: BundleJudge = judgeChoice.kind === "llm" ? { kind: "llm", samples: judgeChoice.samples ?? 1, members: [] } : { kind: judgeChoice.kind };
    if (judgeChoice.kind === "llm") {
      const members = await db.modelEndpoint.findMany({ where: { id: { in: judgeChoice.endpointIds } }, select: { id: true, label: true, model: true, baseUrl: true } });
      const byId = new Map(members.map((member) => [member.id, member]));
      judge = {
        kind: "llm",
        samples: judgeChoice.samples ?? 1,
        members: judgeChoice.endpointIds.flatMap((id) => {
          const member = byId.get(id);
          return member ? [{ label: member.label, model: member.model, endpoint: endpointIdentity(member.baseUrl) }] : [];
        }),
      };
    }
    const dify = evaluation.difyConnectionId ? await db.difyConnection.findUnique({ where: { id: evaluation.difyConnectionId }, select: { label: true, baseUrl: true } }) : null;
    const skillTexts = params && params.mode !== "zero-shot" ? (params.skillFiles ?? { "SKILL.md": params.skill }) : null;
    if (skillTexts) for (const [path, text] of Object.entries(skillTexts).sort(([a], [b]) => (a < b ? -1 : 1))) skillFiles.push({ path: `${SKILL_FOLDER}${path}`, text });
    info = {
      id: evaluation.id,
      mode: evaluation.mode as GenerationMode,
      runCount: evaluation.runCount,
      params: parseJson<GenerationOverrides>(evaluation.params, {}),
      generation: endpointRow ? { label: endpointRow.label, model: endpointRow.model, endpoint: endpointIdentity(endpointRow.baseUrl) } : null,
      judge,
      judgePrompts: source.prompts.filter((prompt) => prompt.name.startsWith("evaluation_")).map((prompt) => ({ path: `prompts/${prompt.name}.txt`, sha256: sha256(prompt.text) })),
      dify: dify ? { label: dify.label, endpoint: endpointIdentity(dify.baseUrl) } : null,
      skill: skillFiles.length > 0 ? { files: skillFiles.map((file) => ({ path: file.path, sha256: sha256(file.text) })) } : null,
    };
  }

  // Generation calls: each stored turn replayed through the generation code, its calls served from the call cache
  // (or, where the cache no longer holds one, from the stored attempt), each recorded with its request.
  const queries = new Map(source.queries.map((task) => [task.task, task]));
  const answers = new Map(responses.map((response) => [turnKey(response.turn.task.name, response.turn.round), response.rawText ?? ""]));
  for (const response of responses) {
    const task = response.turn.task.name;
    const round = response.turn.round;
    if (generation && generation.endpoint && run.evaluation) {
      const { params, endpoint } = generation;
      const taskQueries = queries.get(task);
      if (!taskQueries) continue;
      const scope = `generate:${run.evaluation.id}:${run.runNumber ?? 0}:${turnKey(task, round)}`;
      const identity = endpointIdentity(endpoint.baseUrl);
      const serve = async (index: number, request: ReplayRequest): Promise<ServedCall> => {
        const key =
          request.kind === "chat"
            ? sha256(`${callCacheMaterial({ endpoint: identity, model: endpoint.model, params: request.params, messages: request.messages, sample: 0 })}\n${scope}:${index}`)
            : sha256(`${callCacheMaterial({ endpoint: endpoint.baseUrl, model: endpoint.model, params: {}, messages: [{ role: "user", content: `${run.agentVersion ?? ""}\n${request.message}` }], sample: 0 })}\n${scope}:${index}`);
        const recorded: CallRequest =
          request.kind === "chat"
            ? { endpoint: identity, model: endpoint.model, params: request.params as Record<string, number>, messages: request.messages.map((message) => ({ role: message.role, content: masked(message.content, params.skill) })) }
            : { agent: run.agentVersion ?? "", endpoint: identity, model: endpoint.model, message: masked(request.message, params.skill) };
        const base = { id: calls.length, kind: "generation" as const, task, round, call: index, stage: null, test: null, judge: null, sample: null, cacheKey: key, request: recorded };
        const hit = await cache.get(key);
        if (hit) {
          calls.push({ ...base, source: "call-cache", reply: { content: hit.content }, failure: null });
          return { kind: "reply", content: hit.content };
        }
        const attempt = response.attempts[index];
        if (!attempt) return { kind: "missing", reason: "the call is neither in the call cache nor among the stored attempts" };
        if (attempt.outcome === "timeout" && request.kind === "chat") {
          calls.push({ ...base, source: "attempt", reply: null, failure: "timeout" });
          return { kind: "timeout" };
        }
        const content = request.kind === "agent" ? JSON.stringify({ kind: attempt.outcome === "timeout" ? "timeout" : "reply", content: attempt.raw, message: attempt.raw, agentRun: parseJson(attempt.agentRun, undefined) }) : attempt.raw;
        calls.push({ ...base, source: "attempt", reply: { content }, failure: null });
        return { kind: "reply", content };
      };
      const history = Array.from({ length: round - 1 }, (_, index) => ({ query: taskQueries.queries[index] ?? "", answer: answers.get(turnKey(task, index + 1)) ?? "" }));
      await replayTurn({
        mode: params.mode,
        builderPrompt: source.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "",
        skill: params.skill,
        overrides: params.overrides,
        endpoint: identity,
        model: endpoint.model,
        task: { id: taskQueries.id, category: taskQueries.category, task, queries: taskQueries.queries },
        round,
        history,
        serve,
      });
    } else {
      // Without the evaluation's job or endpoint the requests cannot be rebuilt: each attempt's message and reply.
      response.attempts.forEach((attempt, index) =>
        calls.push({
          id: calls.length,
          kind: "generation",
          task,
          round,
          call: index,
          stage: null,
          test: null,
          judge: null,
          sample: null,
          source: "attempt",
          cacheKey: null,
          request: { message: attempt.message },
          reply: attempt.outcome === "timeout" ? null : { content: attempt.raw },
          failure: attempt.outcome === "timeout" ? "timeout" : null,
        }),
      );
    }
  }

  // Judge calls: the question rebuilt as the judge job builds it, the reply from the call cache (else the verdict's raw reply).
  const questions = new Map<string, ChatMessage[]>();
  const stages = new Set(responses.flatMap((response) => response.judgeVerdicts.map((verdict) => verdict.stage as JudgeStage)));
  for (const stage of stages) {
    const built = await judgeQuestionsForRun(db, runId, stage);
    if (built.ok) for (const question of built.questions) questions.set(`${question.responseId}:${stage}:${question.casePosition}`, question.messages);
  }
  const judgeVerdicts = [];
  for (const response of responses) {
    const task = response.turn.task.name;
    const round = response.turn.round;
    for (const verdict of response.judgeVerdicts) {
      const identity = parseJson<{ endpoint?: unknown; model?: unknown; params?: unknown } | null>(verdict.judgeIdentity, null);
      const messages = questions.get(`${response.id}:${verdict.stage}:${verdict.casePosition}`);
      let call: BundleCall | null = null;
      if (identity && typeof identity.endpoint === "string" && typeof identity.model === "string") {
        const params = (typeof identity.params === "object" && identity.params !== null ? identity.params : {}) as ChatParams;
        const key = messages ? callCacheKey({ endpoint: identity.endpoint, model: identity.model, params, messages, sample: verdict.sampleIndex }) : null;
        const hit = key ? await cache.get(key) : null;
        const reply = hit?.content ?? verdict.rawOutput;
        call = {
          id: calls.length,
          kind: "judge",
          task,
          round,
          call: null,
          stage: verdict.stage as JudgeStage,
          test: verdict.casePosition,
          judge: verdict.judge,
          sample: verdict.sampleIndex,
          source: hit ? "call-cache" : "verdict",
          cacheKey: key,
          request: messages ? { endpoint: identity.endpoint, model: identity.model, params: params as Record<string, number>, messages } : { message: "" },
          reply: reply === null ? null : { content: reply },
          failure: null,
        };
        calls.push(call);
      }
      judgeVerdicts.push({
        task,
        round,
        stage: verdict.stage as JudgeStage,
        test: verdict.casePosition,
        judge: verdict.judge,
        sample: verdict.sampleIndex,
        verdict: verdict.verdict,
        reason: verdict.reason,
        wellFormed: verdict.wellFormed,
        promptFingerprint: verdict.promptFingerprint,
        inputFingerprint: verdict.inputFingerprint,
        judgeIdentity: parseJson<Record<string, unknown> | null>(verdict.judgeIdentity, null),
        call: call?.id ?? null,
      });
    }
  }

  const bundleInfo: BundleInfo = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt: new Date().toISOString(),
    app: { name: APP_NAME, version: APP_VERSION, scoringCore: CORE_VERSION },
    run: {
      id: run.id,
      label: run.label,
      origin: run.origin,
      status: run.status,
      model: run.model.name,
      modelDisplayName: run.model.displayName,
      coreVersion: run.coreVersion,
      generationMode: (run.generationMode as GenerationMode | null) ?? null,
      agentVersion: run.agentVersion,
      runNumber: run.runNumber,
      hasResolve: run.hasResolve,
      responseCount: responses.length,
    },
    benchmark: { name: run.benchmark.name, version: run.benchmark.version, fingerprint: run.benchmark.fingerprint, files: benchmarkContentHashes(source, sha256) },
    evaluation: info,
  };
  const files: BundleFile[] = [
    { path: BUNDLE_FILES.info, text: json(bundleInfo) },
    { path: BUNDLE_FILES.responses, text: officialJsonText(responseFile.data) },
    { path: BUNDLE_FILES.passRecords, text: officialJsonText(passFile.data) },
    { path: BUNDLE_FILES.resolveRecords, text: resolveRecordsText(resolveFile.records) },
    {
      path: BUNDLE_FILES.scoring,
      text: json(responses.flatMap((response) => (response.passResult ? [{ task: response.turn.task.name, round: response.turn.round, ...response.passResult }] : []))),
    },
    { path: BUNDLE_FILES.judgeVerdicts, text: json(judgeVerdicts) },
    {
      path: BUNDLE_FILES.cases,
      text: json(
        responses.flatMap((response) =>
          response.caseResults.map((entry) => ({
            task: response.turn.task.name,
            round: response.turn.round,
            test: entry.position,
            verdict: entry.verdict,
            outputs: entry.outputs,
            fileCheck: entry.fileCheck,
            files: parseJson<unknown>(entry.files, null),
            error: entry.error,
            difyRunId: entry.difyRunId,
            elapsedMs: entry.elapsedMs,
          })),
        ),
      ),
    },
    {
      path: BUNDLE_FILES.attempts,
      text: json(
        responses.flatMap((response) =>
          response.attempts.map((attempt) => ({
            task: response.turn.task.name,
            round: response.turn.round,
            ...attempt,
            repairs: parseJson<unknown>(attempt.repairs, []),
            issues: parseJson<unknown>(attempt.issues, []),
            diagnostics: parseJson<unknown>(attempt.diagnostics, []),
            agentRun: parseJson<unknown>(attempt.agentRun, null),
          })),
        ),
      ),
    },
    { path: BUNDLE_FILES.calls, text: json(calls) },
    ...skillFiles,
  ];
  const stem = `${run.model.name}${run.runNumber !== null ? `_run${run.runNumber}` : ""}`.replace(/[^\w.-]/g, "_");
  return { fileName: `bundle_${stem}_${run.id}.zip`, bytes: packBundle(files, bytesSha256) };
}
