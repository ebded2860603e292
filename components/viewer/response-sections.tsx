// Server-rendered sections of the response page: verdicts, the JSON parse failure, the conversation, the judges'
// reasons and the resolve results. Model output is rendered as text or sanitised Markdown only.
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cardStyles } from "@/components/ui/styles";
import type { ResponseDetail } from "@/lib/server/data/responses";
import type { ViewDiagnostic } from "@/lib/viewer/model";
import type { ResponseView } from "@/lib/viewer/response-view";
import { excerptAround, textMarksFor } from "@/lib/viewer/text-marks";
import { DIAGNOSTIC_CATEGORIES } from "@/lib/workflow/diagnostics";
import { CORE_VERSION } from "@/lib/workflow/version";
import { CategoryChip } from "./diagnostic-list";
import { MarkedText } from "./marked-text";
import { CATEGORY_LABELS } from "./palette";
import { SafeMarkdown } from "./safe-markdown";

const STEP_LABELS: Readonly<Record<string, string>> = {
  step_1_1: "step 1.1 (tags and JSON)",
  step_1_2: "step 1.2 (conversion to Dify)",
  step_1_3: "step 1.3 (input and output variables)",
  step_1_4: "step 1.4 (node judge)",
  step_1_5: "step 1.5",
};

export function stepLabel(step: string | null): string {
  return step === null ? "passes" : `fails at ${STEP_LABELS[step] ?? step}`;
}

function VerdictCard({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <div className={cardStyles} data-testid={testId}>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <div className="mt-1 space-y-1 text-sm">{children}</div>
    </div>
  );
}

export function VerdictSummary({ detail, view }: { detail: ResponseDetail; view: ResponseView }) {
  const pass = detail.pass;
  const recorded = pass?.verdictSource === "recorded";
  const agrees = recorded && (pass?.recordedFailStep ?? null) === view.failStep;
  const casesPassed = detail.cases.filter((c) => c.verdict === true).length;
  const casesNotJudged = detail.cases.filter((c) => c.verdict === null).length;
  return (
    <section aria-labelledby="verdicts-title" className="space-y-2">
      <h2 id="verdicts-title" className="sr-only">
        Verdicts
      </h2>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <VerdictCard title="Recorded verdict" testId="recorded-verdict">
          {recorded ? (
            <p>
              <Badge tone={pass?.recordedValid ? "good" : "bad"}>{pass?.recordedValid ? "valid" : "invalid"}</Badge>{" "}
              <span data-testid="recorded-fail-step">{stepLabel(pass?.recordedFailStep ?? null)}</span>
            </p>
          ) : (
            <p className="text-slate-600 dark:text-slate-400">None: raw model output, scored by this app only.</p>
          )}
        </VerdictCard>
        <VerdictCard title="Our verdict" testId="our-verdict">
          <p>
            <Badge tone={view.passed ? "good" : "bad"}>{view.passed ? "valid" : "invalid"}</Badge> <span data-testid="our-fail-step">{stepLabel(view.failStep)}</span>
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Official steps 1.1–1.3: {view.officialFailStep ? stepLabel(view.officialFailStep) : "pass"}; rule judge (1.4):{" "}
            {view.ruleJudge ? (view.ruleJudge.verdict ? "pass" : "fail") : "not reached"}
          </p>
          {recorded ? <Badge tone={agrees ? "good" : "warn"}>{agrees ? "agrees with the record" : "differs from the record"}</Badge> : null}
        </VerdictCard>
        <VerdictCard title="Diagnostics" testId="diagnostic-counts">
          <p className="flex flex-wrap gap-1.5">
            {DIAGNOSTIC_CATEGORIES.map((category) => (
              <span key={category} className="flex items-center gap-1">
                <CategoryChip category={category} /> <span className="tabular-nums">{view.categoryCounts[category]}</span>
              </span>
            ))}
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">Recomputed from the response with scoring core {CORE_VERSION}.</p>
        </VerdictCard>
        <VerdictCard title="Resolve">
          {detail.cases.length > 0 ? (
            <p>
              <span className="text-lg font-semibold tabular-nums">
                {casesPassed} / {detail.cases.length}
              </span>{" "}
              test cases resolved
              {casesNotJudged > 0 ? (
                <>
                  {" "}
                  <Badge tone="warn" title="Text outputs no LLM judge has answered yet: neither resolved nor failed">
                    not judged ({casesNotJudged})
                  </Badge>
                </>
              ) : null}
            </p>
          ) : (
            <p className="text-slate-600 dark:text-slate-400">{detail.run.hasResolve ? "Not run: the response did not pass." : "No resolve-stage results for this run."}</p>
          )}
        </VerdictCard>
      </div>
      {pass && pass.coreVersion !== CORE_VERSION ? (
        <p className="text-xs text-amber-700 dark:text-amber-400">
          The stored verdicts were computed with scoring core {pass.coreVersion}; this page shows core {CORE_VERSION}. Re-score the run on the Runs page to update the stored ones.
        </p>
      ) : null}
    </section>
  );
}

