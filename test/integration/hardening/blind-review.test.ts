// Blind review is blind everywhere: a researcher assigned to a blind queue reads every page's data, download, search,
// export, comparison and the item's own detail for a response pending for them, and none carries its verdict or the
// judge's reason; once they vote, it shows. Anonymous readers get no judge reason while the item still lacks votes.
// A vote records whether its author could have seen the verdict anywhere.
import { beforeAll, describe, expect, it } from "vitest";
import { newQueueSchema } from "@/lib/review/queue";
import { voteInputSchema } from "@/lib/review/votes";
import { getModelTurns, getPairTurns, getTaskMatrix } from "@/lib/server/data/drilldown";
import { getModelDiffSource, getResponsePair } from "@/lib/server/data/diff";
import { getJudgeComparison } from "@/lib/server/data/judges";
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { getResolveRecordFile } from "@/lib/server/data/resolve-records";
import { listRunResponses } from "@/lib/server/data/responses";
import { blindVisibility, claimReviewItem, createQueue, getItemDetail, submitReviewVote } from "@/lib/server/data/review";
import { listAnnotationRows } from "@/lib/server/data/review/export";
import { searchEverything } from "@/lib/server/data/search";
import { seedDemoData } from "@/lib/server/demo-data";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../../support/database";

const db = testDatabase();
let researcher: SessionUser;
let reviewer: SessionUser;
let other: SessionUser;
let queueId = "";
let item: { id: string; responseId: string; reason: string; verdict: boolean };
let run: { id: string; modelName: string; task: string; round: number; benchmarkId: string; turnKey: string };

async function user(email: string, role: "researcher" | "annotator"): Promise<SessionUser> {
  const row = await db.user.create({ data: { email, role, passwordHash: "x" } });
  return { id: row.id, email, name: null, role };
}

/** Everything a reader can fetch that could carry the item's verdict or reason, as one text each. */
async function everything(reader: SessionUser | null): Promise<Record<string, { text: string; listsResponse: boolean }>> {
  const seen: Record<string, { text: string; listsResponse: boolean }> = {};
  const add = (name: string, value: unknown, listsResponse: boolean) => (seen[name] = { text: JSON.stringify(value ?? null), listsResponse });
  const passRecords = await getRunPassRecords(db, reader, run.id);
  add("pass-records download", passRecords, (passRecords?.data ?? []).some((record) => record.task === run.task && record.round === run.round));
  const resolveRecords = await getResolveRecordFile(db, reader, run.id);
  add("resolve-records download", resolveRecords, (resolveRecords?.records ?? []).some((record) => record.task === run.task && record.round === run.round));
  const turns = await getModelTurns(db, reader, run.benchmarkId, run.modelName);
  add("model page", turns, turns.some((row) => row.responseId === item.responseId));
  const matrix = await getTaskMatrix(db, reader, run.benchmarkId, run.task);
  add("task page", matrix, (matrix?.matrix.rows ?? []).some((row) => row.cells.some((cell) => cell.responseId === item.responseId)));
  const pair = await getPairTurns(db, reader, run.id);
  add("compare", pair, pair.some((turn) => turn.responseId === item.responseId));
  const runPage = await listRunResponses(db, reader, run.id);
  add("run page", runPage, (runPage?.responses ?? []).some((row) => row.id === item.responseId && row.valid !== null));
  const other = await db.response.findFirstOrThrow({ where: { id: { not: item.responseId }, turn: { key: run.turnKey } }, select: { id: true } });
  const diff = await getResponsePair(db, reader, item.responseId, other.id);
  add("response diff", diff, diff?.a.recorded !== null);
  const modelDiff = await getModelDiffSource(db, reader, { turn: run.turnKey, a: run.id, b: null });
  add("model diff", modelDiff, modelDiff?.a?.response?.recorded != null);
  add("search", await searchEverything(db, reader, run.task), false);
  const judges = await getJudgeComparison(db, reader, run.benchmarkId, "pass", { kind: "recorded", param: "" }, { kind: "judges", members: ["rule"], param: "rule" });
  add("judge comparison", judges, JSON.stringify(judges).includes(item.responseId));
  if (reader && reader.role !== "annotator") {
    add("annotation export", await listAnnotationRows(db, reader, queueId), false);
    const detail = await getItemDetail(db, reader, queueId, item.id);
    add("review item detail", detail, detail?.item.judge != null);
  }
  return seen;
}

