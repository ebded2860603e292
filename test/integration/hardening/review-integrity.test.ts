// Review integrity: a first vote needs the voter's live lock and a free place under the per-item limit; blind queues
// hide verdicts from their annotators until they vote (response data, export); deleting a run with votes needs the
// count confirmed. Every refusal leaves the votes and runs exactly as they were.
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { newQueueSchema, type NewQueueInput } from "@/lib/review/queue";
import { voteInputSchema, type VoteInput } from "@/lib/review/votes";
import { DEMO_BENCHMARK_NAME, seedDemoData } from "@/lib/server/demo-data";
import { blindPendingResponseIds, claimReviewItem, createQueue, listAnnotationRows, submitReviewVote } from "@/lib/server/data/review";
import { deleteRun } from "@/lib/server/data/runs";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../../support/database";
import { tableCounts } from "../../support/table-counts";

const db = testDatabase();
let benchmarkId = "";
let researcher: SessionUser;
let admin: SessionUser;
let first: SessionUser;
let second: SessionUser;
let third: SessionUser;

async function user(email: string, role: Role): Promise<SessionUser> {
  const row = await db.user.create({ data: { email, role, passwordHash: "not-a-real-hash" } });
  return { id: row.id, email: row.email, name: row.name, role };
}

async function newQueue(overrides: Partial<NewQueueInput> = {}): Promise<string> {
  const input = newQueueSchema.parse({
    filter: { benchmarkId, stage: "pass" },
    sampleSize: 4,
    seed: "11",
    annotatorsPerItem: 2,
    mode: "reveal",
    annotatorIds: [first.id, second.id, third.id],
    ...overrides,
  });
  const created = await createQueue(db, researcher, input);
  if (!created.ok) throw new Error(JSON.stringify(created.issues));
  return created.value.queueId;
}

const vote = (input: VoteInput) => voteInputSchema.parse(input);
const votesSnapshot = () => db.reviewVote.findMany({ orderBy: { id: "asc" } });

beforeAll(async () => {
  await emptyDatabase(db);
  const seeded = await seedDemoData(db);
  if (!seeded.ok) throw new Error("demo data did not import");
  benchmarkId = (await db.benchmark.findFirstOrThrow({ where: { name: DEMO_BENCHMARK_NAME } })).id;
  admin = await user("admin@integrity.test", "admin");
  researcher = await user("researcher@integrity.test", "researcher");
  first = await user("first@integrity.test", "annotator");
  second = await user("second@integrity.test", "annotator");
  third = await user("third@integrity.test", "annotator");
});

describe("votes", () => {
  it("refuses a first vote without the voter's lock (never claimed, or a stale tab whose lock went to someone else)", async () => {
    const queueId = await newQueue();
    const now = new Date();
    const served = await claimReviewItem(db, first, queueId, { kind: "resume" }, now);
    if (served?.kind !== "item") throw new Error("no item served");
    const itemId = served.item.id;
    const before = await votesSnapshot();

    // Someone who never claimed the item.
    expect(await submitReviewVote(db, second, vote({ itemId, judgeCorrect: "correct" }), now)).toEqual({ ok: false, issues: ["lock-lost"] });
    // The first annotator's lock lapses and the second is served the item; the first one's old tab then votes.
    const later = new Date(now.getTime() + 10 * 60 * 1000);
    expect(await claimReviewItem(db, second, queueId, { kind: "item", itemId }, later)).toMatchObject({ kind: "item" });
    expect(await submitReviewVote(db, first, vote({ itemId, judgeCorrect: "incorrect" }), later)).toEqual({ ok: false, issues: ["lock-lost"] });
    expect(await votesSnapshot()).toEqual(before);

    // The lock holder votes; afterwards changing that vote needs no lock.
    expect((await submitReviewVote(db, second, vote({ itemId, judgeCorrect: "correct" }), later)).ok).toBe(true);
    const changed = await submitReviewVote(db, second, vote({ itemId, judgeCorrect: "incorrect" }), new Date(later.getTime() + 60 * 60 * 1000));
    expect(changed.ok && changed.value.vote.judgeCorrect).toBe("incorrect");
    expect(await db.reviewVote.count({ where: { itemId } })).toBe(1);
  });

  it("refuses a vote beyond the annotators-per-item limit in the same statement as the write", async () => {
    const queueId = await newQueue({ annotatorsPerItem: 1, seed: "12" });
    const now = new Date();
    const served = await claimReviewItem(db, first, queueId, { kind: "resume" }, now);
    if (served?.kind !== "item") throw new Error("no item served");
    const itemId = served.item.id;
    expect((await submitReviewVote(db, first, vote({ itemId, judgeCorrect: "correct" }), now)).ok).toBe(true);
    // A lock left over from before the item filled up (e.g. taken in the moment before the vote landed).
    await db.reviewItem.update({ where: { id: itemId }, data: { lockedById: third.id, lockedUntil: new Date(now.getTime() + 60_000) } });
    const before = await votesSnapshot();
    expect(await submitReviewVote(db, third, vote({ itemId, judgeCorrect: "incorrect" }), now)).toEqual({ ok: false, issues: ["item-full"] });
    expect(await votesSnapshot()).toEqual(before);
  });
});

