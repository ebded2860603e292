// The dry-run job over a demo run: who may start it and read its results, and what it stores per test case.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { AuthorizationError } from "@/lib/server/authz";
import mammoth from "mammoth";
import type { TraceStep } from "@/lib/dry-run/engine";
import { PLACEHOLDER_PNG } from "@/lib/dry-run/placeholder-png";
import { dryRunCasesOf, dryRunFileOf } from "@/lib/server/data/dry-run";
import { dryRunJobHandler, startDryRunJob } from "@/lib/server/jobs/dry-run-job";
import { jobQueue } from "@/lib/server/jobs/instance";
import { JobWorker } from "@/lib/server/jobs/worker";
import { createSandboxCodeRunner, type SandboxCodeRunner } from "@/lib/server/sandbox/code-runner";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase } from "../support/database";
import { freshDemoDatabase, type DemoDatabase } from "../support/demo-database";

const actor = (role: Role): SessionUser => ({ id: `user-${role}`, email: `${role}@example.org`, name: null, role });

describe("dry-run jobs", () => {
  const db = testDatabase();
  let demo: DemoDatabase;
  let code: SandboxCodeRunner;

  beforeAll(async () => {
    demo = await freshDemoDatabase(db);
    code = createSandboxCodeRunner({ size: 1 });
  });

  afterAll(async () => {
    await code.close();
  });

  it("may be started by admins and researchers only; its results are read by every role", async () => {
    const runId = demo.runId("demo_gamma.json");
    for (const role of ["admin", "researcher", "annotator", "viewer", "anonymous"] as const) {
      const user = role === "anonymous" ? null : actor(role);
      const attempt = await startDryRunJob(db, user, { runId }).then(
        () => "allowed",
        (error: unknown) => (error instanceof AuthorizationError ? "refused" : `threw ${String(error)}`),
      );
      expect(`start as ${role}: ${attempt}`).toBe(`start as ${role}: ${role === "admin" || role === "researcher" ? "allowed" : "refused"}`);
    }
    const response = await db.response.findFirstOrThrow({ where: { runId }, select: { id: true } });
    for (const role of ["admin", "researcher", "annotator", "viewer"] as const) expect((await dryRunCasesOf(db, actor(role), response.id))?.runId).toBe(runId);
  });

  it("dry-runs the three test cases of every response that passed, and stores each case's outcome and trace", async () => {
    const runId = demo.runId("demo_alpha.json");
    const started = await startDryRunJob(db, actor("researcher"), { runId });
    const passing = await db.response.count({ where: { runId, passResult: { valid: true } } });
    expect(started).toMatchObject({ ok: true, items: passing });
    await new JobWorker(db, jobQueue(db), [dryRunJobHandler({ code })], { pollMs: 20, leaseMs: 60_000 }).runUntilIdle();

    const rows = await db.dryRunCase.findMany({ where: { response: { runId } }, include: { response: { select: { turn: { select: { round: true, task: { select: { name: true } } } } } } } });
    expect(rows).toHaveLength(3 * passing);
    // The text-to-speech node returns a .wav where the resolve stage's check wants .mp3 (demo PosterCopy_2).
    const poster = rows.filter((row) => row.response.turn.task.name === "PosterCopy" && row.response.turn.round === 2);
    expect(poster.map((row) => [row.outcome, row.fileCheck])).toEqual([["completed", "failed"], ["completed", "failed"], ["completed", "failed"]]);
    // The code node ran in the sandbox on the test's real commit log: its trace holds what it read and produced.
    const changelog = rows.find((row) => row.response.turn.task.name === "ChangelogWriter" && row.response.turn.round === 1 && row.position === 1);
    const codeStep = (JSON.parse(changelog?.trace ?? "[]") as { type: string; workflowId?: string; status: string; mocked: boolean; inputs?: Record<string, string>; outputs?: Record<string, string> }[]).find((step) => step.type === "code");
    expect(codeStep).toMatchObject({ workflowId: "2", status: "succeeded", mocked: false });
    expect(Object.keys(codeStep?.inputs ?? {})).toEqual(["1.commits"]);
    expect(Object.keys(codeStep?.outputs ?? {})).toEqual(["features", "fixes", "others"]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => !(row.model === "mock"))).toEqual([]);
  });

  it("lists each tool's files in the trace and writes them again for a download: the exporter's .docx, the placeholder PNG", async () => {
    const runId = demo.runId("demo_alpha.json");
    const caseOf = async (task: string, round: number) => {
      const row = await db.dryRunCase.findFirstOrThrow({ where: { position: 1, response: { runId, turn: { round, task: { name: task } } } } });
      return { responseId: row.responseId, trace: JSON.parse(row.trace) as TraceStep[] };
    };
    const digest = await caseOf("GrantProposalDigest", 2);
    const docxStep = digest.trace.findIndex((step) => step.type === "md_to_docx");
    const docx = digest.trace[docxStep]?.files?.[0];
    expect(docx).toMatchObject({ extension: ".docx", kind: "document", content: "written" });
    expect(docx?.size).toBeGreaterThan(1000);
    const downloaded = await dryRunFileOf(db, actor("viewer"), { responseId: digest.responseId, position: 1, step: docxStep, file: 0 });
    expect(downloaded?.mimeType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect((await mammoth.extractRawText({ buffer: Buffer.from(downloaded?.bytes ?? []) })).value).toContain("[mock answer of");

    const poster = await caseOf("PosterCopy", 1);
    const imageStep = poster.trace.findIndex((step) => step.files?.[0]?.extension === ".png");
    expect(poster.trace[imageStep]?.files?.[0]).toMatchObject({ content: "placeholder", size: PLACEHOLDER_PNG.byteLength });
    expect((await dryRunFileOf(db, actor("annotator"), { responseId: poster.responseId, position: 1, step: imageStep, file: 0 }))?.bytes).toEqual(PLACEHOLDER_PNG);
    // A step or file the trace does not have is not found.
    expect(await dryRunFileOf(db, actor("viewer"), { responseId: poster.responseId, position: 1, step: imageStep, file: 1 })).toBeNull();
    expect(await dryRunFileOf(db, actor("viewer"), { responseId: poster.responseId, position: 1, step: 0, file: 0 })).toBeNull();
  });
});