beforeAll(async () => {
  await emptyDatabase(db);
  const seeded = await seedDemoData(db);
  if (!seeded.ok) throw new Error("demo data did not import");
  researcher = await user("lead@blind.test", "researcher");
  reviewer = await user("reviewer@blind.test", "researcher");
  other = await user("second@blind.test", "annotator");
  const benchmark = await db.benchmark.findFirstOrThrow({ select: { id: true } });
  const created = await createQueue(
    db,
    researcher,
    newQueueSchema.parse({ filter: { benchmarkId: benchmark.id, stage: "pass", judges: ["recorded"] }, sampleSize: 3, seed: "blind", annotatorsPerItem: 2, mode: "blind", annotatorIds: [reviewer.id, other.id] }),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.issues));
  queueId = created.value.queueId;
  const first = await db.reviewItem.findFirstOrThrow({
    where: { queueId, reason: { not: null } },
    orderBy: { position: "asc" },
    select: { id: true, responseId: true, reason: true, verdict: true, response: { select: { runId: true, run: { select: { model: { select: { name: true } }, benchmarkId: true } }, turn: { select: { key: true, round: true, task: { select: { name: true } } } } } } },
  });
  item = { id: first.id, responseId: first.responseId, reason: first.reason!, verdict: first.verdict };
  run = { id: first.response.runId, modelName: first.response.run.model.name, task: first.response.turn.task.name, round: first.response.turn.round, benchmarkId: first.response.run.benchmarkId, turnKey: first.response.turn.key };
});

describe("blind review, everywhere", () => {
  it("shows the assigned researcher no verdict or reason of a response pending for them, anywhere", async () => {
    // The whole reason, as it appears inside JSON: parts of it are templated and shared with other responses.
    const reason = JSON.stringify(item.reason).slice(1, -1);
    expect(reason.length).toBeGreaterThan(20);
    const seen = await everything(reviewer);
    expect(Object.keys(seen).length).toBeGreaterThanOrEqual(12);
    for (const [name, { text, listsResponse }] of Object.entries(seen)) {
      expect(text.includes(reason), `${name} carries the judge's reason`).toBe(false);
      expect(listsResponse, `${name} carries the verdict`).toBe(false);
    }
    // Someone not assigned to the queue sees the same places with the verdict and reason in them.
    const unassigned = await everything(researcher);
    expect(unassigned["model page"]!.listsResponse && unassigned["pass-records download"]!.text.includes(reason)).toBe(true);
  });

  it("gives anonymous readers the verdicts but no judge reason while the item lacks votes", async () => {
    const seen = await everything(null);
    expect(seen["model page"]!.listsResponse).toBe(true);
    expect(seen["pass-records download"]!.listsResponse).toBe(true);
    expect(seen["pass-records download"]!.text.includes(JSON.stringify(item.reason).slice(1, -1))).toBe(false);
    expect((await blindVisibility(db, null, { responseIds: [item.responseId] })).reasonHidden(item.responseId)).toBe(true);
  });

  it("records the reviewer's vote as blind and shows them the verdict once they have voted", async () => {
    const claimed = await claimReviewItem(db, reviewer, queueId, { kind: "item", itemId: item.id });
    expect(claimed?.kind).toBe("item");
    const saved = await submitReviewVote(db, reviewer, voteInputSchema.parse({ itemId: item.id, pass: !item.verdict }));
    expect(saved.ok && saved.value.vote.judgeVisible).toBe(false);
    const seen = await everything(reviewer);
    expect(seen["model page"]!.listsResponse).toBe(true);
    expect(seen["review item detail"]!.listsResponse).toBe(true);
  });

  it("records a vote as not blind when the queue's filter names the verdict its annotators review", async () => {
    const benchmark = await db.benchmark.findFirstOrThrow({ select: { id: true } });
    const named = await createQueue(
      db,
      researcher,
      newQueueSchema.parse({ filter: { benchmarkId: benchmark.id, stage: "pass", judges: ["recorded"], verdict: "pass" }, sampleSize: 1, seed: "named", annotatorsPerItem: 1, mode: "blind", annotatorIds: [other.id] }),
    );
    if (!named.ok) throw new Error(JSON.stringify(named.issues));
    const claimed = await claimReviewItem(db, other, named.value.queueId, { kind: "resume" });
    if (claimed?.kind !== "item") throw new Error("no item");
    const saved = await submitReviewVote(db, other, voteInputSchema.parse({ itemId: claimed.item.id, pass: true }));
    expect(saved.ok && saved.value.vote.judgeVisible).toBe(true);
  });
});