/** Where the JSON breaks: the message, the position, and the lines around it with the spot highlighted. */
export function ParseErrorPanel({ view }: { view: ResponseView }) {
  const format = view.diagnostics.filter((d) => d.category === "format" && d.textField !== null);
  const primary = format[0];
  const field = primary?.textField ?? "workflow";
  const text = field === "raw" ? view.texts.raw : field === "workflow" ? view.texts.workflow : null;
  const offset = primary?.location?.offset;
  const excerpt = text !== null && offset !== undefined ? excerptAround(text, offset, 4) : null;
  const marks = excerpt ? textMarksFor(format, field, -excerpt.offset) : [];
  return (
    <section aria-labelledby="parse-error-title" className="space-y-3 rounded-xl border border-red-200 bg-red-50/60 p-4 dark:border-red-900 dark:bg-red-950/30" data-testid="parse-error">
      <h3 id="parse-error-title" className="text-base font-semibold text-red-900 dark:text-red-200">
        {field === "raw" ? "The answer is missing a tagged section" : "The workflow JSON does not parse"} — nothing can be drawn from it as written
      </h3>
      {format.length === 0 ? <p className="text-sm">{view.diagnostics[0]?.message ?? "The response has no workflow."}</p> : null}
      <ul className="space-y-1 text-sm">
        {format.map((diagnostic) => (
          <li key={diagnostic.id}>
            {diagnostic.location?.line !== undefined ? (
              <span className="font-mono text-xs" data-testid="parse-error-position">
                line {diagnostic.location.line}, column {diagnostic.location.column}
                {diagnostic.location.offset !== undefined ? ` (offset ${diagnostic.location.offset})` : ""}:{" "}
              </span>
            ) : null}
            <span>{diagnostic.message}</span>
            {diagnostic.hint ? <span className="block text-xs text-slate-700 dark:text-slate-300">Fix: {diagnostic.hint}</span> : null}
          </li>
        ))}
      </ul>
      {excerpt ? (
        <div>
          {excerpt.omittedBefore > 0 ? <p className="text-xs text-slate-500">… {excerpt.omittedBefore} lines above</p> : null}
          <MarkedText text={excerpt.text} marks={marks.map((m) => ({ ...m }))} label="Where the JSON breaks" firstLine={excerpt.firstLine} maxHeight={320} />
          {excerpt.omittedAfter > 0 ? <p className="text-xs text-slate-500">… {excerpt.omittedAfter} lines below (the whole text is in the Response tab)</p> : null}
        </div>
      ) : null}
    </section>
  );
}

export function RepairBanner({ view }: { view: ResponseView }) {
  const repaired = view.repaired;
  return (
    <div className="rounded-xl border-2 border-dashed border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950/40" data-testid="repaired-banner">
      <p className="font-semibold text-amber-900 dark:text-amber-200">Repaired graph — not what the model wrote</p>
      <p className="text-amber-900 dark:text-amber-200">
        This drawing comes from the response after mechanical repairs; the original JSON does not parse. After the repairs it {stepLabel(repaired.failStep)}.
      </p>
      <ul className="mt-1 list-disc pl-5 text-amber-900 dark:text-amber-200">
        {repaired.applied.map((repair, i) => (
          <li key={i}>
            <code className="text-xs">{repair.code}</code>: {repair.description}
          </li>
        ))}
      </ul>
    </div>
  );
}

