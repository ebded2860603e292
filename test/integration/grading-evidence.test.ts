// Grading a stored Chat2Workflow run under another profile with an evidence file, through the service and through the
// grades page's action: gates from the stored pass checks, criteria from evidence, missing ones named; roles checked.
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { gradeRunWithEvidenceAction } from "@/app/actions/grading";
import { gradeStoredRun, loadRubricFile, type LoadedRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";
import { ACTORS, ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };

describe("grading a stored run with a profile and evidence", () => {
  const db = testDatabase();
  let profileB: LoadedRubric;
  let runId = "";
  let turns: string[] = [];

  beforeAll(async () => {
    const demo = await freshDemoDatabase(db);
    await ensureRoleUsers(db);
    runId = demo.runId("demo_alpha.json");
    const loaded = await loadRubricFile(path.resolve(__dirname, "../../rubrics/profile_b_dag.yaml"));
    if (!loaded.ok) throw new Error(loaded.issues.join("\n"));
    profileB = loaded.value;
    turns = (await db.response.findMany({ where: { runId }, select: { turn: { select: { key: true } } } })).map((response) => response.turn.key).sort();
  });

  const evidenceFor = (keys: readonly string[]) => ({
    rubric_id: "profile_b_dag",
    responses: keys.map((id) => ({ id, gates: {}, metrics: { efficiency: 1 }, judge_scores: { correctness: [{ judge: "human", score: 5 }], completeness: [{ judge: "human", score: 5 }] } })),
  });

  it("without evidence, Profile B is refused naming the criteria the run cannot supply", async () => {
    const graded = await gradeStoredRun(db, viewer, runId, profileB);
    expect(graded?.ok).toBe(false);
    expect(graded && !graded.ok && graded.issues[0]).toMatch(/missing: correctness, completeness, tool_data_precision, documentation_quality, efficiency/);
  });

  it("with evidence, each response grades: stored gates, evidence criteria, the rest named missing", async () => {
    const graded = await gradeStoredRun(db, viewer, runId, profileB, evidenceFor(turns) as never);
    expect(graded?.ok).toBe(true);
    if (!graded?.ok) return;
    expect(graded.value.responses).toHaveLength(turns.length);
    const passing = graded.value.responses.filter((response) => response.result.gate_failures.length === 0);
    expect(passing.length).toBeGreaterThan(0);
    for (const response of passing) {
      expect(response.result.weighted_100).toBe(100);
      expect(response.result.criteria.filter((criterion) => !criterion.applicable).map((criterion) => criterion.name)).toEqual(["tool_data_precision", "documentation_quality"]);
    }
    const format = graded.value.responses.find((response) => response.turnKey === "GrantProposalDigest_3")!;
    expect(format.result.gate_failures).toContain("schema_contract_valid");
  });

  it("evidence naming a response the run lacks is refused", async () => {
    const graded = await gradeStoredRun(db, viewer, runId, profileB, evidenceFor([...turns, "NoSuchTask_9"]) as never);
    expect(graded && !graded.ok && graded.issues.at(-1)).toBe("evidence for responses the run does not have: NoSuchTask_9");
  });

  it("the grades page's upload action: researchers and admins may, others are refused", async () => {
    const input = { runId, rubricFile: "profile_b_dag.yaml", evidenceName: "b.json", evidence: JSON.stringify(evidenceFor(turns)) };
    const outcomes: Record<string, string> = {};
    for (const actor of ACTORS) {
      signInAs(actor);
      const outcome = await gradeRunWithEvidenceAction(input);
      outcomes[actor] = outcome.ok ? "ok" : outcome.error;
    }
    expect(outcomes).toEqual({ admin: "ok", researcher: "ok", annotator: "forbidden", viewer: "forbidden", anonymous: "unauthenticated" });
    signInAs("researcher");
    const graded = await gradeRunWithEvidenceAction(input);
    expect(graded.ok && graded.value.rows.find((row) => row.gateFailures.length === 0)?.missing).toEqual(["tool_data_precision", "documentation_quality"]);
    const bad = await gradeRunWithEvidenceAction({ ...input, evidence: '{"responses":[{"id":"x","metrics":{"efficiency":"high"}}]}' });
    expect(bad.ok ? "" : bad.message).toMatch(/^b\.json › responses\[0\] \(id "x"\) › metrics\.efficiency: /);
    const escape = await gradeRunWithEvidenceAction({ ...input, rubricFile: "../package.json" });
    expect(escape).toMatchObject({ ok: false, error: "invalid" });
  });
});
