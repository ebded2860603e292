import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatClient } from "@/lib/server/llm";
import { judgeRunsPairwise, pairwiseItems } from "@/lib/server/pairwise";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase, testDatabaseUrl } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";
import { fixedReply, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };
const researcher: SessionUser = { id: "u2", email: "researcher@example.org", name: null, role: "researcher" };

describe("pairwise judging of two stored runs against a stub OpenAI-compatible server", () => {
  const db = testDatabase();
  let stub: OpenAIStub;
  let alphaId = "";
  let betaId = "";

  beforeAll(async () => {
    const demo = await freshDemoDatabase(db);
    alphaId = demo.runId("demo_alpha.json");
    betaId = demo.runId("demo_beta.json");
    stub = await startOpenAIStub(fixedReply("<result>first</result>"));
  });

  afterAll(async () => {
    await stub.close();
  });

  it("pairs the turns both runs answered", async () => {
    const items = await pairwiseItems(db, viewer, betaId, alphaId);
    expect(items.length).toBe(15);
    expect(items.every((item) => item.instruction.length > 0)).toBe(true);
  });

  it("a stub that always picks the first position shows as 100% inconsistent: all ties, warning on", async () => {
    const client = createChatClient({ baseURL: stub.baseURL, model: "stub-first", maxRetries: 0 });
    const before = stub.calls;
    const run = await judgeRunsPairwise(db, researcher, betaId, alphaId, client);
    expect(stub.calls - before).toBe(30);
    expect(run.summary).toMatchObject({ judged: 15, inconsistent: 15, inconsistencyRate: 1, warning: true, winRate: 0.5 });
    expect(run.summary.counts).toEqual({ wins: 0, losses: 0, ties: 15 });
    expect(run.judge.model).toBe("stub-first");
    const last = stub.requests.at(-1)!;
    expect(last.body.temperature).toBe(0);
  });

  it("a stub that prefers the candidate's workflow in either position gives it wins and no losses", async () => {
    const candidateTexts = new Set((await pairwiseItems(db, viewer, betaId, alphaId)).map((item) => item.candidate));
    stub.setHandler((request) => {
      const user = request.messages[1]?.content ?? "";
      const first = user.split("<first>\n")[1]?.split("\n</first>")[0] ?? "";
      return { kind: "reply", content: `<result>${candidateTexts.has(first) ? "first" : "second"}</result>` };
    });
    const client = createChatClient({ baseURL: stub.baseURL, model: "stub-content", maxRetries: 0 });
    const run = await judgeRunsPairwise(db, researcher, betaId, alphaId, client);
    // Turns where both runs wrote the same workflow text look the same to this stub in both orders: ties.
    expect(run.summary.counts.losses).toBe(0);
    expect(run.summary.counts.wins).toBeGreaterThan(0);
    expect(run.summary.winRate).toBeGreaterThan(0.5);
  });

  it("server errors are listed per turn and never counted; a viewer may not spend model calls", async () => {
    stub.setHandler(() => ({ kind: "error", status: 500, message: "boom" }));
    const client = createChatClient({ baseURL: stub.baseURL, model: "stub-500", maxRetries: 0 });
    const run = await judgeRunsPairwise(db, researcher, betaId, alphaId, client);
    expect(run.summary.judged).toBe(0);
    expect(run.failed).toHaveLength(15);
    expect(run.failed[0]?.problem).toMatch(/^server-error/);
    await expect(judgeRunsPairwise(db, viewer, betaId, alphaId, client)).rejects.toThrow(/may not import/);
  });

  it("npm run pairwise prints the tally as JSON", async () => {
    stub.setHandler(fixedReply("<result>tie</result>"));
    const root = path.resolve(__dirname, "../..");
    const args = ["--import", "tsx", "--conditions=react-server", "scripts/pairwise.ts", "--candidate", "demo_beta.json", "--baseline", "demo_alpha.json", "--endpoint", stub.baseURL, "--model", "stub-tie", "--json"];
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, DATABASE_URL: testDatabaseUrl() } });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(status).toBe(0);
    const parsed = JSON.parse(stdout) as { counts: unknown; inconsistencyRate: number; warning: boolean; judge: { model: string } };
    expect(parsed).toMatchObject({ counts: { wins: 0, losses: 0, ties: 15 }, inconsistencyRate: 0, warning: false, judge: { model: "stub-tie" } });
  }, 60_000);
});
