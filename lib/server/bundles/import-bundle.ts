import "server-only";
// Imports a run bundle as a run: the manifest checked, every file read with its schema, the benchmark found by its
// fingerprint (or imported from a directory holding the same content), everything re-scored and re-derived
// (verify-bundle.ts), then the run written in one transaction with the judge verdicts as their recorded replies read,
// the executed test cases, and the bundle's provenance and verification result. A bundle that cannot be read, lacks
// a file or names another benchmark is refused and nothing is written.
import { createHash } from "node:crypto";
import path from "node:path";
import { turnKey } from "@/lib/benchmark/dataset";
import { parseGenerationFile, parseRunFile, type GenerationItem, type RunRecord } from "@/lib/benchmark/runs";
import {
  attemptsSchema,
  BUNDLE_FILES,
  bundleInfoSchema,
  callsSchema,
  casesSchema,
  judgeVerdictsSchema,
  parseBundleFile,
  scoringSchema,
  SKILL_FOLDER,
  unpackBundle,
  type BundleFinding,
  type BundleRefusal,
} from "@/lib/bundle/format";
import { benchmarkContext, describeModel, planBenchmark, planGenerationRun, planRecordedRun, RECORDED_JUDGE_ID, RULE_JUDGE_ID, type BenchmarkSource } from "@/lib/import/plan";
import type { BenchmarkPlan, RunPlan } from "@/lib/import/plan-types";
import { canonicalJson } from "@/lib/judge/identity";
import { err, ok, type Result } from "@/lib/result";
import { readBenchmarkDir } from "../benchmark-files";
import type { Database } from "../db";
import { sha256 } from "../hash";
import { loadBenchmarkSource } from "../import/benchmark-source";
import { MODEL_NAME_PATTERN } from "../import/import-service";
import { writeImport, type Transaction } from "../import/write-import";
import { verdictKey, verifyBundle, type BundleContents, type VerificationCounts } from "./verify-bundle";

const bytesSha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

export interface BundleImportRequest {
  bytes: Uint8Array;
  fileName: string | null;
  /** A benchmark directory to import the bundle's benchmark from when the database does not hold it yet. */
  benchmarkDir?: string;
  importedBy: string | null;
  maxBytes: number;
}

export type BundleImportOutcome =
  | {
      ok: true;
      runId: string;
      /** False when this very bundle was imported before (nothing written). */
      created: boolean;
      label: string;
      verification: "verified" | "disagreements";
      findings: BundleFinding[];
      checked: VerificationCounts;
    }
  | { ok: false; refusals: BundleRefusal[] };

function parseJsonFile<T>(files: ReadonlyMap<string, string>, file: string, parse: (label: string, data: unknown) => Result<T, { message: string }>): Result<T, BundleRefusal> {
  const text = files.get(file);
  if (text === undefined) return err({ file, message: "missing" });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return err({ file, message: "not valid JSON" });
  }
  const parsed = parse(file, data);
  return parsed.ok ? ok(parsed.value) : err(...parsed.issues.map((issue) => ({ file, message: issue.message })));
}

/** Every file of the bundle read with its schema; the first bad field of each bad file refuses the bundle. */
function readContents(files: ReadonlyMap<string, string>): Result<BundleContents, BundleRefusal> {
  const info = parseBundleFile(files, BUNDLE_FILES.info, bundleInfoSchema);
  const responses = parseJsonFile<GenerationItem[]>(files, BUNDLE_FILES.responses, (label, data) => (Array.isArray(data) && data.length === 0 ? ok([]) : parseGenerationFile(label, data)));
  const passRecords = parseJsonFile<RunRecord[]>(files, BUNDLE_FILES.passRecords, (label, data) => (Array.isArray(data) && data.length === 0 ? ok([]) : parseRunFile(label, data)));
  const resolveRecords = parseJsonFile<RunRecord[]>(files, BUNDLE_FILES.resolveRecords, (label, data) => (Array.isArray(data) && data.length === 0 ? ok([]) : parseRunFile(label, data)));
  const scoring = parseBundleFile(files, BUNDLE_FILES.scoring, scoringSchema);
  const judgeVerdicts = parseBundleFile(files, BUNDLE_FILES.judgeVerdicts, judgeVerdictsSchema);
  const cases = parseBundleFile(files, BUNDLE_FILES.cases, casesSchema);
  const attempts = parseBundleFile(files, BUNDLE_FILES.attempts, attemptsSchema);
  const calls = parseBundleFile(files, BUNDLE_FILES.calls, callsSchema);
  const parts = [info, responses, passRecords, resolveRecords, scoring, judgeVerdicts, cases, attempts, calls];
  const refusals = parts.flatMap((part) => (part.ok ? [] : part.issues));
  if (refusals.length || !info.ok || !responses.ok || !passRecords.ok || !resolveRecords.ok || !scoring.ok || !judgeVerdicts.ok || !cases.ok || !attempts.ok || !calls.ok) return err(...refusals);
  const skillFiles = new Map([...files].filter(([name]) => name.startsWith(SKILL_FOLDER)));
  return ok({
    info: info.value,
    responses: responses.value,
    passRecords: passRecords.value,
    resolveRecords: resolveRecords.value,
    scoring: scoring.value,
    judgeVerdicts: judgeVerdicts.value,
    cases: cases.value,
    attempts: attempts.value,
    calls: calls.value,
    skillFiles,
  });
}

