import "server-only";
// A stored run as the official resolve record file: its turns with pass verdicts, and for valid turns the executed
// (or recorded) test cases with the resolve judge's reasons. Readers of the run may download it.
import { RULE_JUDGE_ID } from "@/lib/import/plan";
import { resolveRecordFile } from "@/lib/resolve/records";
import type { RunRecord } from "@/lib/benchmark/runs";
import { assertAllowed } from "../authz";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { passStageVerdict } from "../evaluations/pass-stage-verdicts";
import type { SessionUser } from "../session";

/** The reason of the verdict a record file reports: the recorded judge's when there is one, else the newest LLM's. */
function reasonOf(verdicts: readonly { judge: string; reason: string | null; casePosition: number; sampleIndex: number }[], position: number): string | null {
  const candidates = verdicts.filter((verdict) => verdict.casePosition === position && verdict.judge !== RULE_JUDGE_ID && verdict.sampleIndex === 0);
  return (candidates.find((verdict) => verdict.judge === "recorded") ?? candidates[0])?.reason ?? null;
}

export async function getResolveRecordFile(db: Database, actor: SessionUser | null, runId: string): Promise<{ modelName: string; records: RunRecord[] } | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      model: { select: { name: true } },
      responses: {
        select: {
          id: true,
          nodeSelection: true,
          designPrinciple: true,
          workflow: true,
          turn: { select: { round: true, task: { select: { name: true } } } },
          passResult: { select: { valid: true, failStep: true } },
          caseResults: { select: { position: true, verdict: true, outputs: true, error: true } },
          judgeVerdicts: { orderBy: { createdAt: "desc" }, select: { stage: true, judge: true, reason: true, casePosition: true, sampleIndex: true } },
        },
      },
    },
  });
  if (!run) return null;
  // Blind review: records under review by this reader are left out; reasons pending review are not given anonymously.
  const blind = await blindVisibility(db, actor, { runIds: [runId] });
  const records = resolveRecordFile(
    run.responses.filter((response) => !blind.verdictHidden(response.id)).map((response) => {
      const hideReasons = blind.reasonHidden(response.id);
      const resolveVerdicts = response.judgeVerdicts.filter((verdict) => verdict.stage === "resolve");
      return {
        task: response.turn.task.name,
        round: response.turn.round,
        nodeSelection: response.nodeSelection,
        designPrinciple: response.designPrinciple,
        workflow: response.workflow,
        ...passStageVerdict(response),
        passReason: hideReasons ? null : reasonOf(response.judgeVerdicts.filter((verdict) => verdict.stage === "pass"), 0),
        cases: response.caseResults.map((entry) => ({ ...entry, judgeReason: hideReasons ? null : reasonOf(resolveVerdicts, entry.position) })),
      };
    }),
  );
  return { modelName: run.model.name, records };
}
