// Judge quality on a real database: the judges present, judge against judge (kappa, confusion, disagreements), a
// review queue of the disagreements through the ordinary queue path, calibration against votes, and who may do what.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { parseJudgeChoice, type JudgeChoice } from "@/lib/judge/choice";
import { voteInputSchema } from "@/lib/review/votes";
import { cohenKappaFromCounts } from "@/lib/stats/agreement";
import { AuthorizationError } from "@/lib/server/authz";
import { seedDemoData, DEMO_BENCHMARK_NAME } from "@/lib/server/demo-data";
import { createDisagreementQueue, getCalibration, getJudgeComparison, getPairwiseAgreement, listJudges, resolveJudgedBy } from "@/lib/server/data/judges";
import { claimReviewItem, submitReviewVote } from "@/lib/server/data/review";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";

const db = testDatabase();
const STUB = "stub-judge";

async function user(email: string, role: Role): Promise<SessionUser> {
  const row = await db.user.create({ data: { email, role, passwordHash: "not-a-real-hash" } });
  return { id: row.id, email: row.email, name: row.name, role };
}

function choice(raw: string): JudgeChoice {
  const parsed = parseJudgeChoice(raw);
  if (!parsed.ok) throw new Error(parsed.issues.join("; "));
  return parsed.value;
}

let benchmarkId = "";
const users = {} as Record<Role, SessionUser>;

beforeAll(async () => {
  await emptyDatabase(db);
  expect((await seedDemoData(db)).ok).toBe(true);
  benchmarkId = (await db.benchmark.findFirstOrThrow({ where: { name: DEMO_BENCHMARK_NAME } })).id;
  for (const role of ["admin", "researcher", "annotator", "viewer"] as const) users[role] = await user(`${role}@test.local`, role);
  // A stub judge with three samples on every pass-stage item of demo_alpha that the rule judge decided; the third
  // sample of the first item is malformed.
  const rule = await db.judgeVerdict.findMany({ where: { judge: "rule", stage: "pass", response: { run: { model: { name: "demo_alpha" } } } }, orderBy: { responseId: "asc" } });
  await db.judgeVerdict.createMany({
    data: rule.flatMap((row, index) =>
      [0, 1, 2].map((sampleIndex) => ({
        id: randomUUID(),
        responseId: row.responseId,
        stage: "pass",
        casePosition: 0,
        judge: STUB,
        inputFingerprint: row.inputFingerprint,
        // Majority: the opposite of the rule judge on every second item.
        verdict: sampleIndex === 2 ? !row.verdict : index % 2 === 0 ? row.verdict : !row.verdict,
        sampleIndex,
        judgeIdentity: JSON.stringify({ endpoint: "http://127.0.0.1:9/v1", model: "stub-model", params: { temperature: 0 }, promptFingerprint: "p", strict: false }),
        wellFormed: !(index === 0 && sampleIndex === 2),
      })),
    ),
  });
});

describe("judges present", () => {
  it("lists every judge per stage with its coverage and samples", async () => {
    const inventory = await listJudges(db, users.viewer, benchmarkId);
    const key = (stage: string, judge: string) => inventory.judges.find((entry) => entry.stage === stage && entry.judge === judge);
    expect(key("pass", "recorded")).toBeDefined();
    expect(key("pass", "rule")).toMatchObject({ samples: 1, shaped: 0 });
    expect(key("resolve", "recorded")).toBeDefined();
    const stub = key("pass", STUB)!;
    expect(stub).toMatchObject({ samples: 3, runs: 1, malformed: 1, model: "stub-model" });
    expect(stub.rows).toBe(3 * stub.items);
    expect(inventory.passItems).toBe(await db.passResult.count({ where: { officialFailStep: null, response: { run: { benchmarkId } } } }));

    const judgedBy = await resolveJudgedBy(db, users.viewer, benchmarkId, STUB);
    expect(judgedBy.options.map((option) => option.value)).toEqual(["", "rule", STUB]);
    expect(judgedBy.options[2]!.label).toBe("stub-judge (stub-model, majority of 3 samples)");
  });

  it("compares the rule judge with the recorded one exactly as the stored verdicts give it", async () => {
    const rows = await db.judgeVerdict.findMany({ where: { stage: "pass", judge: { in: ["rule", "recorded"] }, response: { run: { benchmarkId } } } });
    const rule = new Map(rows.filter((row) => row.judge === "rule").map((row) => [row.responseId, row.verdict]));
    const recorded = new Map(rows.filter((row) => row.judge === "recorded").map((row) => [row.responseId, row.verdict]));
    let [a, b, c, d] = [0, 0, 0, 0];
    for (const [responseId, verdict] of rule) {
      const other = recorded.get(responseId);
      if (other === undefined) continue;
      if (verdict && other) a += 1;
      else if (verdict) b += 1;
      else if (other) c += 1;
      else d += 1;
    }
    expect(a + b + c + d).toBeGreaterThan(10);
    const { comparison, items } = await getJudgeComparison(db, users.viewer, benchmarkId, "pass", choice("rule"), choice("recorded"));
    expect(comparison.n).toBe(a + b + c + d);
    expect(comparison.disagreements).toHaveLength(b + c);
    expect(comparison.kappa).toEqual(cohenKappaFromCounts(a, b, c, d));
    expect(items.size).toBe(comparison.n);
    expect([...items.values()][0]!.label).toMatch(/^demo_\w+ · \w+ round \d$/);

    const pairs = await getPairwiseAgreement(db, users.viewer, benchmarkId, "pass");
    expect(pairs.find((pair) => pair.a === "recorded" && pair.b === "rule")).toMatchObject({ n: a + b + c + d, agreement: { num: a + d } });
    expect(pairs.some((pair) => pair.b === STUB || pair.a === STUB)).toBe(true);
  });

  it("takes the stub judge's majority over its three samples", async () => {
    const { comparison } = await getJudgeComparison(db, users.viewer, benchmarkId, "pass", choice(STUB), choice("rule"));
    // Opposite of the rule judge on every second item (by response id order).
    expect(comparison.disagreements).toHaveLength(Math.floor(comparison.n / 2));
  });
});