/** The benchmark the bundle names: in the database by fingerprint, else from `dir` when it holds the same content. */
async function findBenchmark(db: Database, contents: BundleContents, dir: string | undefined, maxBytes: number): Promise<Result<{ source: BenchmarkSource; target: BenchmarkPlan | { existingId: string } }, BundleRefusal>> {
  const named = contents.info.benchmark;
  const existing = await db.benchmark.findUnique({ where: { fingerprint: named.fingerprint }, select: { id: true } });
  if (existing) {
    const source = await loadBenchmarkSource(db, existing.id);
    if (source) return ok({ source, target: { existingId: existing.id } });
  }
  const missing = `the bundle's benchmark "${named.name}" (fingerprint ${named.fingerprint.slice(0, 12)}…) is not in this database`;
  if (!dir) return err({ file: BUNDLE_FILES.info, message: `${missing}; import it first, or name its directory (--benchmark DIR)` });
  const files = await readBenchmarkDir(dir, { maxBytes, includeRuns: false });
  if (!files.ok) return err(...files.issues.map((issue) => ({ file: issue.file, message: issue.message })));
  const source: BenchmarkSource = {
    name: named.name,
    sourceDir: path.resolve(dir),
    queries: files.value.queries,
    checkPass: files.value.checkPass,
    checkResolve: files.value.checkResolve,
    prompts: files.value.prompts,
  };
  const plan = planBenchmark(source, sha256);
  if (!plan.ok) return err(...plan.issues.map((issue) => ({ file: issue.file, message: issue.message })));
  if (plan.value.fingerprint !== named.fingerprint) return err({ file: BUNDLE_FILES.info, message: `${missing}, and ${dir} holds another benchmark (fingerprint ${plan.value.fingerprint.slice(0, 12)}…)` });
  return ok({ source, target: plan.value });
}

