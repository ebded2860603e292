import { spawn } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { queueFilterSchema } from "@/lib/review/filter";
import { newQueueSchema, type NewQueueInput } from "@/lib/review/queue";
import { voteInputSchema, type VoteInput } from "@/lib/review/votes";
import { AuthorizationError } from "@/lib/server/authz";
import type { Database } from "@/lib/server/db";
import {
  assignAnnotators,
  claimReviewItem,
  countMatchingVerdicts,
  createDerivedQueue,
  createQueue,
  getAgreementOverview,
  getItemDetail,
  getQueue,
  getQueueAgreement,
  listAnnotationRows,
  listQueues,
  renewReviewLock,
  submitReviewVote,
  unassignAnnotator,
} from "@/lib/server/data/review";
import { seedDemoData, DEMO_BENCHMARK_NAME } from "@/lib/server/demo-data";
import { expandRunPaths, readImportFiles, runImport } from "@/lib/server/import/import-service";
import { rescoreRun } from "@/lib/server/import/rescore";
import type { SessionUser } from "@/lib/server/session";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl, testingOnPostgres } from "../support/database";

const db = testDatabase();
const ROOT = path.resolve(__dirname, "../..");

async function user(email: string, role: Role): Promise<SessionUser> {
  const row = await db.user.create({ data: { email, role, passwordHash: "not-a-real-hash" } });
  return { id: row.id, email: row.email, name: row.name, role };
}

let benchmarkId = "";
let admin: SessionUser;
let researcher: SessionUser;
let annotator: SessionUser;
let second: SessionUser;
let outsider: SessionUser;
let viewer: SessionUser;

beforeAll(async () => {
  await emptyDatabase(db);
  if (!testingOnPostgres()) await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  const seeded = await seedDemoData(db);
  if (!seeded.ok) throw new Error(seeded.issues.map((issue) => issue.message).join("\n"));
  benchmarkId = (await db.benchmark.findFirstOrThrow({ where: { name: DEMO_BENCHMARK_NAME } })).id;
  admin = await user("admin@test.local", "admin");
  researcher = await user("researcher@test.local", "researcher");
  annotator = await user("annotator@test.local", "annotator");
  second = await user("second@test.local", "annotator");
  outsider = await user("outsider@test.local", "annotator");
  viewer = await user("viewer@test.local", "viewer");
});

function queueInput(overrides: Partial<NewQueueInput> = {}): ReturnType<typeof newQueueSchema.parse> {
  return newQueueSchema.parse({
    filter: { benchmarkId, stage: "pass" },
    sampleSize: 10,
    seed: "7",
    annotatorsPerItem: 2,
    mode: "reveal",
    annotatorIds: [annotator.id, second.id],
    ...overrides,
  });
}

async function newQueue(overrides: Partial<NewQueueInput> = {}): Promise<string> {
  const created = await createQueue(db, researcher, queueInput(overrides));
  if (!created.ok) throw new Error(JSON.stringify(created.issues));
  return created.value.queueId;
}

function vote(input: VoteInput) {
  return voteInputSchema.parse(input);
}

/** Votes through the whole queue as one annotator: "correct" except on the items at `disagreeAt`. */
async function voteThrough(as: SessionUser, queueId: string, disagreeAt: ReadonlySet<number> = new Set(), client: Database = db): Promise<number> {
  let count = 0;
  for (let outcome = await claimReviewItem(client, as, queueId, { kind: "resume" }); outcome?.kind === "item"; outcome = await claimReviewItem(client, as, queueId, { kind: "resume" })) {
    const judgeCorrect = disagreeAt.has(outcome.item.position) ? "incorrect" : "correct";
    const saved = await submitReviewVote(client, as, vote({ itemId: outcome.item.id, judgeCorrect, followedRules: "yes" }));
    expect(saved.ok).toBe(true);
    count += 1;
  }
  return count;
}

