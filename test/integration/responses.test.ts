import { beforeAll, describe, expect, it } from "vitest";
import { getResponseDetail, listRunResponses } from "@/lib/server/data/responses";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";

const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };

describe("responses data access", () => {
  const db = testDatabase();
  let betaRunId = "";

  beforeAll(async () => {
    betaRunId = (await freshDemoDatabase(db)).runId("demo_beta.json");
  });

  it("lists a run's responses by task and round, with the diagnostic that explains the fail step", async () => {
    const listed = await listRunResponses(db, viewer, betaRunId);
    expect(listed?.run).toMatchObject({ label: "demo_beta.json", origin: "recorded", model: { name: "demo_beta" } });
    const rows = listed!.responses;
    expect(rows).toHaveLength(15);
    expect(rows.map((row) => `${row.task}_${row.round}`)).toEqual([...rows.map((row) => `${row.task}_${row.round}`)].sort((a, b) => a.localeCompare(b)));
    const forward = rows.find((row) => row.task === "ChangelogWriter" && row.round === 2)!;
    expect(forward).toMatchObject({ valid: false, failStep: "step_1_2", officialFailStep: "step_1_2" });
    expect(forward.topDiagnostic).toMatchObject({ code: "forward-reference", category: "semantics" });
    // The first valid turn, GrantProposalDigest round 1, recorded test1..3 as pass, fail, pass.
    const valid = rows.find((row) => row.valid)!;
    expect(valid).toMatchObject({ task: "GrantProposalDigest", round: 1 });
    expect(valid.caseCount).toBe(3);
    expect(valid.casesPassed).toBe(2);
  });

  it("reads one response with its conversation, verdicts, tests and neighbours in the run", async () => {
    const row = (await listRunResponses(db, viewer, betaRunId))!.responses.find((r) => r.task === "GrantProposalDigest" && r.round === 3)!;
    const detail = await getResponseDetail(db, viewer, row.id);
    expect(detail).not.toBeNull();
    expect(detail!.turn).toMatchObject({ key: "GrantProposalDigest_3", round: 3, task: { name: "GrantProposalDigest", domain: "Research", roundCount: 3 } });
    expect(detail!.turn.earlier.map((turn) => turn.round)).toEqual([1, 2]);
    expect(detail!.turn.tests.map((test) => test.position)).toEqual([1, 2, 3]);
    expect(detail!.workflow).toContain("nodes_info");
    expect(detail!.previous?.label).toBe("GrantProposalDigest round 2");
    expect(detail!.next?.label).toBe("OnboardingChecklist round 1");
    expect(detail!.pass?.verdictSource).toBe("recorded");
    expect(detail!.judges.some((judge) => judge.stage === "pass" && judge.judge === "recorded")).toBe(true);
  });

  it("returns null for an unknown id and refuses an actor who may not read", async () => {
    expect(await getResponseDetail(db, viewer, "no-such-response")).toBeNull();
    expect(await listRunResponses(db, viewer, "no-such-run")).toBeNull();
    const stranger = { ...viewer, role: "nobody" } as unknown as SessionUser;
    await expect(listRunResponses(db, stranger, betaRunId)).rejects.toThrow(/may not read/);
  });
});