export async function importRunBundle(db: Database, request: BundleImportRequest): Promise<BundleImportOutcome> {
  if (request.bytes.byteLength > request.maxBytes) return { ok: false, refusals: [{ file: "(bundle)", message: `larger than the ${request.maxBytes}-byte limit` }] };
  const unpacked = unpackBundle(request.bytes, bytesSha256);
  if (!unpacked.ok) return { ok: false, refusals: unpacked.issues };
  const read = readContents(unpacked.value.files);
  if (!read.ok) return { ok: false, refusals: read.issues };
  const contents = read.value;
  const benchmark = await findBenchmark(db, contents, request.benchmarkDir, request.maxBytes);
  if (!benchmark.ok) return { ok: false, refusals: benchmark.issues };
  const { source, target } = benchmark.value;

  const verification = await verifyBundle(contents, source);
  const findings = [...unpacked.value.findings, ...verification.findings];
  const status = findings.length === 0 ? "verified" : "disagreements";

  const info = contents.info;
  if (!MODEL_NAME_PATTERN.test(info.run.model)) return { ok: false, refusals: [{ file: BUNDLE_FILES.info, message: "run.model: not a model name (letters, digits, dots, dashes, underscores)" }] };
  const bundleSha = bytesSha256(request.bytes);
  const runSource = { file: request.fileName ?? "run bundle", model: describeModel(info.run.model), label: `${info.run.label} (bundle)` };
  const context = benchmarkContext(source, sha256);
  // A recorded run comes back as the recorded run file it was (its resolve records); any other from its answers.
  const planned = info.run.origin === "recorded" ? planRecordedRun(runSource, contents.resolveRecords, context, sha256) : planGenerationRun(runSource, contents.responses, context, sha256);
  if (!planned.ok) return { ok: false, refusals: planned.issues.map((issue) => ({ file: info.run.origin === "recorded" ? BUNDLE_FILES.resolveRecords : BUNDLE_FILES.responses, message: issue.message })) };
  const plan: RunPlan = { ...planned.value, contentHash: `bundle:${bundleSha}` };

  const calls = new Map(contents.calls.map((call) => [call.id, call]));
  const withNewRun = async (tx: Transaction, run: { runId: string }) => {
    const responses = await tx.response.findMany({ where: { runId: run.runId }, select: { id: true, turn: { select: { key: true } } } });
    const responseIds = new Map(responses.map((response) => [response.turn.key, response.id]));
    const verdictRows = contents.judgeVerdicts.flatMap((entry) => {
      const responseId = responseIds.get(turnKey(entry.task, entry.round));
      if (!responseId || entry.judge === RULE_JUDGE_ID || entry.judge === RECORDED_JUDGE_ID) return [];
      const call = entry.call === null ? undefined : calls.get(entry.call);
      return [
        {
          responseId,
          stage: entry.stage,
          casePosition: entry.test,
          judge: entry.judge,
          sampleIndex: entry.sample,
          // The verdict as the recorded reply reads (verify-bundle re-reads it), not as the bundle claims.
          verdict: verification.judgeVerdicts.get(verdictKey(entry)) ?? entry.verdict,
          reason: entry.reason,
          rawOutput: call?.reply?.content ?? null,
          wellFormed: entry.wellFormed,
          promptFingerprint: entry.promptFingerprint,
          inputFingerprint: entry.inputFingerprint,
          judgeIdentity: entry.judgeIdentity ? canonicalJson(entry.judgeIdentity) : null,
        },
      ];
    });
    if (verdictRows.length) await tx.judgeVerdict.createMany({ data: verdictRows });
    if (info.run.origin !== "recorded") {
      const caseRows = contents.cases.flatMap((entry) => {
        const responseId = responseIds.get(turnKey(entry.task, entry.round));
        return responseId
          ? [{ responseId, position: entry.test, verdict: entry.verdict, outputs: entry.outputs, fileCheck: entry.fileCheck, files: entry.files === null ? null : JSON.stringify(entry.files), error: entry.error, difyRunId: entry.difyRunId, elapsedMs: entry.elapsedMs }]
          : [];
      });
      if (caseRows.length) await tx.caseResult.createMany({ data: caseRows });
      // Dify's refusals of an import (step_1_5) are the run's execution outcome: kept as recorded.
      for (const entry of contents.scoring) {
        const responseId = responseIds.get(turnKey(entry.task, entry.round));
        if (responseId && entry.failStep === "step_1_5") await tx.passResult.updateMany({ where: { responseId, officialFailStep: null }, data: { valid: false, failStep: "step_1_5" } });
      }
      await tx.run.update({ where: { id: run.runId }, data: { hasResolve: info.run.hasResolve || caseRows.length > 0 } });
    }
    await tx.run.update({ where: { id: run.runId }, data: { generationMode: info.run.generationMode, agentVersion: info.run.agentVersion } });
    await tx.runBundleImport.create({
      data: {
        runId: run.runId,
        bundleSha256: bundleSha,
        fileName: request.fileName,
        provenance: JSON.stringify(info),
        verification: status,
        disagreements: JSON.stringify(findings),
        checked: JSON.stringify(verification.checked),
        importedBy: request.importedBy,
      },
    });
  };
  const written = await writeImport(db, { benchmark: target, runs: [{ label: plan.label, build: () => plan }] }, { importedBy: request.importedBy, withNewRun });
  const run = written.runs[0]!;
  if (!run.created) {
    // The same bundle again: report what its first import found.
    const earlier = await db.runBundleImport.findUnique({ where: { runId: run.runId }, select: { verification: true, disagreements: true, checked: true } });
    return {
      ok: true,
      runId: run.runId,
      created: false,
      label: run.label,
      verification: earlier?.verification === "verified" ? "verified" : "disagreements",
      findings: earlier ? (JSON.parse(earlier.disagreements) as BundleFinding[]) : findings,
      checked: earlier ? (JSON.parse(earlier.checked) as VerificationCounts) : verification.checked,
    };
  }
  return { ok: true, runId: run.runId, created: true, label: run.label, verification: status, findings, checked: verification.checked };
}