describe("review queues on a real SQLite database", () => {
  it("samples the same items in the same order for the same filter and seed", async () => {
    const matching = await countMatchingVerdicts(db, researcher, queueFilterSchema.parse({ benchmarkId, stage: "pass" }));
    expect(matching).toBeGreaterThanOrEqual(30);
    const a = await newQueue({ seed: "same" });
    const b = await newQueue({ seed: "same" });
    const c = await newQueue({ seed: "other" });
    const items = async (queueId: string) =>
      (await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } })).map((item) => `${item.responseId}/${item.judge}`);
    expect(await items(a)).toHaveLength(10);
    expect(await items(a)).toEqual(await items(b));
    expect(await items(a)).not.toEqual(await items(c));
  });

  it("copies the judge verdict and its fingerprints onto each item", async () => {
    const queueId = await newQueue({ filter: { benchmarkId, stage: "resolve", judges: ["recorded"] }, sampleSize: 5 });
    const items = await db.reviewItem.findMany({ where: { queueId }, include: { judgeVerdict: true } });
    expect(items).toHaveLength(5);
    for (const item of items) {
      expect(item.judgeVerdict).not.toBeNull();
      expect(item).toMatchObject({ stage: "resolve", judge: "recorded", verdict: item.judgeVerdict!.verdict, inputFingerprint: item.judgeVerdict!.inputFingerprint });
      expect(item.casePosition).toBeGreaterThanOrEqual(1);
    }
  });

  it("refuses queue management to annotators and viewers, and assignment of users who cannot annotate", async () => {
    await expect(createQueue(db, annotator, queueInput())).rejects.toBeInstanceOf(AuthorizationError);
    await expect(createQueue(db, viewer, queueInput())).rejects.toBeInstanceOf(AuthorizationError);
    const refused = await createQueue(db, researcher, queueInput({ annotatorIds: [viewer.id] }));
    expect(refused.ok).toBe(false);
    // Three annotators per item with two people assigned could never finish: refused, naming the field.
    const short = await createQueue(db, researcher, queueInput({ annotatorsPerItem: 3 }));
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.issues[0]).toMatchObject({ field: "annotatorsPerItem", message: expect.stringContaining("only 2 are assigned") });
    const none = await createQueue(db, researcher, queueInput({ filter: { benchmarkId, stage: "pass", models: ["no_such_model"] } }));
    expect(none).toEqual({ ok: false, issues: [{ field: "filter", message: "no judge verdicts match this filter" }] });
  });

  it("shows annotators only their queues; others read as not found", async () => {
    const queueId = await newQueue();
    expect((await listQueues(db, outsider)).map((queue) => queue.id)).not.toContain(queueId);
    expect((await listQueues(db, annotator)).map((queue) => queue.id)).toContain(queueId);
    expect(await getQueue(db, outsider, queueId)).toBeNull();
    expect(await claimReviewItem(db, outsider, queueId, { kind: "resume" })).toBeNull();
    const item = await db.reviewItem.findFirstOrThrow({ where: { queueId } });
    expect(await submitReviewVote(db, outsider, vote({ itemId: item.id, judgeCorrect: "correct" }))).toEqual({ ok: false, issues: ["not-found"] });
    await expect(claimReviewItem(db, viewer, queueId, { kind: "resume" })).rejects.toBeInstanceOf(AuthorizationError);
    // Admins and researchers see every queue but vote only where assigned.
    expect(await getQueue(db, admin, queueId)).not.toBeNull();
    expect(await claimReviewItem(db, admin, queueId, { kind: "resume" })).toBeNull();
    expect((await assignAnnotators(db, researcher, queueId, [admin.id])).ok).toBe(true);
    expect((await claimReviewItem(db, admin, queueId, { kind: "resume" }))?.kind).toBe("item");
  });

  it("locks a served item so a second annotator gets a different one, until the lock expires", async () => {
    const queueId = await newQueue();
    const now = new Date();
    const first = await claimReviewItem(db, annotator, queueId, { kind: "resume" }, now);
    const other = await claimReviewItem(db, second, queueId, { kind: "resume" }, now);
    expect(first?.kind === "item" && other?.kind === "item").toBe(true);
    if (first?.kind !== "item" || other?.kind !== "item") return;
    expect(other.item.id).not.toBe(first.item.id);
    expect(first.item.lockedUntil).not.toBeNull();
    expect(await claimReviewItem(db, second, queueId, { kind: "item", itemId: first.item.id }, now)).toMatchObject({ kind: "unavailable", reason: "locked" });
    // Resuming returns the item the annotator already holds.
    expect(await claimReviewItem(db, annotator, queueId, { kind: "resume" }, now)).toMatchObject({ kind: "item", item: { id: first.item.id } });
    const afterExpiry = new Date(now.getTime() + 3 * 60 * 1000);
    expect(await claimReviewItem(db, second, queueId, { kind: "item", itemId: first.item.id }, afterExpiry)).toMatchObject({ kind: "item", item: { id: first.item.id } });
  });

  it("renews the lock of an item its annotator keeps open, and says when it was lost to someone else", async () => {
    const queueId = await newQueue();
    const now = new Date();
    const served = await claimReviewItem(db, annotator, queueId, { kind: "resume" }, now);
    if (served?.kind !== "item") throw new Error("no item");
    // Renewed a minute later: still theirs 2.5 minutes after the first claim, so the second annotator is refused.
    const later = new Date(now.getTime() + 60 * 1000);
    expect((await renewReviewLock(db, annotator, served.item.id, later))?.getTime()).toBe(later.getTime() + 2 * 60 * 1000);
    const stillHeld = new Date(now.getTime() + 150 * 1000);
    expect(await claimReviewItem(db, second, queueId, { kind: "item", itemId: served.item.id }, stillHeld)).toMatchObject({ kind: "unavailable", reason: "locked" });
    // Someone else cannot renew it; once it lapses and the second annotator is served it, the first one's renewal fails.
    expect(await renewReviewLock(db, second, served.item.id, stillHeld)).toBeNull();
    const sixMinutes = new Date(now.getTime() + 6 * 60 * 1000);
    expect(await claimReviewItem(db, second, queueId, { kind: "item", itemId: served.item.id }, sixMinutes)).toMatchObject({ kind: "item", item: { id: served.item.id } });
    expect(await renewReviewLock(db, annotator, served.item.id, sixMinutes)).toBeNull();
    await expect(renewReviewLock(db, viewer, served.item.id, sixMinutes)).rejects.toBeInstanceOf(AuthorizationError);
  });

  it("hides the judge's verdict and reason in blind mode until the annotator votes, then reveals them", async () => {
    // An annotator with no other queue: in one that holds the same verdicts revealed, their vote would not be blind.
    const blindAnnotator = await user("blind@test.local", "annotator");
    const queueId = await newQueue({ mode: "blind", annotatorIds: [blindAnnotator.id, second.id] });
    const served = await claimReviewItem(db, blindAnnotator, queueId, { kind: "resume" });
    if (served?.kind !== "item") throw new Error("no item");
    expect(served.item.judge).toBeNull();
    expect(served.item.sections.map((section) => section.name)).toEqual(["node_selection", "design_principle", "workflow", "gt_nodes"]);
    expect(await submitReviewVote(db, blindAnnotator, vote({ itemId: served.item.id, judgeCorrect: "correct" }))).toEqual({ ok: false, issues: ["blind-needs-own-verdict"] });
    const saved = await submitReviewVote(db, blindAnnotator, vote({ itemId: served.item.id, pass: true }));
    if (!saved.ok) throw new Error("vote refused");
    const stored = await db.reviewItem.findUniqueOrThrow({ where: { id: served.item.id } });
    expect(saved.value.judge.verdict).toBe(stored.verdict);
    expect(saved.value.vote).toMatchObject({ pass: true, judgeVisible: false, judgeCorrect: stored.verdict ? "correct" : "incorrect" });
    const back = await claimReviewItem(db, blindAnnotator, queueId, { kind: "back", fromPosition: null });
    expect(back).toMatchObject({ kind: "item", item: { id: served.item.id, judge: { verdict: stored.verdict } } });
    // Answering the rules question after the reveal keeps the blind verdict marked as blind.
    const rules = await submitReviewVote(db, blindAnnotator, vote({ itemId: served.item.id, pass: true, followedRules: "yes", comment: "clear reasoning" }));
    expect(rules.ok && rules.value.vote).toMatchObject({ judgeVisible: false, followedRules: "yes", comment: "clear reasoning" });
    expect(await db.reviewVote.count({ where: { itemId: served.item.id } })).toBe(1);
    // Someone who also reviews the same verdicts in a reveal queue could have seen it there: their vote is not blind.
    await newQueue({ mode: "reveal", seed: "blind-and-reveal", annotatorIds: [annotator.id, second.id] });
    const both = await newQueue({ mode: "blind", seed: "blind-and-reveal", annotatorIds: [annotator.id, second.id] });
    const seen = await claimReviewItem(db, annotator, both, { kind: "resume" });
    if (seen?.kind !== "item") throw new Error("no item");
    const votedThere = await submitReviewVote(db, annotator, vote({ itemId: seen.item.id, pass: true }));
    expect(votedThere.ok && votedThere.value.vote.judgeVisible).toBe(true);
  });

  it("lets an annotator go back and change an earlier vote without adding a second one", async () => {
    const queueId = await newQueue();
    expect(await voteThrough(annotator, queueId)).toBe(10);
    expect(await claimReviewItem(db, annotator, queueId, { kind: "resume" })).toMatchObject({ kind: "done", progress: { voted: 10, remaining: 0 } });
    const back = await claimReviewItem(db, annotator, queueId, { kind: "back", fromPosition: null });
    if (back?.kind !== "item") throw new Error("no previous vote");
    expect(back.item.position).toBe(9);
    expect(back.item.myVote?.judgeCorrect).toBe("correct");
    await submitReviewVote(db, annotator, vote({ itemId: back.item.id, judgeCorrect: "incorrect", followedRules: "no" }));
    expect(await db.reviewVote.count({ where: { item: { queueId }, annotatorId: annotator.id } })).toBe(10);
    const again = await claimReviewItem(db, annotator, queueId, { kind: "item", itemId: back.item.id });
    expect(again).toMatchObject({ kind: "item", item: { myVote: { judgeCorrect: "incorrect", followedRules: "no" } } });
  });

  it("computes the queue's agreement from the stored votes", async () => {
    const queueId = await newQueue();
    await voteThrough(annotator, queueId);
    let agreement = await getQueueAgreement(db, researcher, queueId);
    // Two votes per item are asked for: with one, every item is incomplete and left out of the figures.
    expect(agreement!.report.rows[0]).toMatchObject({ items: 0, incomplete: 10, unvoted: 0, votes: 0 });
    await voteThrough(second, queueId, new Set([3, 7]));
    agreement = await getQueueAgreement(db, researcher, queueId);
    const all = agreement!.report.rows[0]!;
    // Two annotators: the items where the second one said "incorrect" are 1–1 ties, outside the judge × majority table.
    expect(all).toMatchObject({ items: 10, votes: 20, strict: { num: 8, den: 10, rate: 0.8 }, raw: { num: 18, den: 20, rate: 0.9 }, ties: 2, strictRules: { num: 10, den: 10 } });
    expect(agreement!.report.confusion.total).toBe(8);
    // A reveal queue's votes were cast with the verdict in view: counted here, left out of the pooled overview.
    expect(all.visibleVotes).toBe(20);
    const pooled = (await getAgreementOverview(db, researcher, { benchmarkId })).stages.find((stage) => stage.stage === "pass")!;
    expect(pooled.visibleVotesLeftOut).toBeGreaterThanOrEqual(20);
    expect(pooled.report.rows[0]!.visibleVotes).toBe(0);
    expect(agreement!.report.disagreements.map((item) => item.id).sort()).toEqual(
      (await db.reviewItem.findMany({ where: { queueId, position: { in: [3, 7] } } })).map((item) => item.id).sort(),
    );
    // With every majority equal to the judge, the judge × majority table has no off-diagonal cell.
    expect(agreement!.report.confusion.cells.filter((cell) => cell.row !== cell.column).length).toBeGreaterThan(0);
    expect(agreement!.report.confusion.cells.filter((cell) => cell.row !== cell.column).filter((cell) => !(cell.items.length === 0))).toEqual([]);
    expect(agreement!.queue.progress).toEqual({ items: 10, complete: 10, votes: 20, target: 20 });
    await expect(getQueueAgreement(db, annotator, queueId)).rejects.toBeInstanceOf(AuthorizationError);

    const detail = await getItemDetail(db, researcher, queueId, agreement!.report.disagreements[0]!.id);
    expect(detail?.votes.map((entry) => entry.annotator).sort()).toEqual([annotator.email, second.email]);

    const derived = await createDerivedQueue(db, researcher, {
      sourceQueueId: queueId,
      itemIds: agreement!.report.disagreements.map((item) => item.id),
      name: null,
      mode: "blind",
      annotatorsPerItem: 1,
      annotatorIds: [outsider.id],
    });
    if (!derived.ok) throw new Error("derived queue refused");
    expect(derived.value.items).toBe(2);
    expect((await getQueue(db, outsider, derived.value.queueId))?.sourceQueueId).toBe(queueId);
  });

  it("exports every vote with the judge verdict's input and prompt fingerprints", async () => {
    const queueId = await newQueue({ sampleSize: 3 });
    await voteThrough(annotator, queueId);
    const exported = await listAnnotationRows(db, researcher, queueId);
    expect(exported?.rows).toHaveLength(3);
    for (const row of exported!.rows) {
      const item = await db.reviewItem.findUniqueOrThrow({ where: { id: row.itemId }, include: { judgeVerdict: true } });
      expect(row.inputFingerprint).toBe(item.judgeVerdict!.inputFingerprint);
      expect(row.promptFingerprint).toBe(item.judgeVerdict!.promptFingerprint);
      expect(row).toMatchObject({ annotator: annotator.email, judgeCorrect: "correct", followedRules: "yes", queueId });
    }
    expect(await listAnnotationRows(db, researcher, "no-such-queue")).toBeNull();
    await expect(listAnnotationRows(db, annotator, queueId)).rejects.toBeInstanceOf(AuthorizationError);
  });

  it("keeps items and votes when re-scoring replaces the rule judge's rows", async () => {
    const queueId = await newQueue({ filter: { benchmarkId, stage: "pass", judges: ["rule"] }, sampleSize: 4 });
    await voteThrough(annotator, queueId);
    const runIds = [...new Set((await db.reviewItem.findMany({ where: { queueId }, include: { response: true } })).map((item) => item.response.runId))];
    for (const runId of runIds) await rescoreRun(db, admin, runId);
    const items = await db.reviewItem.findMany({ where: { queueId }, include: { votes: true } });
    expect(items).toHaveLength(4);
    expect(items.filter((item) => !(item.judgeVerdictId === null && item.votes.length === 1))).toEqual([]);
    expect((await getQueueAgreement(db, researcher, queueId))!.report.rows[0]).toMatchObject({ items: 0, incomplete: 4 });
  });

  it("unassigning keeps the annotator's votes and frees their lock", async () => {
    const queueId = await newQueue({ sampleSize: 2 });
    await voteThrough(annotator, queueId, new Set(), db);
    const held = await claimReviewItem(db, second, queueId, { kind: "resume" });
    expect(held?.kind).toBe("item");
    expect(await unassignAnnotator(db, researcher, queueId, second.id)).toBe(true);
    expect(await db.reviewItem.count({ where: { queueId, lockedById: second.id } })).toBe(0);
    expect(await db.reviewVote.count({ where: { item: { queueId } } })).toBe(2);
    expect(await claimReviewItem(db, second, queueId, { kind: "resume" })).toBeNull();
  });
});

