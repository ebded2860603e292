import "server-only";
// Checks a run bundle against the benchmark it names and against itself: every response re-scored with this app's
// core, every judge verdict re-read from its recorded reply (and its question rebuilt from the answer), every pass
// verdict and judged test case re-derived with the rules the app uses, and every generated turn replayed through the
// generation code from its recorded calls. Each disagreement names its file, record and field; what cannot be
// re-derived (recorded verdicts, Dify's outcomes) is counted as taken from the run.
import { turnKey } from "@/lib/benchmark/dataset";
import type { GenerationItem, RunRecord } from "@/lib/benchmark/runs";
import { buildTurnSpecs, type TurnSpec } from "@/lib/benchmark/turn";
import { benchmarkContentHashes, type BundleAttempts, type BundleCall, type BundleCalls, type BundleCases, type BundleFinding, type BundleInfo, type BundleJudgeVerdicts, type BundleScoring } from "@/lib/bundle/format";
import type { BenchmarkSource } from "@/lib/import/plan";
import { planGeneratedResponse } from "@/lib/import/plan";
import type { ResponsePlan } from "@/lib/import/plan-types";
import { passJudgeItem, resolveJudgeItem, type TestPosition } from "@/lib/judge/items";
import { canonicalJson, type ChatParams } from "@/lib/judge/identity";
import { officialSystemPrompt, parseJudgeReply, type ChatMessage, type JudgeTestInput } from "@/lib/judge/protocol";
import { evaluationPassVerdict, type StoredPass } from "@/lib/judge/pass-stage";
import { panelVerdict } from "@/lib/judge/majority";
import { CORE_VERSION } from "@/lib/workflow/version";
import { sha256 } from "../hash";
import { SKILL_PLACEHOLDER } from "../jobs/generate-job";
import { callCacheKey } from "../llm";
import { replayTurn, type ReplayRequest, type ServedCall } from "./generation-replay";

export interface BundleContents {
  info: BundleInfo;
  responses: GenerationItem[];
  passRecords: RunRecord[];
  resolveRecords: RunRecord[];
  scoring: BundleScoring;
  judgeVerdicts: BundleJudgeVerdicts;
  cases: BundleCases;
  attempts: BundleAttempts;
  calls: BundleCalls;
  /** skill/<path> → text. */
  skillFiles: Map<string, string>;
}

export interface VerificationCounts {
  responses: number;
  rescored: number;
  passVerdictsRederived: number;
  passVerdictsAsRecorded: number;
  judgeVerdictsRederived: number;
  turnsReplayed: number;
  caseVerdictsRederived: number;
  caseVerdictsAsRecorded: number;
  calls: number;
}

export interface Verification {
  findings: BundleFinding[];
  checked: VerificationCounts;
  /** Each response re-scored, by turn key. */
  plans: Map<string, ResponsePlan>;
  /** Each LLM judge verdict as its recorded reply reads, by verdictKey. */
  judgeVerdicts: Map<string, boolean>;
}

export const verdictKey = (entry: { task: string; round: number; stage: string; test: number; judge: string; sample: number }): string =>
  `${entry.task}\u0000${entry.round}\u0000${entry.stage}\u0000${entry.test}\u0000${entry.judge}\u0000${entry.sample}`;

const recordName = (task: string, round: number): string => `${task} round ${round}`;
const show = (value: unknown): string => (value === null || value === undefined ? "none" : JSON.stringify(value));
const masked = (text: string, skill: string): string => (skill ? text.split(skill).join(SKILL_PLACEHOLDER) : text);

