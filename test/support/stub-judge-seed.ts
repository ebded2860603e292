// Writes verdicts of a stub judge (a fixed rule, no model behind it) for one run of the demo benchmark, the way a
// judging job stores an LLM judge's verdicts: three samples per pass-stage item, one per resolve-stage item, with a
// judge identity that says it is a stub. The e2e server seeds it so the "judged by" journeys have a judge to choose.
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/server/db";

export const STUB_JUDGE = "e2e-stub-judge";

export interface StubJudgeSeed {
  runId: string;
  passRows: number;
  resolveRows: number;
}

/**
 * The stub's step 1_4 verdict is the rule judge's, except every third turn that reaches step 1_4 (in turn-key
 * order), which it fails by two samples to one; its resolve verdicts repeat the recorded judge's.
 */
export async function seedStubJudge(db: Database, benchmarkName: string, model: string): Promise<StubJudgeSeed> {
  const run = await db.run.findFirstOrThrow({ where: { benchmark: { name: benchmarkName }, model: { name: model } }, orderBy: { importedAt: "asc" } });
  const responses = await db.response.findMany({
    where: { runId: run.id },
    include: { turn: { select: { key: true } }, passResult: { select: { officialFailStep: true, recordedFailStep: true } }, judgeVerdicts: { where: { judge: { in: ["rule", "recorded"] } } } },
  });
  responses.sort((a, b) => (a.turn.key < b.turn.key ? -1 : a.turn.key > b.turn.key ? 1 : 0));
  const identity = JSON.stringify({ endpoint: "stub://e2e", model: "stub (fixed rule, not a model)", params: { temperature: 0 }, promptFingerprint: "stub", strict: false });
  const rows: Parameters<Database["judgeVerdict"]["createMany"]>[0]["data"] = [];
  let reaching = 0;
  for (const response of responses) {
    const pass = response.passResult;
    const rule = response.judgeVerdicts.find((verdict) => verdict.judge === "rule" && verdict.stage === "pass");
    if (pass && pass.officialFailStep === null && pass.recordedFailStep !== "step_1_5" && rule) {
      const samples = reaching % 3 === 2 ? [false, false, true] : [rule.verdict, rule.verdict, rule.verdict];
      reaching += 1;
      samples.forEach((verdict, sampleIndex) =>
        rows.push({
          id: randomUUID(),
          responseId: response.id,
          stage: "pass",
          casePosition: 0,
          judge: STUB_JUDGE,
          promptFingerprint: "stub",
          inputFingerprint: rule.inputFingerprint,
          reason: verdict ? "Stub judge: pass." : "Stub judge: fail.",
          verdict,
          rawOutput: `<reason>stub</reason><result>${verdict}</result>`,
          sampleIndex,
          judgeIdentity: identity,
          wellFormed: true,
        }),
      );
    }
    for (const recorded of response.judgeVerdicts.filter((verdict) => verdict.judge === "recorded" && verdict.stage === "resolve")) {
      rows.push({
        id: randomUUID(),
        responseId: response.id,
        stage: "resolve",
        casePosition: recorded.casePosition,
        judge: STUB_JUDGE,
        promptFingerprint: "stub",
        inputFingerprint: recorded.inputFingerprint,
        reason: "Stub judge: the recorded verdict.",
        verdict: recorded.verdict,
        rawOutput: `<reason>stub</reason><result>${recorded.verdict}</result>`,
        sampleIndex: 0,
        judgeIdentity: identity,
        wellFormed: true,
      });
    }
  }
  await db.judgeVerdict.createMany({ data: rows });
  return { runId: run.id, passRows: rows.filter((row) => row.stage === "pass").length, resolveRows: rows.filter((row) => row.stage === "resolve").length };
}
