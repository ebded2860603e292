// Run bundles end to end: an evaluation started through the API (generation stub, LLM judge stub, fake Dify) is
// exported through the API and the export CLI; the bundle holds the run page's downloads byte for byte, every call's
// request and reply, a manifest of sha256 hashes and no secret. Imported into a fresh database with the import CLI it
// is "verified"; a tampered answer, verdict or test result is flagged naming its file and record, a changed file
// without a matching manifest is flagged, and a missing file refuses the bundle with nothing written.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as pagePassRecords } from "@/app/runs/[runId]/download/pass-records/route";
import { GET as pageResolveRecords } from "@/app/runs/[runId]/download/resolve-records/route";
import { GET as pageResponses } from "@/app/runs/[runId]/download/responses/route";
import { BUNDLE_FILES, bundleInfoSchema, callsSchema, judgeVerdictsSchema, MANIFEST_FILE, manifestSchema, packBundle, type BundleFinding } from "@/lib/bundle/format";
import type { RunRecord } from "@/lib/benchmark/runs";
import { readZip, writeZip } from "@/lib/zip/zip";
import { exportRunBundle } from "@/lib/server/bundles/export-bundle";
import { importRunBundle, type BundleImportOutcome } from "@/lib/server/bundles/import-bundle";
import { runImport } from "@/lib/server/import/import-service";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { getRunBundleProvenance } from "@/lib/server/data/run-bundle-imports";
import { createDatabaseClient } from "@/lib/server/db";
import { createDifyConnection } from "@/lib/server/dify-connections/connections";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { issueApiToken } from "@/lib/server/tokens";
import { CORE_VERSION } from "@/lib/workflow/version";
import { startApiServer, type ApiServer } from "../support/api-server";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { actor } from "../support/evaluation-fixtures";
import { DIFY_EMAIL, SECRETS, startEvaluationWorld, type EvaluationWorld } from "../support/evaluation-world";
import { generationStubHandler } from "../support/generation-stub";
import { startOpenAIStub } from "../support/openai-stub";
import { ensureRoleUsers, signInAs } from "../support/session-mock";
import { tableCounts } from "../support/table-counts";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));

process.env.IN_PROCESS_WORKER = "false";
process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);
const decoder = new TextDecoder();
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The bundle's files by name, as text. */
function filesOf(bytes: Uint8Array): Map<string, string> {
  const read = readZip(bytes);
  if (!read.ok) throw new Error(read.issues.join("; "));
  return new Map(read.value.map((entry) => [entry.name, decoder.decode(entry.data)]));
}

/** The bundle with files changed (and dropped), repacked with a manifest that matches the changes. */
function repacked(bytes: Uint8Array, change: (files: Map<string, string>) => void): Uint8Array {
  const files = filesOf(bytes);
  files.delete(MANIFEST_FILE);
  change(files);
  return packBundle([...files].map(([name, text]) => ({ path: name, text })), sha);
}

