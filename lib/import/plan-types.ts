// The shapes an import is planned into before anything touches the database: plain data, fully validated and scored.
// A plan is written in one transaction (lib/server/import), so a failed import never leaves half its rows behind.
import type { Diagnostic } from "../workflow/diagnostics";

export interface TestCasePlan {
  position: number;
  inputs: Record<string, unknown>;
  groundTruth: string | null;
}

export interface TurnPlan {
  task: string;
  round: number;
  key: string;
  instruction: string;
  inputVars: string[];
  outputVars: string[] | string[][];
  keyNodes: string[];
  fileChecks: Record<string, string>;
  tests: TestCasePlan[];
}

export interface BenchmarkPlan {
  name: string;
  version: string;
  fingerprint: string;
  sourceDir: string | null;
  domains: { name: string; position: number }[];
  tasks: { externalId: number; name: string; domain: string; roundCount: number }[];
  turns: TurnPlan[];
  prompts: { name: string; text: string; fingerprint: string }[];
}

export interface ModelPlan {
  name: string;
  displayName: string;
  family: string | null;
  access: "open" | "closed" | null;
  provider: string | null;
}

export type RunOrigin = "recorded" | "imported" | "generated";

export interface AppliedRepairPlan {
  code: string;
  description: string;
}

export interface PassPlan {
  valid: boolean;
  failStep: string | null;
  verdictSource: "recorded" | "deterministic";
  recordedValid: boolean | null;
  recordedFailStep: string | null;
  officialFailStep: string | null;
  ruleJudge: boolean | null;
  deterministicValid: boolean;
  /** Why recorded and deterministic verdicts differ ("fail-step" or "judge"), or null. */
  disagreement: string | null;
  repairedFailStep: string | null;
  repairedRuleJudge: boolean | null;
  repairs: AppliedRepairPlan[];
  topDiagnosticCode: string | null;
  categoryCounts: Record<string, number>;
}

export interface CasePlan {
  position: number;
  verdict: boolean;
  outputs: string | null;
  /** "pass": the required files were produced; "not-required": the turn has no file outputs; null: unknown. */
  fileCheck: "pass" | "not-required" | null;
}

export interface JudgeVerdictPlan {
  stage: "pass" | "resolve";
  /** 0 for the pass stage, else the test case 1..3. */
  casePosition: number;
  judge: string;
  promptFingerprint: string | null;
  inputFingerprint: string;
  reason: string | null;
  verdict: boolean;
  rawOutput: string | null;
}

export interface ResponsePlan {
  turnKey: string;
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  pass: PassPlan;
  diagnostics: Diagnostic[];
  cases: CasePlan[];
  judgeVerdicts: JudgeVerdictPlan[];
}

export interface RunPlan {
  model: ModelPlan;
  label: string;
  origin: RunOrigin;
  contentHash: string;
  sourceFile: string | null;
  coreVersion: string;
  hasResolve: boolean;
  responses: ResponsePlan[];
}
