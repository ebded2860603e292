// Official downloads of stored runs: the pass record file of an imported recorded run equals the recorded file in
// every field the pass stage writes (its key order too), the response file of any run imports back with the same
// fail steps, and the routes answer with attachments readers may fetch.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getPassRecordsRoute } from "@/app/runs/[runId]/download/pass-records/route";
import { GET as getResponsesRoute } from "@/app/runs/[runId]/download/responses/route";
import { getRunPassRecords, getRunResponseFile } from "@/lib/server/data/official-downloads";
import { runImport } from "@/lib/server/import/import-service";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor } from "../support/evaluation-fixtures";
import { ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async () => (await import("../support/session-mock")).nextAuthMock);

const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 };
const PASS_KEYS = ["task", "round", "node_selection", "design_principle", "workflow", "valid", "has_been_judged", "fail_step", "reason"] as const;
const viewer = actor("viewer");

describe.skipIf(!benchmarkDir)(`official downloads${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  const recordedFile = () => path.join(benchmarkDir as string, "runs", "gpt_5d2.json");
  let runId: string;

  beforeAll(async () => {
    await emptyDatabase(db);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir as string }, runs: [{ name: "gpt_5d2.json", content: readFileSync(recordedFile(), "utf8") }], importedBy: "test" }, LIMITS);
    if (!outcome.ok) throw new Error(outcome.issues.map((entry) => entry.message).join("\n"));
    runId = outcome.runs[0]!.runId;
  });

  it("the pass record file of a recorded run equals the recorded records in every pass-stage field and order", async () => {
    const recorded = JSON.parse(readFileSync(recordedFile(), "utf8")) as Record<string, unknown>[];
    const download = await getRunPassRecords(db, viewer, runId);
    expect(download?.fileName).toBe("pass_eval_gpt_5d2.json");
    const records = download?.data ?? [];
    expect(records).toHaveLength(recorded.length);
    expect(records.length).toBe(79);
    const sortedRecorded = [...recorded].sort((a, b) => (String(a.task) < String(b.task) ? -1 : String(a.task) > String(b.task) ? 1 : Number(a.round) - Number(b.round)));
    const passStageFields = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([key]) => (PASS_KEYS as readonly string[]).includes(key)));
    expect(records.map((record) => passStageFields(record as unknown as Record<string, unknown>))).toEqual(sortedRecorded.map(passStageFields));
    // Key order as the pass stage writes it: the fixed fields first, fail_step and reason only when present.
    for (const record of records) expect(Object.keys(record).slice(0, 7)).toEqual(PASS_KEYS.slice(0, 7));
  });

  it("the response file of a run imports back as raw output with the same fail steps on every turn", async () => {
    const download = await getRunResponseFile(db, viewer, runId);
    expect(download?.fileName).toBe("response_gpt_5d2.json");
    const items = download?.data ?? [];
    expect(items).toHaveLength(27);
    expect(Object.keys(items[0] ?? {}).slice(0, 4)).toEqual(["id", "category", "task", "answer1"]);
    const outcome = await runImport(
      db,
      { benchmark: { kind: "directory", dir: benchmarkDir as string }, runs: [{ name: "gpt_5d2_roundtrip.json", content: JSON.stringify(items) }], importedBy: "test" },
      LIMITS,
    );
    if (!outcome.ok) throw new Error(outcome.issues.map((entry) => entry.message).join("\n"));
    const imported = outcome.runs[0]!;
    expect(imported.origin).toBe("imported");
    expect(imported.responses).toBe(79);
    const steps = async (id: string) =>
      new Map(
        (await db.response.findMany({ where: { runId: id }, select: { turn: { select: { key: true } }, passResult: { select: { officialFailStep: true, ruleJudge: true } } } })).map((response) => [
          response.turn.key,
          response.passResult,
        ]),
      );
    const original = await steps(runId);
    const roundTrip = await steps(imported.runId);
    expect(roundTrip.size).toBe(79);
    expect([...roundTrip.entries()].filter(([key, result]) => JSON.stringify(result) !== JSON.stringify(original.get(key))).map(([key]) => key)).toEqual([]);
    // And the round-tripped run downloads the same response file again.
    const again = await getRunResponseFile(db, viewer, imported.runId);
    expect(again?.data).toEqual(items);
  });

  it("the routes send both files as attachments to a signed-in reader", async () => {
    await ensureRoleUsers(db);
    signInAs("viewer");
    const context = { params: Promise.resolve({ runId }) };
    const responses = await getResponsesRoute(new Request(`http://localhost/runs/${runId}/download/responses`), context as never);
    expect(responses.status).toBe(200);
    expect(responses.headers.get("content-disposition")).toBe('attachment; filename="response_gpt_5d2.json"');
    expect((await responses.json()) as unknown[]).toHaveLength(27);
    const pass = await getPassRecordsRoute(new Request(`http://localhost/runs/${runId}/download/pass-records`), context as never);
    expect(pass.status).toBe(200);
    expect(pass.headers.get("content-disposition")).toBe('attachment; filename="pass_eval_gpt_5d2.json"');
    expect((await pass.json()) as unknown[]).toHaveLength(79);
    signInAs("anonymous");
  });

  it("unknown runs give null", async () => {
    expect(await getRunResponseFile(db, viewer, "missing")).toBeNull();
    expect(await getRunPassRecords(db, viewer, "missing")).toBeNull();
  });
});