/** Starts a vote-writer process (its own SQLite connection); resolves once it is ready, with a `go` to release it. */
async function startWriter(args: string[]): Promise<{ go: () => void; finished: Promise<number> }> {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "test/support/review-vote-writer.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<number>((resolve, reject) => {
    child.on("exit", (code) => {
      const done = /done (\d+)/.exec(stdout);
      if (code === 0 && done) resolve(Number(done[1]));
      else reject(new Error(`vote writer exited with ${code}:\n${stderr}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("ready")) resolve();
    });
    finished.catch(reject);
  });
  return { go: () => child.stdin.write("go\n"), finished };
}

describe("concurrent votes from two sessions", () => {
  it("keeps every vote when two sessions on one server vote at the same moment", async () => {
    const queueId = await newQueue({ annotatorsPerItem: 2 });
    const items = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } });
    // The app shares one client per server process: two annotators' requests interleave on it. Each claims an item
    // (its lock) and votes, as the review page does.
    const sweep = async (as: SessionUser, incorrectAt: (position: number) => boolean) => {
      for (let outcome = await claimReviewItem(db, as, queueId, { kind: "resume" }); outcome?.kind === "item" || outcome?.kind === "waiting"; outcome = await claimReviewItem(db, as, queueId, { kind: "resume" })) {
        if (outcome.kind === "waiting") continue;
        const saved = await submitReviewVote(db, as, vote({ itemId: outcome.item.id, judgeCorrect: incorrectAt(outcome.item.position) ? "incorrect" : "correct", followedRules: "yes" }));
        expect(saved.ok).toBe(true);
      }
    };
    await Promise.all([sweep(annotator, () => false), sweep(second, (position) => position % 2 === 1)]);
    expect(await db.reviewVote.count({ where: { item: { queueId } } })).toBe(20);
    expect(await db.reviewVote.count({ where: { item: { queueId }, annotatorId: second.id, verdict: "incorrect" } })).toBe(5);
    // One annotator in two browser tabs changing the same vote at once: still one vote.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, round) => submitReviewVote(db, annotator, vote({ itemId: items[0]!.id, judgeCorrect: round % 2 ? "incorrect" : "correct", comment: `round ${round}` }))),
    );
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(await db.reviewVote.count({ where: { itemId: items[0]!.id, annotatorId: annotator.id } })).toBe(1);
  });

  it("keeps every vote, once, when two processes with their own connections write to the file at once", async () => {
    const queueId = await newQueue({ annotatorsPerItem: 2, sampleSize: 12 });
    const [a, b] = await Promise.all([
      startWriter(["--mode", "sweep", "--queue", queueId, "--user", annotator.id]),
      startWriter(["--mode", "sweep", "--queue", queueId, "--user", second.id, "--incorrect", "2,5"]),
    ]);
    a.go();
    b.go();
    expect(await Promise.all([a.finished, b.finished])).toEqual([12, 12]);
    const items = await db.reviewItem.findMany({ where: { queueId }, include: { votes: true } });
    expect(items.length).toBeGreaterThan(0);
    expect(items.filter((item) => !(item.votes.length === 2 && new Set(item.votes.map((entry) => entry.annotatorId)).size === 2))).toEqual([]);
    expect(items.filter((item) => !(item.lockedById === null))).toEqual([]);
    const agreement = (await getQueueAgreement(db, researcher, queueId))!.report.rows[0]!;
    expect(agreement).toMatchObject({ items: 12, votes: 24, strict: { num: 10, den: 12 }, raw: { num: 22, den: 24 } });

    // Two processes hammering the same (item, annotator) pair: every submission succeeds, one row remains.
    const target = items[0]!;
    await db.reviewVote.deleteMany({ where: { itemId: target.id, annotatorId: annotator.id } });
    const [c, d] = await Promise.all([
      startWriter(["--mode", "hammer", "--item", target.id, "--user", annotator.id, "--rounds", "25"]),
      startWriter(["--mode", "hammer", "--item", target.id, "--user", annotator.id, "--rounds", "25"]),
    ]);
    c.go();
    d.go();
    expect(await Promise.all([c.finished, d.finished])).toEqual([25, 25]);
    const rows = await db.reviewVote.findMany({ where: { itemId: target.id, annotatorId: annotator.id } });
    expect(rows).toHaveLength(1);
    expect(await db.reviewVote.count({ where: { item: { queueId } } })).toBe(24);
  });
});

describe.skipIf(!benchmarkDir)(`judge vs judge on the shared benchmark${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("compares the recorded judge with the rule judge over every response that reached step 1_4", async () => {
    const runsDir = path.join(benchmarkDir!, "runs");
    const limits = { maxFileBytes: 64 * 1024 * 1024, maxResponses: 20_000 };
    const { files } = await readImportFiles((await expandRunPaths([runsDir])).files, limits.maxFileBytes);
    const imported = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir! }, runs: files, importedBy: "test" }, limits);
    expect(imported.ok).toBe(true);
    // Straight from the files: the records the LLM judge saw (valid, or failed at step_1_4).
    let judged = 0;
    for (const file of files) {
      for (const record of JSON.parse(file.content) as Record<string, unknown>[]) {
        if (record.valid === true || record.fail_step === "step_1_4") judged += 1;
      }
    }
    const overview = await getAgreementOverview(db, researcher);
    const shared = overview.judgePairs.find((entry) => entry.benchmark.id !== benchmarkId)!;
    const pass = shared.comparisons.find((comparison) => comparison.stage === "pass" && comparison.a === "recorded" && comparison.b === "rule")!;
    expect(pass.n).toBe(judged);
    const verdicts = await db.judgeVerdict.findMany({ where: { stage: "pass", response: { run: { benchmarkId: shared.benchmark.id } } }, select: { responseId: true, judge: true, verdict: true } });
    const rule = new Map(verdicts.filter((row) => row.judge === "rule").map((row) => [row.responseId, row.verdict]));
    const same = verdicts.filter((row) => row.judge === "recorded" && rule.get(row.responseId) === row.verdict).length;
    expect(pass.agreement).toEqual({ num: same, den: judged, rate: same / judged });
    expect(pass.confusion.total).toBe(judged);
    expect(pass.byModel.reduce((sum, row) => sum + row.n, 0)).toBe(judged);
    console.log(`[measured] recorded vs rule judge, pass stage: ${same}/${judged} = ${((100 * same) / judged).toFixed(2)}%, Cohen's kappa ${pass.kappa.text}`);
  });
});