describe("a review queue of disagreements", () => {
  it("is made through the ordinary queue path, one item per disagreement, for researchers and admins only", async () => {
    const { comparison } = await getJudgeComparison(db, users.viewer, benchmarkId, "pass", choice(STUB), choice("rule"));
    expect(comparison.disagreements.length).toBeGreaterThan(0);
    // The stub judge has three samples per item: it is queued once per item (its first sample).
    const created = await createDisagreementQueue(db, users.researcher, { benchmarkId, stage: "pass", judge: STUB, against: "rule", mode: "blind", annotatorsPerItem: 2 });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.value.items).toBe(comparison.disagreements.length);
    const queue = await db.reviewQueue.findUniqueOrThrow({ where: { id: created.value.queueId }, include: { items: true } });
    expect(JSON.parse(queue.filter)).toMatchObject({ judges: [STUB], disagreeWith: "rule" });
    expect(queue.items.length).toBeGreaterThan(0);
    expect(queue.items.filter((item) => !(item.judge === STUB))).toEqual([]);
    const disagreeing = new Set(comparison.disagreements.map((entry) => entry.item.split("/")[0]));
    expect(queue.items.filter((item) => !disagreeing.has(item.responseId))).toEqual([]);

    for (const role of ["annotator", "viewer"] as const) {
      await expect(createDisagreementQueue(db, users[role], { benchmarkId, stage: "pass", judge: STUB, against: "rule", mode: "blind", annotatorsPerItem: 2 })).rejects.toBeInstanceOf(AuthorizationError);
    }
    const same = await createDisagreementQueue(db, users.admin, { benchmarkId, stage: "pass", judge: "rule", against: "rule", mode: "blind", annotatorsPerItem: 2 });
    expect(same.ok).toBe(false);
  });
});

describe("calibration against human labels", () => {
  it("compares every judge with the annotators' majority of blind votes, per week, for researchers and admins only", async () => {
    // A reveal queue first: its votes were cast with the judge's verdict in view, so calibration leaves them out.
    const reveal = await createDisagreementQueue(db, users.admin, { benchmarkId, stage: "pass", judge: STUB, against: "rule", mode: "reveal", annotatorsPerItem: 1 });
    if (!reveal.ok) throw new Error(JSON.stringify(reveal.issues));
    await db.reviewAssignment.create({ data: { queueId: reveal.value.queueId, userId: users.researcher.id } });
    let seen = 0;
    for (let outcome = await claimReviewItem(db, users.researcher, reveal.value.queueId, { kind: "resume" }); outcome?.kind === "item"; outcome = await claimReviewItem(db, users.researcher, reveal.value.queueId, { kind: "resume" })) {
      // Against the stub every time: counted, these votes would make the rule judge agree with the labels.
      expect((await submitReviewVote(db, users.researcher, voteInputSchema.parse({ itemId: outcome.item.id, judgeCorrect: "incorrect" }))).ok).toBe(true);
      seen += 1;
    }
    expect(seen).toBeGreaterThan(0);

    const queue = await createDisagreementQueue(db, users.admin, { benchmarkId, stage: "pass", judge: STUB, against: "rule", mode: "blind", annotatorsPerItem: 1 });
    if (!queue.ok) throw new Error(JSON.stringify(queue.issues));
    await db.reviewAssignment.create({ data: { queueId: queue.value.queueId, userId: users.annotator.id } });
    // Blind: the annotator gives their own verdict, which is the stub judge's every time (the rule judge disagrees on
    // every item of this queue, by how it was drawn).
    const stubVerdicts = new Map((await db.judgeVerdict.findMany({ where: { judge: STUB, stage: "pass" }, select: { responseId: true, verdict: true } })).map((row) => [row.responseId, row.verdict]));
    let voted = 0;
    for (let outcome = await claimReviewItem(db, users.annotator, queue.value.queueId, { kind: "resume" }); outcome?.kind === "item"; outcome = await claimReviewItem(db, users.annotator, queue.value.queueId, { kind: "resume" })) {
      const item = await db.reviewItem.findUniqueOrThrow({ where: { id: outcome.item.id }, select: { responseId: true } });
      const saved = await submitReviewVote(db, users.annotator, voteInputSchema.parse({ itemId: outcome.item.id, pass: stubVerdicts.get(item.responseId), followedRules: "yes" }));
      expect(saved.ok).toBe(true);
      voted += 1;
    }
    expect(voted).toBe(queue.value.items);
    expect(voted).toBeGreaterThan(0);

    const calibration = await getCalibration(db, users.researcher, benchmarkId);
    expect(calibration.pass).toMatchObject({ labelled: voted, blindVotes: voted, visibleVotes: seen });
    const stub = calibration.pass.judges.find((judge) => judge.judge === STUB)!;
    const rule = calibration.pass.judges.find((judge) => judge.judge === "rule")!;
    expect(stub.overall).toMatchObject({ n: voted, agree: voted, rate: 1 });
    expect(rule.overall).toMatchObject({ n: voted, agree: 0, rate: 0 });
    expect(stub.weeks).toHaveLength(1);
    expect(stub.weeks[0]!.n).toBe(voted);
    expect(calibration.resolve.labelled).toBe(0);

    for (const role of ["annotator", "viewer"] as const) await expect(getCalibration(db, users[role], benchmarkId)).rejects.toBeInstanceOf(AuthorizationError);
  });
});