const findingsOf = (outcome: BundleImportOutcome): BundleFinding[] => {
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusals)}`);
  return outcome.findings;
};

describe.skipIf(!benchmarkDir)(`run bundles${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let world: EvaluationWorld;
  let server: ApiServer;
  let token: string;
  let runId: string;
  let bundle: Uint8Array;
  let scratch: string;
  const importBundle = (bytes: Uint8Array) => importRunBundle(db, { bytes, fileName: "bundle.zip", importedBy: "test", maxBytes: 256 * 1024 * 1024 });

  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
    world = await startEvaluationWorld(db, benchmarkDir as string);
    scratch = await mkdtemp(path.join(os.tmpdir(), "c2w-bundles-"));
    const admin = actor("admin");
    const endpointFields = { temperature: 0, maxTokens: null, concurrency: 8, rpm: null, tpm: null, timeoutMs: 30_000, inputPricePerMTok: null, outputPricePerMTok: null };
    await createEndpoint(db, admin, { ...endpointFields, label: "bundle generation", baseUrl: world.generation.baseURL, model: "bundle-model" }, SECRETS.endpointKey);
    await createEndpoint(db, admin, { ...endpointFields, label: "bundle judge", baseUrl: world.judge.baseURL, model: "stub-judge" }, SECRETS.judgeKey);
    await createDifyConnection(db, admin, { label: "bundle dify", baseUrl: world.dify.origin, email: DIFY_EMAIL, keepApps: false, runTimeoutMs: 60_000 }, SECRETS.difyPassword);
    const issued = await issueApiToken(db, "user-researcher", { name: "bundles" });
    if (!issued.ok) throw new Error("no token");
    token = issued.token;
    server = await startApiServer();

    const started = await fetch(`${server.origin}/api/v1/evaluations`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        benchmark: world.benchmarkId,
        endpoint: "bundle generation",
        mode: "zero-shot",
        judge: { kind: "llm", endpoints: ["bundle judge"], samples: 1 },
        dify: { connection: "bundle dify", caseFilesDir: world.caseFilesDir },
      }),
    });
    expect(started.status).toBe(201);
    runId = ((await started.json()) as { runs: { id: string }[] }).runs[0]!.id;
    await world.worker().runUntilIdle();
    const response = await fetch(`${server.origin}/api/v1/runs/${runId}/bundle`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    bundle = new Uint8Array(await response.arrayBuffer());
  });
  afterAll(async () => {
    await server?.close();
    await world?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    await stopPgBoss();
  });

  it("holds what produced the run: identity, configuration, the run page's files, every call, a manifest, and no secret", async () => {
    const evaluation = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, hasResolve: true, benchmark: { select: { fingerprint: true } } } });
    expect(evaluation).toMatchObject({ status: "complete", hasResolve: true });
    const files = filesOf(bundle);
    const manifest = manifestSchema.parse(JSON.parse(files.get(MANIFEST_FILE)!));
    expect(manifest.files.map((file) => file.path).sort()).toEqual([...files.keys()].filter((name) => name !== MANIFEST_FILE).sort());
    for (const name of Object.values(BUNDLE_FILES)) expect(files.has(name), name).toBe(true);
    const entries = readZip(bundle);
    if (!entries.ok) throw new Error("unreadable");
    for (const entry of entries.value) if (entry.name !== MANIFEST_FILE) expect(manifest.files.find((file) => file.path === entry.name)?.sha256).toBe(sha(entry.data));

    // The official files, byte for byte as the run page downloads them.
    signInAs("viewer");
    const download = async (handler: (request: Request, context: never) => Promise<Response>) => (await handler(new Request("http://127.0.0.1/"), { params: Promise.resolve({ runId }) } as never)).text();
    expect(files.get(BUNDLE_FILES.passRecords)).toBe(await download(pagePassRecords));
    expect(files.get(BUNDLE_FILES.resolveRecords)).toBe(await download(pageResolveRecords));
    expect(files.get(BUNDLE_FILES.responses)).toBe(await download(pageResponses));

    const info = bundleInfoSchema.parse(JSON.parse(files.get(BUNDLE_FILES.info)!));
    expect(info.benchmark.fingerprint).toBe(evaluation.benchmark.fingerprint);
    expect(info.benchmark.files.map((file) => file.path)).toEqual(expect.arrayContaining(["dataset/query.json", "dataset/check_pass_stage.json", "dataset/check_resolve_stage.json", "prompts/builder_prompt.txt", "prompts/evaluation_pass_system.txt"]));
    expect(info.app.scoringCore).toBe(CORE_VERSION);
    expect(info.run).toMatchObject({ id: runId, origin: "generated", generationMode: "zero-shot", agentVersion: null, coreVersion: CORE_VERSION, responseCount: world.files.turns.size });
    expect(info.evaluation).toMatchObject({ mode: "zero-shot", judge: { kind: "llm", samples: 1, members: [{ label: "bundle judge", model: "stub-judge" }] }, dify: { label: "bundle dify" }, generation: { label: "bundle generation", model: "bundle-model" } });
    expect(info.evaluation?.judgePrompts.map((prompt) => prompt.path)).toContain("prompts/evaluation_pass_system.txt");

    // Every model call: one generation call per turn and one judge call per verdict, each with its request and reply.
    const calls = callsSchema.parse(JSON.parse(files.get(BUNDLE_FILES.calls)!));
    const verdicts = judgeVerdictsSchema.parse(JSON.parse(files.get(BUNDLE_FILES.judgeVerdicts)!));
    const generation = calls.filter((call) => call.kind === "generation");
    expect(generation).toHaveLength(world.files.turns.size);
    expect(generation.filter((call) => !(call.source === "call-cache" && "messages" in call.request && call.reply !== null))).toEqual([]);
    expect(verdicts.filter((verdict) => verdict.stage === "pass").length).toBeGreaterThan(10);
    expect(verdicts.filter((verdict) => verdict.stage === "resolve").length).toBeGreaterThan(0);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((verdict) => !(verdict.call !== null && calls[verdict.call]?.kind === "judge" && calls[verdict.call]?.source === "call-cache"))).toEqual([]);
    expect(verdicts.length).toBe(await db.judgeVerdict.count({ where: { response: { runId }, judge: "bundle judge" } }));

    // No key, password, token or encrypted secret anywhere in the bundle.
    const text = Buffer.from(bundle).toString("latin1");
    const ciphers = [...(await db.modelEndpoint.findMany({ select: { apiKeyCipher: true } })).map((row) => row.apiKeyCipher), ...(await db.difyConnection.findMany({ select: { passwordCipher: true } })).map((row) => row.passwordCipher)];
    for (const secret of [...Object.values(SECRETS), token, process.env.C2W_SECRETS_KEY!, ...ciphers.filter((cipher): cipher is string => cipher !== null)]) {
      expect(text.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the bundle`).toBe(false);
    }

    // The export CLI writes the same bundle (only the export time differs).
    const out = path.join(scratch, "cli.zip");
    await run("node", ["scripts/run-cli.cjs", "scripts/export.ts", "bundle", "--run", runId, "--out", out, "--database", testDatabaseUrl()], { cwd: ROOT });
    const fromCli = filesOf(new Uint8Array(await readFile(out)));
    for (const [name, content] of files) {
      if (name === MANIFEST_FILE || name === BUNDLE_FILES.info) continue;
      expect(fromCli.get(name), name).toBe(content);
    }
    expect({ ...JSON.parse(fromCli.get(BUNDLE_FILES.info)!), exportedAt: null }).toEqual({ ...info, exportedAt: null });
  });

  it("imported into a fresh database with the import CLI, it is verified, and the run page shows where it came from", async () => {
    const file = path.join(scratch, "bundle.zip");
    await writeFile(file, bundle);
    const fresh = `file:${path.join(scratch, "fresh.db")}`;
    const imported = await run("node", ["scripts/run-cli.cjs", "scripts/import.ts", "--bundle", file, "--benchmark", benchmarkDir as string, "--database", fresh], { cwd: ROOT });
    expect(imported.stdout).toBe("verified\n");
    expect(imported.stderr).toMatch(/79 responses re-scored, [1-9]\d* pass verdicts and [1-9]\d* test cases re-derived, [1-9]\d* judge verdicts re-read from their replies, 79 generated turns replayed/);
    const again = await run("node", ["scripts/run-cli.cjs", "scripts/import.ts", "--bundle", file, "--database", fresh], { cwd: ROOT });
    expect(again.stdout).toBe("verified\n");
    expect(again.stderr).toContain("already imported, nothing written");

    const other = createDatabaseClient(fresh);
    try {
      const runs = await other.run.findMany({ include: { bundleImport: true, _count: { select: { responses: true } } } });
      expect(runs).toHaveLength(1);
      const [copy] = runs;
      expect(copy).toMatchObject({ origin: "imported", generationMode: "zero-shot", hasResolve: true, _count: { responses: world.files.turns.size }, bundleImport: { verification: "verified", disagreements: "[]" } });
      const original = await db.judgeVerdict.count({ where: { response: { runId }, judge: "bundle judge" } });
      expect(await other.judgeVerdict.count({ where: { judge: "bundle judge" } })).toBe(original);
      expect(await other.caseResult.count()).toBe(await db.caseResult.count({ where: { response: { runId } } }));
      const provenance = await getRunBundleProvenance(other, actor("viewer"), copy!.id);
      expect(provenance).toMatchObject({ verification: "verified", findings: [], info: { run: { id: runId }, evaluation: { judge: { kind: "llm" } } } });
    } finally {
      await other.$disconnect();
    }
  });

  it("flags a tampered answer, verdict or test result with its file and record, and a file changed behind the manifest's back", async () => {
    const records = JSON.parse(filesOf(bundle).get(BUNDLE_FILES.passRecords)!) as RunRecord[];
    const judged = records.find((record) => record.fail_step === "step_1_4" && record.workflow);
    const valid = records.find((record) => record.valid && record.workflow);
    if (!judged || !valid) throw new Error("the run lacks a turn the judge failed and a valid one");
    const name = (record: RunRecord) => `${record.task} round ${record.round}`;

    // An answer changed (with the manifest updated to match): the recorded generation call gives the original answer
    // back, and the pass record no longer matches the answer.
    const answer = repacked(bundle, (files) => {
      const responses = JSON.parse(files.get(BUNDLE_FILES.responses)!) as Record<string, string>[];
      const item = responses.find((entry) => entry.task === valid.task)!;
      const original = item[`answer${valid.round}`]!;
      item[`answer${valid.round}`] = original.replace(/"type":\s*"start"/, '"type": "end"');
      expect(item[`answer${valid.round}`]).not.toBe(original);
      files.set(BUNDLE_FILES.responses, JSON.stringify(responses, null, 4));
    });
    const answerFindings = findingsOf(await importBundle(answer));
    expect(answerFindings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "responses.json", record: name(valid), field: "answer" }),
        expect.objectContaining({ file: "pass-records.json", record: name(valid), field: "workflow" }),
      ]),
    );

    // A verdict changed: the pass record says valid where the judge's recorded reply failed it; a judge verdict
    // claims the opposite of its reply; a test case result is flipped.
    const verdict = repacked(bundle, (files) => {
      const passRecords = JSON.parse(files.get(BUNDLE_FILES.passRecords)!) as RunRecord[];
      const target = passRecords.find((record) => record.task === judged.task && record.round === judged.round)!;
      target.valid = true;
      delete target.fail_step;
      files.set(BUNDLE_FILES.passRecords, JSON.stringify(passRecords, null, 4));
      const judgeVerdicts = JSON.parse(files.get(BUNDLE_FILES.judgeVerdicts)!) as { task: string; round: number; stage: string; verdict: boolean }[];
      const flipped = judgeVerdicts.find((entry) => entry.task === valid.task && entry.round === valid.round && entry.stage === "pass")!;
      flipped.verdict = !flipped.verdict;
      files.set(BUNDLE_FILES.judgeVerdicts, JSON.stringify(judgeVerdicts, null, 2));
      const resolveRecords = JSON.parse(files.get(BUNDLE_FILES.resolveRecords)!) as RunRecord[];
      const tested = resolveRecords.find((record) => record.test1 !== undefined)!;
      tested.test1 = !tested.test1;
      files.set(BUNDLE_FILES.resolveRecords, `${JSON.stringify(resolveRecords, null, 4)}\n`);
    });
    const verdictFindings = findingsOf(await importBundle(verdict));
    expect(verdictFindings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "pass-records.json", record: name(judged), field: "valid" }),
        expect.objectContaining({ file: "pass-records.json", record: name(judged), field: "fail_step" }),
        expect.objectContaining({ file: "judge-verdicts.json", record: name(valid), message: expect.stringMatching(/recorded reply/) }),
        expect.objectContaining({ file: "resolve-records.json", field: "test1" }),
      ]),
    );

    // A file changed without its manifest entry (even harmlessly, a newline added): flagged as changed after export.
    const files = filesOf(bundle);
    const behindBack = writeZip(
      [...files].map(([entryName, text]) => ({ name: entryName, data: new TextEncoder().encode(entryName === BUNDLE_FILES.passRecords ? `${text}\n` : text) })),
    );
    expect(findingsOf(await importBundle(behindBack))).toEqual(expect.arrayContaining([expect.objectContaining({ file: "pass-records.json", record: null, message: expect.stringMatching(/sha256 differs from the manifest/) })]));

    // Each flagged import is a run marked as not verified, never as verified.
    const flagged = await db.runBundleImport.findMany({ select: { verification: true } });
    expect(flagged.map((row) => row.verification)).toEqual(["disagreements", "disagreements", "disagreements"]);
  });

  it("refuses a bundle with a missing file, an unreadable one or another benchmark, writing nothing", async () => {
    const before = await tableCounts(db);
    const withoutCalls = writeZip([...filesOf(bundle)].filter(([name]) => name !== BUNDLE_FILES.calls).map(([name, text]) => ({ name, data: new TextEncoder().encode(text) })));
    expect(await importBundle(withoutCalls)).toEqual({ ok: false, refusals: [{ file: "calls.json", message: expect.stringMatching(/^missing/) }] });
    const unlisted = repacked(bundle, (changed) => changed.delete(BUNDLE_FILES.scoring));
    expect(await importBundle(unlisted)).toEqual({ ok: false, refusals: [{ file: "scoring.json", message: expect.stringMatching(/^missing/) }] });
    const broken = repacked(bundle, (changed) => changed.set(BUNDLE_FILES.cases, "[{]"));
    expect(await importBundle(broken)).toMatchObject({ ok: false, refusals: [{ file: "cases.json", message: expect.stringMatching(/not valid JSON/) }] });
    const otherBenchmark = repacked(bundle, (changed) => {
      const info = JSON.parse(changed.get(BUNDLE_FILES.info)!) as { benchmark: { fingerprint: string } };
      info.benchmark.fingerprint = "0".repeat(64);
      changed.set(BUNDLE_FILES.info, JSON.stringify(info));
    });
    expect(await importBundle(otherBenchmark)).toMatchObject({ ok: false, refusals: [{ file: "bundle.json", message: expect.stringMatching(/is not in this database/) }] });
    expect(await importBundle(new TextEncoder().encode("not a zip"))).toMatchObject({ ok: false, refusals: [{ file: "(bundle)" }] });
    expect(await tableCounts(db)).toEqual(before);
  });

  it("verifies the bundles of a recorded run (its verdicts taken as recorded) and of an agentic run (every attempt replayed)", async () => {
    // A recorded run, imported from the shared runs.
    const recorded = world.files.runs.find((entry) => entry.model === "gpt_5d2");
    if (!recorded) throw new Error("the shared benchmark lacks runs/gpt_5d2.json");
    const imported = await runImport(
      db,
      { benchmark: { kind: "existing", benchmarkId: world.benchmarkId }, runs: [{ name: "gpt_5d2.json", content: await readFile(path.join(benchmarkDir as string, "runs", "gpt_5d2.json"), "utf8") }], importedBy: "test" },
      { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 },
    );
    if (!imported.ok) throw new Error(imported.issues.map((issue) => issue.message).join("\n"));
    const recordedBundle = await exportRunBundle(db, actor("viewer"), imported.runs[0]!.runId);
    const recordedImport = await importBundle(recordedBundle!.bytes);
    expect(recordedImport).toMatchObject({ ok: true, created: true, verification: "verified", findings: [] });
    if (!recordedImport.ok) return;
    expect(recordedImport.checked).toMatchObject({ rescored: 79, passVerdictsAsRecorded: 79, passVerdictsRederived: 0, turnsReplayed: 0 });
    expect(recordedImport.checked.caseVerdictsAsRecorded).toBeGreaterThan(0);
    // The copy downloads as the file it was imported from.
    signInAs("viewer");
    const resolveOf = async (id: string) => (await pageResolveRecords(new Request("http://127.0.0.1/"), { params: Promise.resolve({ runId: id }) } as never)).text();
    expect(await resolveOf(recordedImport.runId)).toBe(await resolveOf(imported.runs[0]!.runId));

    // An agentic run: the stub answers each message first without tags, then with a fenced workflow to repair.
    const stub = await startOpenAIStub(generationStubHandler());
    try {
      const endpoint = await createEndpoint(db, actor("admin"), { label: "agentic stub", baseUrl: stub.baseURL, model: "agentic-stub", temperature: 0, maxTokens: null, concurrency: 8, rpm: null, tpm: null, timeoutMs: 30_000, inputPricePerMTok: null, outputPricePerMTok: null }, null);
      const started = await startEvaluation(db, actor("researcher"), { benchmarkId: world.benchmarkId, endpointId: endpoint.id, mode: "agentic", judge: { kind: "rule" } });
      if (!started.ok) throw new Error(started.message);
      await world.worker().runUntilIdle();
      const agenticBundle = await exportRunBundle(db, actor("viewer"), started.runIds[0]!);
      const files = filesOf(agenticBundle!.bytes);
      const calls = callsSchema.parse(JSON.parse(files.get(BUNDLE_FILES.calls)!));
      // Two attempts a turn, each a call with the skill text standing as [SKILL.md] and the skill file beside them.
      expect(calls.filter((call) => call.kind === "generation")).toHaveLength(2 * world.files.turns.size);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.filter((call) => !("messages" in call.request && call.request.messages[0]!.content.includes("[SKILL.md]")))).toEqual([]);
      expect(files.has("skill/SKILL.md")).toBe(true);
      const agenticImport = await importBundle(agenticBundle!.bytes);
      expect(agenticImport).toMatchObject({ ok: true, verification: "verified", findings: [], checked: { turnsReplayed: world.files.turns.size } });
      // A reply changed: replaying the attempts no longer gives the stored answer; with no usable reply, no answer at all.
      const first = calls[0]!;
      const edit = (change: (edited: ReturnType<typeof callsSchema.parse>) => void) =>
        repacked(agenticBundle!.bytes, (bundleFiles) => {
          const edited = callsSchema.parse(JSON.parse(bundleFiles.get(BUNDLE_FILES.calls)!));
          change(edited);
          bundleFiles.set(BUNDLE_FILES.calls, JSON.stringify(edited));
        });
      const otherAnswer = edit((edited) => (edited[1]!.reply = { content: edited[1]!.reply!.content.replace("You are a helpful assistant.", "You are a tampered assistant.") }));
      expect(findingsOf(await importBundle(otherAnswer))).toEqual([expect.objectContaining({ file: "responses.json", record: `${first.task} round ${first.round}`, field: "answer" })]);
      const noAnswer = edit((edited) => (edited[1]!.reply = { content: "still no tags" }));
      expect(findingsOf(await importBundle(noAnswer))).toEqual([
        expect.objectContaining({ file: "calls.json", record: `${first.task} round ${first.round}`, message: expect.stringMatching(/do not produce an answer/) }),
      ]);
    } finally {
      await stub.close();
    }
  });
});
