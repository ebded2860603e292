// Pairwise judging of two stored runs against loopback OpenAI-compatible stub judges: the job stores every item with
// both answers, both verdicts and reasons; an always-first judge is ~100 % swap-inconsistent and all ties (or reruns),
// a judge that prefers the longer answer trips the length flag, the stored seed reproduces the orders, and the
// comparison feeds a rubric's pairwise criterion. Starting one is checked per role; the CLI prints its report.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPairwiseAction } from "@/app/actions/pairwise";
import { parseRubric } from "@/lib/grading/rubric";
import { KNOWN_SOURCES } from "@/lib/grading/chat2workflow";
import { AuthorizationError } from "@/lib/server/authz";
import { gradeStoredRun } from "@/lib/server/grading";
import { pairwiseJobHandler, startPairwiseJob } from "@/lib/server/jobs/pairwise-job";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { getComparison, listComparisons, pairwiseItems } from "@/lib/server/pairwise";
import { sha256 } from "@/lib/server/hash";
import { testDatabase, testDatabaseUrl } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";
import { actor, stubEndpoint } from "../support/evaluation-fixtures";
import { fixedReply, startOpenAIStub, type OpenAIStub, type StubRequest } from "../support/openai-stub";
import { ACTORS, ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));
vi.mock("@/lib/server/jobs/runtime", async (original) => ({ ...(await original<typeof import("@/lib/server/jobs/runtime")>()), ensureInProcessWorker: () => null }));

const researcher = actor("researcher");
const viewer = actor("viewer");

function shown(request: StubRequest, tag: "first" | "second"): string {
  const user = request.messages.at(-1)?.content ?? "";
  return user.split(`<${tag}>\n`)[1]?.split(`\n</${tag}>`)[0] ?? "";
}

