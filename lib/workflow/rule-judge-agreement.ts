// The rule judge against the recorded step_1_4 verdicts (confusion matrices, disagreements by kind), shared by the
// judge:agreement CLI and the corpus test.

import type { RunRecord } from "../benchmark/runs";
import {
  addVerdictPair,
  agreementRate,
  BOTH_FALSE_REASONS,
  classifyDisagreement,
  emptyMatrix,
  failureReason,
  matrixTotal,
  OLD_JUDGE_WORDING,
  ruleJudge,
  type BothFalseReason,
  type ConfusionMatrix,
  type DisagreementKind,
} from "./rule-judge";

export interface Disagreement {
  kind: DisagreementKind;
  model: string;
  task: string;
  round: number;
  nodeSelection: string | null;
  missingKeyNodes: string[];
  undeclaredUsed: string[];
  declaredUnused: string[];
  quotesOldWording: boolean;
}

export interface AgreementReport {
  overall: ConfusionMatrix;
  perModel: Map<string, ConfusionMatrix>;
  disagreements: Disagreement[];
  bothFalse: Record<BothFalseReason, number>;
  unmapped: string[];
}

/** The recorded workflow as the recorded judge saw it: plain JSON, or nothing when it does not parse. */
function parseWorkflow(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Records that reached step 1_4 (valid, or failed exactly there) are compared; the others were never judged. */
export function ruleJudgeAgreement(
  runs: readonly { model: string; records: readonly RunRecord[] }[],
  keyNodesOf: (task: string, round: number) => readonly string[],
): AgreementReport {
  const overall = emptyMatrix();
  const perModel = new Map<string, ConfusionMatrix>();
  const disagreements: Disagreement[] = [];
  const bothFalse = Object.fromEntries(BOTH_FALSE_REASONS.map((reason) => [reason, 0])) as Record<BothFalseReason, number>;
  const unmapped: string[] = [];
  for (const { model, records } of runs) {
    for (const record of records) {
      if ((!record.valid && record.fail_step !== "step_1_4") || record.workflow === null) continue;
      const llmVerdict = record.valid;
      const reason = record.reason ?? null;
      const result = ruleJudge({ nodeSelection: record.node_selection, workflow: parseWorkflow(record.workflow), keyNodes: [...keyNodesOf(record.task, record.round)] });
      addVerdictPair(overall, result.verdict, llmVerdict);
      const modelMatrix = perModel.get(model) ?? emptyMatrix();
      addVerdictPair(modelMatrix, result.verdict, llmVerdict);
      perModel.set(model, modelMatrix);
      unmapped.push(...result.unmapped.map((fragment) => fragment.text));
      const kind = classifyDisagreement(result, llmVerdict, reason);
      if (kind) {
        disagreements.push({
          kind,
          model,
          task: record.task,
          round: record.round,
          nodeSelection: record.node_selection,
          missingKeyNodes: result.missingKeyNodes,
          undeclaredUsed: result.undeclaredUsed,
          declaredUnused: result.declaredUnused,
          quotesOldWording: reason !== null && OLD_JUDGE_WORDING.test(reason),
        });
      }
      const both = !result.verdict && !llmVerdict ? failureReason(result) : null;
      if (both) bothFalse[both] += 1;
    }
  }
  return { overall, perModel, disagreements, bothFalse, unmapped };
}

export function agreementReportJson(report: AgreementReport): unknown {
  return {
    overall: { ...report.overall, n: matrixTotal(report.overall), agreement: agreementRate(report.overall) },
    perModel: Object.fromEntries([...report.perModel].map(([model, m]) => [model, { ...m, n: matrixTotal(m), agreement: agreementRate(m) }])),
    disagreements: report.disagreements,
    bothFalse: report.bothFalse,
    unmapped: report.unmapped,
  };
}