function VarList({ values }: { values: readonly string[] }) {
  return values.length ? <>{values.map((v, i) => <code key={i} className="mr-1.5 rounded bg-slate-100 px-1 text-xs dark:bg-slate-800">{v}</code>)}</> : <span className="text-slate-500">none</span>;
}

export function Conversation({ detail, view, diagnostics, clipped }: { detail: ResponseDetail; view: ResponseView; diagnostics: readonly ViewDiagnostic[]; clipped?: ReactNode }) {
  const { turn } = detail;
  const outputs = turn.outputVars.length > 0 && Array.isArray(turn.outputVars[0]) ? (turn.outputVars as string[][]) : [turn.outputVars as string[]];
  const selectionMarks = textMarksFor(diagnostics, "node_selection");
  return (
    <section aria-labelledby="conversation-title" className="space-y-4">
      <h2 id="conversation-title" className="text-lg font-semibold">
        Instruction and answer
      </h2>
      {turn.earlier.length > 0 ? (
        <details className={cardStyles}>
          <summary className="cursor-pointer text-sm font-medium">Earlier instructions ({turn.earlier.length})</summary>
          <ol className="mt-2 space-y-3">
            {turn.earlier.map((earlier) => (
              <li key={earlier.round}>
                <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Round {earlier.round}</h3>
                <p className="text-sm whitespace-pre-wrap">{earlier.instruction}</p>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <div className={cardStyles}>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          Round {turn.round} of {turn.task.roundCount}: instruction
        </h3>
        <p className="mt-1 text-sm whitespace-pre-wrap" data-testid="instruction">
          {turn.instruction}
        </p>
        <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-500">Start inputs</dt>
          <dd>
            <VarList values={turn.inputVars} />
          </dd>
          <dt className="text-slate-500">End outputs</dt>
          <dd>
            {outputs.map((group, i) => (
              <span key={i} className="mr-3">
                {outputs.length > 1 ? <span className="text-xs text-slate-500">End {i + 1}: </span> : null}
                <VarList values={group} />
              </span>
            ))}
          </dd>
          <dt className="text-slate-500">Key nodes</dt>
          <dd>
            <VarList values={turn.keyNodes} />
          </dd>
        </dl>
      </div>
      {clipped}
      <div className="grid gap-4 lg:grid-cols-2">
        <div className={cardStyles}>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">node_selection</h3>
          {view.texts.nodeSelection !== null ? (
            <div data-testid="node-selection">
              <MarkedText text={view.texts.nodeSelection} marks={selectionMarks} label="node_selection" lineNumbers={false} maxHeight={240} />
            </div>
          ) : (
            <p className="text-sm text-slate-500">Missing.</p>
          )}
        </div>
        <div className={cardStyles}>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">design_principle</h3>
          {view.texts.designPrinciple !== null ? (
            <div className="max-h-80 overflow-y-auto" data-testid="design-principle" role="region" aria-label="design_principle" tabIndex={0}>
              <SafeMarkdown>{view.texts.designPrinciple}</SafeMarkdown>
            </div>
          ) : (
            <p className="text-sm text-slate-500">Missing.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function inputPreview(value: unknown): string {
  if (typeof value === "string") return value.length > 400 ? `${value.slice(0, 399)}…` : value;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}

export function JudgesAndTests({ detail, view }: { detail: ResponseDetail; view: ResponseView }) {
  const resolveReason = (position: number) => detail.judges.find((j) => j.stage === "resolve" && j.casePosition === position && j.judge === "recorded")?.reason ?? null;
  return (
    <section aria-labelledby="judges-title" className="space-y-4">
      <h2 id="judges-title" className="text-lg font-semibold">
        Judges and tests
      </h2>
      <div className="grid gap-4">
        <div className={cardStyles} data-testid="rule-judge">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Rule judge (our step 1.4, for comparison)</h3>
          {view.ruleJudge ? (
            <>
              <p className="mt-1 text-sm">
                <Badge tone={view.ruleJudge.verdict ? "good" : "bad"}>{view.ruleJudge.verdict ? "pass" : "fail"}</Badge> {view.ruleJudge.explanation}
              </p>
            </>
          ) : (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Not run: the workflow JSON does not parse.</p>
          )}
          {view.repaired.applied.length > 0 ? (
            <div className="mt-3">
              <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Mechanical repairs that apply</h4>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {view.repaired.applied.map((repair, i) => (
                  <li key={i}>
                    <code className="text-xs">{repair.code}</code>: {repair.description}
                  </li>
                ))}
              </ul>
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">After them the response {stepLabel(view.repaired.failStep)}.</p>
            </div>
          ) : null}
        </div>
      </div>
      {detail.turn.tests.length > 0 ? (
        <div className="space-y-3" data-testid="resolve-results">
          <h3 className="text-base font-semibold">Resolve results per test case</h3>
          {detail.turn.tests.map((test) => {
            const result = detail.cases.find((c) => c.position === test.position);
            const reason = resolveReason(test.position);
            return (
              <article key={test.position} className={cardStyles} aria-labelledby={`test-${test.position}`} data-testid="test-case">
                <h4 id={`test-${test.position}`} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
                  Test {test.position}
                  {!result ? (
                    <Badge>not run</Badge>
                  ) : result.verdict === null ? (
                    <Badge tone="warn" title={result.error ?? "No LLM judge has answered its text outputs yet"}>not judged</Badge>
                  ) : (
                    <Badge tone={result.verdict ? "good" : "bad"}>{result.verdict ? "resolved" : "not resolved"}</Badge>
                  )}
                  {result?.fileCheck && result.fileCheck !== "not-required" ? <span className="text-xs font-normal text-slate-500">file check: {result.fileCheck}</span> : null}
                </h4>
                <div className="mt-2 grid gap-4 lg:grid-cols-3">
                  <div className="min-w-0">
                    <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Inputs</h5>
                    <dl className="mt-1 space-y-1 text-xs">
                      {Object.entries(test.inputs).map(([name, value]) => (
                        <div key={name}>
                          <dt className="font-mono text-slate-500">{name}</dt>
                          <dd className="break-words [overflow-wrap:anywhere]">{inputPreview(value)}</dd>
                        </div>
                      ))}
                      {test.groundTruth ? (
                        <div>
                          <dt className="font-mono text-slate-500">expected</dt>
                          <dd className="break-words [overflow-wrap:anywhere]">{inputPreview(test.groundTruth)}</dd>
                        </div>
                      ) : null}
                    </dl>
                  </div>
                  <div className="min-w-0">
                    <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Outputs</h5>
                    {result?.outputs ? <p role="region" aria-label={`Outputs of test ${test.position}`} tabIndex={0} className="mt-1 max-h-48 overflow-y-auto text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">{result.outputs}</p> : <p className="mt-1 text-xs text-slate-500">None recorded.</p>}
                  </div>
                  <div className="min-w-0">
                    <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Judge&apos;s reason</h5>
                    {reason ? (
                      <div role="region" aria-label={`Judge's reason on test ${test.position}`} tabIndex={0} className="mt-1 max-h-48 overflow-y-auto">
                        <SafeMarkdown className="text-xs [overflow-wrap:anywhere]">{reason}</SafeMarkdown>
                      </div>
                    ) : <p className="mt-1 text-xs text-slate-500">None recorded.</p>}
                  </div>
                </div>
              </article>
            );
          })}
        </div>
      ) : null}
    </section>
  );
}

export function categorySummary(view: ResponseView): string {
  const parts = DIAGNOSTIC_CATEGORIES.filter((c) => view.categoryCounts[c] > 0).map((c) => `${view.categoryCounts[c]} ${CATEGORY_LABELS[c].toLowerCase()}`);
  return parts.length ? parts.join(", ") : "no problems";
}