describe("blind queues", () => {
  it("hide verdicts of their items from their annotators until they vote, in the response data and the export", async () => {
    const queueId = await newQueue({ mode: "blind", seed: "13", annotatorIds: [first.id, researcher.id] });
    const items = await db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } });
    expect(items.length).toBeGreaterThan(0);
    const responseIds = items.map((item) => item.responseId);
    expect([...(await blindPendingResponseIds(db, first, responseIds))].sort()).toEqual([...new Set(responseIds)].sort());
    // Not assigned: nothing hidden (they are not reviewing).
    expect((await blindPendingResponseIds(db, second, responseIds)).size).toBe(0);

    const served = await claimReviewItem(db, first, queueId, { kind: "resume" });
    if (served?.kind !== "item") throw new Error("no item served");
    expect(served.item.judge).toBeNull();
    expect((await submitReviewVote(db, first, vote({ itemId: served.item.id, pass: true }))).ok).toBe(true);
    const votedResponse = items.find((item) => item.id === served.item.id)!.responseId;
    expect((await blindPendingResponseIds(db, first, [votedResponse])).has(votedResponse)).toBe(items.filter((item) => item.responseId === votedResponse).length > 1);

    // The researcher exports annotations while assigned to the queue without having voted: the item is left out.
    const exported = await listAnnotationRows(db, researcher, queueId);
    expect(exported!.rows.filter((row) => row.itemId === served.item.id)).toHaveLength(0);
    // Once the researcher has voted too, the row with its verdict and reason is there.
    const claimed = await claimReviewItem(db, researcher, queueId, { kind: "item", itemId: served.item.id });
    expect(claimed?.kind).toBe("item");
    expect((await submitReviewVote(db, researcher, vote({ itemId: served.item.id, pass: false }))).ok).toBe(true);
    const after = await listAnnotationRows(db, researcher, queueId);
    expect(after!.rows.filter((row) => row.itemId === served.item.id)).toHaveLength(2);
  });
});

describe("deleting a run with votes", () => {
  it("needs the number of votes confirmed, and changes nothing until then", async () => {
    const vote = await db.reviewVote.findFirstOrThrow({ include: { item: { include: { response: { select: { runId: true } } } } } });
    const runId = vote.item.response.runId;
    const votes = await db.reviewVote.count({ where: { item: { response: { runId } } } });
    const before = await tableCounts(db);
    const refused = await deleteRun(db, admin, runId);
    expect(refused).toMatchObject({ deleted: false, votes });
    expect(await deleteRun(db, admin, runId, votes + 1)).toMatchObject({ deleted: false, votes });
    expect(await tableCounts(db)).toEqual(before);
    expect(await deleteRun(db, admin, runId, votes)).toMatchObject({ deleted: true });
    expect(await db.run.findUnique({ where: { id: runId } })).toBeNull();
  });
});