describe("pairwise comparison jobs against stub judges", () => {
  const db = testDatabase();
  let alwaysFirst: OpenAIStub;
  let prefersLonger: OpenAIStub;
  let alphaId = "";
  let betaId = "";
  let firstEndpoint = "";
  let longerEndpoint = "";
  const worker = () => new JobWorker(db, new SqliteJobQueue(db, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 }), [pairwiseJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 5_000 });

  beforeAll(async () => {
    const demo = await freshDemoDatabase(db);
    await ensureRoleUsers(db);
    alphaId = demo.runId("demo_alpha.json");
    betaId = demo.runId("demo_beta.json");
    alwaysFirst = await startOpenAIStub(fixedReply("<reason>The first design is better.</reason><result>first</result>"));
    prefersLonger = await startOpenAIStub((request) => {
      const [first, second] = [shown(request, "first"), shown(request, "second")];
      const choice = first.length === second.length ? "tie" : first.length > second.length ? "first" : "second";
      return { kind: "reply", content: `<reason>More complete.</reason><result>${choice}</result>` };
    });
    firstEndpoint = await stubEndpoint(db, alwaysFirst.baseURL, { label: "always-first" });
    longerEndpoint = await stubEndpoint(db, prefersLonger.baseURL, { label: "prefers-longer" });
  });

  afterAll(async () => {
    await alwaysFirst.close();
    await prefersLonger.close();
  });

  it("a judge that always picks the first answer: ~100 % swap-inconsistent, every comparison a tie, each item stored with both verdicts", async () => {
    const started = await startPairwiseJob(db, researcher, { candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [firstEndpoint], samples: 1, policy: "tie", seed: 1234 });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const before = alwaysFirst.calls;
    await worker().runUntilIdle();
    const detail = await getComparison(db, viewer, started.comparisonId);
    expect(detail).not.toBeNull();
    const turns = (await pairwiseItems(db, viewer, betaId, alphaId)).length;
    expect(turns).toBe(15);
    expect(alwaysFirst.calls - before).toBe(2 * turns);
    expect(detail!.report).toMatchObject({ judged: turns, pending: 0, inconsistent: turns, inconsistencyRate: 1, warning: true, counts: { wins: 0, losses: 0, ties: turns } });
    expect(detail!.orderSeed).toBe(1234);
    const item = detail!.items[0]!;
    expect(item.verdicts).toHaveLength(2);
    expect(item.verdicts.map((verdict) => verdict.order)).toEqual(item.firstShown === "candidate" ? ["candidate-first", "baseline-first"] : ["baseline-first", "candidate-first"]);
    expect(item.verdicts.filter((verdict) => !(verdict.choice === "first" && verdict.reason === "The first design is better."))).toEqual([]);
    expect(item.candidateAnswer.length + item.baselineAnswer.length).toBeGreaterThan(0);
    // The first order is drawn per item: both orders occur over 15 items with this seed.
    expect(new Set(detail!.items.map((entry) => entry.firstShown))).toEqual(new Set(["candidate", "baseline"]));
  });

  it("under the rerun policy each inconsistent comparison is asked once more and still ends a tie", async () => {
    const started = await startPairwiseJob(db, researcher, { candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [firstEndpoint], samples: 1, policy: "rerun", seed: 99 });
    if (!started.ok) throw new Error(started.message);
    const before = alwaysFirst.calls;
    await worker().runUntilIdle();
    const detail = (await getComparison(db, viewer, started.comparisonId))!;
    expect(alwaysFirst.calls - before).toBe(4 * 15);
    expect(detail.report).toMatchObject({ reran: 15, inconsistencyRate: 1, counts: { ties: 15 } });
    expect(detail.items.length).toBeGreaterThan(0);
    expect(detail.items.filter((item) => !(item.verdicts.length === 4 && item.outcome === "tie"))).toEqual([]);
  });

  it("a judge that prefers the longer answer trips the length flag", async () => {
    const started = await startPairwiseJob(db, researcher, { candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [longerEndpoint], samples: 1, policy: "tie", lengthThreshold: 0.7 });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    const { report, items } = (await getComparison(db, viewer, started.comparisonId))!;
    const unequal = items.filter((item) => item.longer !== "equal").length;
    expect(unequal).toBeGreaterThanOrEqual(5);
    expect(report.inconsistencyRate).toBe(0);
    expect(report.length).toMatchObject({ decided: unequal, toLonger: unequal, share: 1, flagged: true });
  });

  it("starting again with the stored seed reproduces every order; a panel of two judges gets one job each", async () => {
    const original = (await getComparison(db, viewer, (await listComparisons(db, viewer)).find((entry) => entry.orderSeed === 1234)!.id))!;
    const again = await startPairwiseJob(db, researcher, { candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [firstEndpoint, longerEndpoint], samples: 2, policy: "tie", seed: original.orderSeed });
    if (!again.ok) throw new Error(again.message);
    expect(again.jobIds).toHaveLength(2);
    expect(again.items).toBe(15 * 2 * 2);
    const repeated = (await getComparison(db, viewer, again.comparisonId))!;
    const orders = (detail: typeof original) => new Map(detail.items.map((item) => [item.key, item.firstShown]));
    const before = orders(original);
    const sameKeys = repeated.items.filter((item) => before.has(item.key));
    expect(sameKeys).toHaveLength(15);
    for (const item of sameKeys) expect(item.firstShown).toBe(before.get(item.key));
  });

  it("feeds a rubric's pairwise criterion from the run's latest judged comparison", async () => {
    const text = [
      "rubric_id: pairwise_only",
      "version: 1",
      "title: Pairwise only",
      "criteria:",
      "  - name: preference",
      "    source: pairwise",
      "    definition: Win rate against the other run.",
      "    evidence_required: [Pairwise verdicts in both orders]",
      "    scale: [0, 1]",
      "    formula: pairwise",
      "    weight: 1",
      '    anchors: { "0": Always loses, "1": Always wins }',
    ].join("\n");
    const rubric = parseRubric("pairwise.yaml", text, KNOWN_SOURCES);
    if (!rubric.ok) throw new Error(JSON.stringify(rubric.issues));
    const graded = await gradeStoredRun(db, viewer, betaId, { rubric: rubric.value, file: "pairwise.yaml", fingerprint: sha256(text) });
    expect(graded?.ok).toBe(true);
    if (!graded?.ok) return;
    const criterion = graded.value.responses[0]!.result.criteria[0]!;
    expect(criterion.applicable).toBe(true);
    expect(criterion.raw).toMatchObject({ wins: expect.any(Number), losses: expect.any(Number), ties: expect.any(Number) });
    expect(criterion.evidence).toMatch(/^pairwise comparison /);
  });

  it("starting a comparison: admins and researchers may, annotators and viewers may not, anonymous must sign in", async () => {
    const outcomes: Record<string, string> = {};
    for (const who of ACTORS) {
      signInAs(who);
      const outcome = await startPairwiseAction({ candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [firstEndpoint], samples: 1, policy: "tie" });
      outcomes[who] = outcome.ok ? "ok" : outcome.error;
    }
    expect(outcomes).toEqual({ admin: "ok", researcher: "ok", annotator: "forbidden", viewer: "forbidden", anonymous: "unauthenticated" });
    signInAs("researcher");
    const same = await startPairwiseAction({ candidateRunId: betaId, baselineRunId: betaId, endpointIds: [firstEndpoint] });
    expect(same).toMatchObject({ ok: false, message: "Choose two different runs." });
    await expect(startPairwiseJob(db, viewer, { candidateRunId: betaId, baselineRunId: alphaId, endpointIds: [firstEndpoint], samples: 1, policy: "tie" })).rejects.toThrow(AuthorizationError);
  });

  it("npm run pairwise prints the report with its seed as JSON, and the seed reproduces the orders", async () => {
    const root = path.resolve(__dirname, "../..");
    const runCli = async (seed: string) => {
      const args = ["--import", "tsx", "--conditions=react-server", "scripts/pairwise.ts", "--candidate", "demo_beta.json", "--baseline", "demo_alpha.json", "--endpoint", alwaysFirst.baseURL, "--model", "stub-first", "--seed", seed, "--json"];
      const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, DATABASE_URL: testDatabaseUrl() } });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(status).toBe(0);
      return JSON.parse(stdout) as { seed: number; counts: unknown; inconsistencyRate: number; judgements: { key: string; firstShown: string }[] };
    };
    const first = await runCli("7");
    expect(first).toMatchObject({ seed: 7, counts: { wins: 0, losses: 0, ties: 15 }, inconsistencyRate: 1 });
    const second = await runCli("7");
    expect(second.judgements.map((entry) => entry.firstShown)).toEqual(first.judgements.map((entry) => entry.firstShown));
  }, 120_000);
});