export async function verifyBundle(bundle: BundleContents, benchmark: BenchmarkSource): Promise<Verification> {
  const findings: BundleFinding[] = [];
  const flag = (file: string, record: string | null, field: string | null, message: string) => findings.push({ file, record, field, message });
  const checked: VerificationCounts = {
    responses: 0,
    rescored: 0,
    passVerdictsRederived: 0,
    passVerdictsAsRecorded: 0,
    judgeVerdictsRederived: 0,
    turnsReplayed: 0,
    caseVerdictsRederived: 0,
    caseVerdictsAsRecorded: 0,
    calls: bundle.calls.length,
  };
  const { info } = bundle;

  // The benchmark: the same content, file by file, as the one the run was made on.
  const hashes = new Map(benchmarkContentHashes(benchmark, sha256).map((file) => [file.path, file.sha256]));
  for (const file of info.benchmark.files) {
    if (hashes.get(file.path) !== file.sha256) flag("bundle.json", "benchmark", file.path, `sha256 ${file.sha256.slice(0, 12)}… differs from this benchmark's ${hashes.get(file.path)?.slice(0, 12) ?? "(no such file)"}…`);
  }
  for (const file of info.evaluation?.skill?.files ?? []) {
    const text = bundle.skillFiles.get(file.path);
    if (text === undefined || sha256(text) !== file.sha256) flag(file.path, null, null, "its sha256 differs from the one bundle.json records for the skill");
  }
  const skill = bundle.skillFiles.get("skill/SKILL.md") ?? "";

  const specs: ReadonlyMap<string, TurnSpec> = buildTurnSpecs(benchmark.checkPass, benchmark.checkResolve);
  const queries = new Map(benchmark.queries.map((task) => [task.task, task]));
  const prompt = (name: string) => benchmark.prompts.find((candidate) => candidate.name === name)?.text ?? null;
  const passPrompt = prompt("evaluation_pass_system");
  const resolvePrompt = prompt("evaluation_resolve_system");
  const recordedRun = info.run.origin === "recorded";
  const slowCore = (stored: string) => (stored === CORE_VERSION ? "" : ` (the run was scored with core ${stored}, this app has ${CORE_VERSION})`);

  // Re-score every answer with this app's core, and compare with the scoring the run stored.
  const plans = new Map<string, ResponsePlan>();
  const answers = new Map<string, string>();
  const scoring = new Map(bundle.scoring.map((entry) => [turnKey(entry.task, entry.round), entry]));
  for (const item of bundle.responses) {
    for (const answer of item.answers) {
      const key = turnKey(item.task, answer.round);
      checked.responses += 1;
      answers.set(key, answer.text);
      const spec = specs.get(key);
      if (!spec) {
        flag("responses.json", recordName(item.task, answer.round), null, "not a turn of this benchmark");
        continue;
      }
      const plan = planGeneratedResponse(item.task, answer.round, answer.text, spec, sha256);
      plans.set(key, plan);
      checked.rescored += 1;
      const stored = scoring.get(key);
      if (!stored) {
        flag("scoring.json", recordName(item.task, answer.round), null, "missing: the run stored no scoring for this turn");
        continue;
      }
      for (const field of ["officialFailStep", "ruleJudge", "deterministicValid"] as const) {
        if (stored[field] !== plan.pass[field]) flag("scoring.json", recordName(item.task, answer.round), field, `the bundle says ${show(stored[field])}; re-scoring the answer gives ${show(plan.pass[field])}${slowCore(stored.coreVersion)}`);
      }
    }
  }

  // Judge verdicts: each re-read from its recorded reply, its question rebuilt from the answer it judged.
  const calls = new Map(bundle.calls.map((call) => [call.id, call]));
  const judgeVerdicts = new Map<string, boolean>();
  const casesByKey = new Map(bundle.cases.map((entry) => [`${turnKey(entry.task, entry.round)}:${entry.test}`, entry]));
  for (const entry of bundle.judgeVerdicts) {
    const name = recordName(entry.task, entry.round);
    const which = `${entry.stage} verdict of ${entry.judge}${entry.stage === "resolve" ? ` on test ${entry.test}` : ""}, sample ${entry.sample}`;
    const call = entry.call === null ? undefined : calls.get(entry.call);
    let verdict = entry.verdict;
    if (!call || !call.reply) {
      flag("judge-verdicts.json", name, which, "no recorded reply to re-derive it from");
    } else {
      verdict = parseJudgeReply(call.reply.content).verdict;
      checked.judgeVerdictsRederived += 1;
      if (verdict !== entry.verdict) flag("judge-verdicts.json", name, which, `the bundle says ${entry.verdict ? "pass" : "fail"}; the recorded reply (calls.json call ${call.id}) reads ${verdict ? "pass" : "fail"}`);
      const question = rebuildQuestion(entry, call);
      if (question && "messages" in call.request) {
        if (canonicalJson(question) !== canonicalJson(call.request.messages)) flag("calls.json", name, `call ${call.id} request`, `not the question about this answer: the ${entry.stage} question rebuilt from the bundle's answer differs`);
        const key = callCacheKey({ endpoint: call.request.endpoint, model: call.request.model, params: call.request.params as ChatParams, messages: call.request.messages, sample: entry.sample });
        if (call.cacheKey !== null && call.cacheKey !== key) flag("calls.json", name, `call ${call.id} cacheKey`, "does not address the recorded request");
      }
    }
    judgeVerdicts.set(verdictKey(entry), verdict);
  }

  function rebuildQuestion(entry: BundleJudgeVerdicts[number], call: BundleCall): ChatMessage[] | null {
    const key = turnKey(entry.task, entry.round);
    const plan = plans.get(key);
    const spec = specs.get(key);
    if (!plan || !spec || !("messages" in call.request)) return null;
    if (entry.stage === "pass") {
      if (!passPrompt || plan.nodeSelection === null || plan.designPrinciple === null || plan.workflow === null) return null;
      return passJudgeItem(
        { model: info.run.model, task: entry.task, round: entry.round, nodeSelection: plan.nodeSelection, designPrinciple: plan.designPrinciple, workflow: plan.workflow, keyNodes: spec.keyNodes, recorded: null },
        officialSystemPrompt(passPrompt),
      ).messages;
    }
    const testCase = casesByKey.get(`${key}:${entry.test}`);
    const test = spec.tests[entry.test - 1];
    if (!resolvePrompt || !testCase || testCase.outputs === null || !test) return null;
    return resolveJudgeItem(
      {
        model: info.run.model,
        task: entry.task,
        round: entry.round,
        test: entry.test as TestPosition,
        queries: queries.get(entry.task)?.queries ?? [],
        inputs: test.inputs as Record<string, JudgeTestInput>,
        outputs: testCase.outputs,
        groundTruth: test.groundTruth,
        recorded: null,
      },
      officialSystemPrompt(resolvePrompt),
    ).messages;
  }

  // Pass verdicts: re-derived from the re-scoring and the judge's re-read verdicts, by the rule the app decides with.
  const judge = info.evaluation?.judge;
  const members = judge?.kind === "llm" ? judge.members.map((member) => member.label) : [];
  const passRecords = new Map(bundle.passRecords.map((record) => [turnKey(record.task, record.round), record]));
  for (const [key, plan] of plans) {
    const [task, round] = [plan.turnKey.slice(0, plan.turnKey.lastIndexOf("_")), Number(plan.turnKey.slice(plan.turnKey.lastIndexOf("_") + 1))];
    const name = recordName(task, round);
    const record = passRecords.get(key);
    if (!record) {
      flag("pass-records.json", name, null, "missing: the bundle has an answer for this turn but no pass record");
      continue;
    }
    for (const [field, ours] of [
      ["node_selection", plan.nodeSelection],
      ["design_principle", plan.designPrinciple],
      ["workflow", plan.workflow],
    ] as const) {
      if (record[field] !== ours) flag("pass-records.json", name, field, "differs from the answer in responses.json");
    }
    const stored = scoring.get(key);
    let base: StoredPass = { valid: plan.pass.valid, failStep: plan.pass.failStep, officialFailStep: plan.pass.officialFailStep };
    let asRecorded = false;
    if (stored?.verdictSource === "recorded") {
      base = { valid: stored.recordedValid ?? false, failStep: stored.recordedFailStep, officialFailStep: plan.pass.officialFailStep };
      asRecorded = true;
    } else if (stored?.failStep === "step_1_5" && plan.pass.officialFailStep === null) {
      // Dify refused the workflow's import: an outcome of the run's execution, not re-derivable here.
      base = { valid: false, failStep: "step_1_5", officialFailStep: null };
      asRecorded = true;
    }
    const samples = new Map<string, boolean[]>();
    for (const entry of bundle.judgeVerdicts) {
      if (entry.stage !== "pass" || entry.task !== task || entry.round !== round) continue;
      samples.set(entry.judge, [...(samples.get(entry.judge) ?? []), judgeVerdicts.get(verdictKey(entry)) ?? entry.verdict]);
    }
    const expected = evaluationPassVerdict(base, recordedRun ? [] : members, samples);
    if (asRecorded) checked.passVerdictsAsRecorded += 1;
    else checked.passVerdictsRederived += 1;
    const how = expected.failStep ? `fail at ${expected.failStep}` : "pass";
    if (record.valid !== expected.valid) flag("pass-records.json", name, "valid", `the bundle says ${record.valid}; re-derived: ${how}`);
    if ((record.fail_step ?? null) !== expected.failStep) flag("pass-records.json", name, "fail_step", `the bundle says ${show(record.fail_step ?? null)}; re-derived: ${show(expected.failStep)}`);
  }
  for (const record of bundle.passRecords) {
    if (!plans.has(turnKey(record.task, record.round)) && !answers.has(turnKey(record.task, record.round))) flag("pass-records.json", recordName(record.task, record.round), null, "no answer for this turn in responses.json");
  }

  // Resolve records: the same pass verdicts as the pass records, and each test the evaluation's judge decided re-derived.
  for (const record of bundle.resolveRecords) {
    const name = recordName(record.task, record.round);
    const key = turnKey(record.task, record.round);
    const pass = passRecords.get(key);
    if (!pass) {
      flag("resolve-records.json", name, null, "no pass record for this turn");
      continue;
    }
    for (const field of ["valid", "fail_step", "has_been_judged", "node_selection", "design_principle", "workflow"] as const) {
      if ((record[field] ?? null) !== (pass[field] ?? null)) flag("resolve-records.json", name, field, "differs from pass-records.json");
    }
    if (!record.valid) continue;
    for (const test of [1, 2, 3] as const) {
      const reported = record[`test${test}`];
      const testCase = casesByKey.get(`${key}:${test}`);
      if (!testCase) {
        if (reported === undefined) continue;
        if (recordedRun) checked.caseVerdictsAsRecorded += 1;
        else flag("cases.json", name, `test ${test}`, "missing: resolve-records.json reports this test case but the bundle has no result for it");
        continue;
      }
      // A case not judged (null) has no testN in the official file.
      if ((testCase.verdict ?? undefined) !== reported) flag("resolve-records.json", name, `test${test}`, `the bundle says ${show(reported ?? null)}; cases.json says ${testCase.verdict === null ? "not judged" : testCase.verdict}`);
      const samples = new Map<string, boolean[]>();
      for (const entry of bundle.judgeVerdicts) {
        if (entry.stage !== "resolve" || entry.task !== record.task || entry.round !== record.round || entry.test !== test || !members.includes(entry.judge)) continue;
        samples.set(entry.judge, [...(samples.get(entry.judge) ?? []), judgeVerdicts.get(verdictKey(entry)) ?? entry.verdict]);
      }
      if (recordedRun || samples.size === 0) {
        checked.caseVerdictsAsRecorded += 1;
        continue;
      }
      const derived = panelVerdict(members, samples);
      checked.caseVerdictsRederived += 1;
      if (derived !== testCase.verdict) flag("resolve-records.json", name, `test${test}`, `the bundle says ${testCase.verdict === null ? "not judged" : testCase.verdict}; the judge's recorded replies give ${derived === null ? "no verdict" : derived}`);
    }
  }

  // Generated turns: replayed through the generation code with the recorded calls; the answer must come back.
  const generation = info.evaluation?.generation;
  const generationCalls = new Map<string, BundleCall[]>();
  for (const call of bundle.calls) {
    if (call.kind !== "generation") continue;
    const key = turnKey(call.task, call.round);
    generationCalls.set(key, [...(generationCalls.get(key) ?? []), call]);
  }
  const attempts = new Map<string, BundleAttempts>();
  for (const attempt of bundle.attempts) {
    const key = turnKey(attempt.task, attempt.round);
    attempts.set(key, [...(attempts.get(key) ?? []), attempt]);
  }
  const mode = info.evaluation?.mode ?? null;
  if (generation && mode) {
    const builderPrompt = prompt("builder_prompt") ?? "";
    for (const [key, turnCalls] of generationCalls) {
      const plan = plans.get(key);
      const task = queries.get(plan ? plan.turnKey.slice(0, plan.turnKey.lastIndexOf("_")) : "");
      if (!plan || !task) continue;
      const round = Number(plan.turnKey.slice(plan.turnKey.lastIndexOf("_") + 1));
      const name = recordName(task.task, round);
      // Calls known only by their attempt's message cannot be replayed faithfully (the request is not recorded).
      if (turnCalls.some((call) => !("messages" in call.request) && !("agent" in call.request))) continue;
      const ordered = [...turnCalls].sort((a, b) => (a.call ?? 0) - (b.call ?? 0));
      let requestFlagged = false;
      const serve = async (index: number, request: ReplayRequest): Promise<ServedCall> => {
        const call = ordered[index];
        if (!call) return { kind: "missing", reason: `the bundle records no call ${index} for this turn` };
        const asked =
          request.kind === "chat"
            ? canonicalJson({ params: request.params, messages: request.messages.map((message) => ({ role: message.role, content: masked(message.content, skill) })) })
            : canonicalJson({ message: masked(request.message, skill) });
        const recorded = "messages" in call.request ? canonicalJson({ params: call.request.params, messages: call.request.messages }) : "agent" in call.request ? canonicalJson({ message: call.request.message }) : "";
        if (asked !== recorded && !requestFlagged) {
          requestFlagged = true;
          flag("calls.json", name, `call ${call.id} request`, "differs from the request the generation code makes from the instructions and the earlier answers in responses.json");
        }
        if (call.failure === "timeout") return { kind: "timeout" };
        return call.reply ? { kind: "reply", content: call.reply.content } : { kind: "missing", reason: "the call has no recorded reply" };
      };
      const history = Array.from({ length: round - 1 }, (_, index) => ({ query: task.queries[index] ?? "", answer: answers.get(turnKey(task.task, index + 1)) ?? "" }));
      const replayed = await replayTurn({
        mode,
        builderPrompt,
        skill,
        overrides: info.evaluation?.params ?? {},
        endpoint: generation.endpoint,
        model: generation.model,
        task: { id: task.id, category: task.category, task: task.task, queries: task.queries },
        round,
        history,
        serve,
      });
      checked.turnsReplayed += 1;
      if (!replayed.ok || replayed.answer === undefined) {
        flag("calls.json", name, null, `the recorded calls do not produce an answer (${replayed.error ?? "no answer"})`);
        continue;
      }
      if (replayed.answer !== answers.get(key)) flag("responses.json", name, "answer", "differs from the answer the recorded generation calls give");
      const storedOutcomes = (attempts.get(key) ?? []).sort((a, b) => a.index - b.index).map((attempt) => attempt.outcome);
      const replayedOutcomes = mode === "zero-shot" ? ["answered"] : (replayed.attempts ?? []).map((attempt) => attempt.outcome);
      if (storedOutcomes.length > 0 && storedOutcomes.join(",") !== replayedOutcomes.join(",")) {
        flag("attempts.json", name, "outcome", `the bundle says ${storedOutcomes.join(", ")}; replaying the recorded calls gives ${replayedOutcomes.join(", ")}`);
      }
    }
  }
  return { findings, checked, plans, judgeVerdicts };
}
