// The response page's account of the run's own judge (lib/judge/run-judge): the verdict that counts for the run, who
// made it, each sample it took and the full reasoning, in panels that scroll and take keyboard focus. Above the graph,
// a row of chips says the same in brief.
import { Badge } from "@/components/ui/badge";
import { cardStyles } from "@/components/ui/styles";
import { panelVerdict } from "@/lib/judge/majority";
import { describeRunJudge, type RunJudge } from "@/lib/judge/run-judge";
import type { ResponseDetail } from "@/lib/server/data/responses";
import type { ResponseView } from "@/lib/viewer/response-view";
import { SafeMarkdown } from "./safe-markdown";
import { stepLabel } from "./response-sections";

/** The verdict that counts for this turn: the stored one (the run's own judge), else what this app computes. */
function countingVerdict(detail: ResponseDetail, view: ResponseView): { valid: boolean; failStep: string | null } {
  return detail.pass ? { valid: detail.pass.valid, failStep: detail.pass.failStep } : { valid: view.passed, failStep: view.failStep };
}

/** Whether the run's own LLM judge decided step 1_4 of this turn, is still to decide it, or was never asked. */
function llmJudgeState(detail: ResponseDetail): "decided" | "awaiting" | "not-reached" {
  const pass = detail.pass;
  if (!pass || pass.officialFailStep !== null || (pass.failStep !== null && pass.failStep !== "step_1_4")) return "not-reached";
  return pass.verdictSource === "judge" ? "decided" : "awaiting";
}

export function VerdictChips({ detail, view }: { detail: ResponseDetail; view: ResponseView }) {
  const verdict = countingVerdict(detail, view);
  const cases = detail.cases;
  const resolved = cases.filter((entry) => entry.verdict === true).length;
  const notJudged = cases.filter((entry) => entry.verdict === null).length;
  const problems = view.diagnostics.length;
  return (
    <ul aria-label="Verdicts in brief" className="flex flex-wrap items-center gap-2 text-sm" data-testid="verdict-chips">
      <li className="flex items-center gap-1.5 rounded-full border border-slate-300 px-3 py-1 dark:border-slate-600" data-testid="verdict-chip">
        <Badge tone={verdict.valid ? "good" : "bad"}>{verdict.valid ? "valid" : "invalid"}</Badge>
        <span>{verdict.valid ? "passes" : stepLabel(verdict.failStep)}</span>
        <span className="text-slate-600 dark:text-slate-400">· {describeRunJudge(detail.run.judge)}</span>
      </li>
      <li className="rounded-full border border-slate-300 px-3 py-1 dark:border-slate-600" data-testid="resolve-chip">
        {cases.length > 0 ? `${resolved} / ${cases.length} test cases resolved${notJudged > 0 ? ` · ${notJudged} not judged` : ""}` : detail.run.hasResolve ? "resolve: not run" : "no resolve results"}
      </li>
      <li className="rounded-full border border-slate-300 px-3 py-1 dark:border-slate-600">{problems === 0 ? "no diagnostics" : `${problems} diagnostic${problems === 1 ? "" : "s"}`}</li>
    </ul>
  );
}

/** A judge's reasoning: the whole text, in a panel that scrolls on its own and can be focused to scroll by keyboard. */
function Reasoning({ label, text }: { label: string; text: string | null }) {
  if (!text) return <p className="text-sm text-slate-600 dark:text-slate-400">No reasoning recorded.</p>;
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="max-h-[28rem] overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm leading-relaxed focus:outline-2 focus:outline-brand-600 dark:border-slate-700 dark:bg-slate-800/60"
      data-testid="judge-reasoning"
    >
      <SafeMarkdown>{text}</SafeMarkdown>
    </div>
  );
}

function Samples({ member, detail }: { member: string; detail: ResponseDetail }) {
  const samples = detail.judges.filter((entry) => entry.stage === "pass" && entry.judge === member);
  if (samples.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{member} has not answered yet.</p>;
  return (
    <ol className="space-y-3">
      {samples.map((sample) => (
        <li key={sample.sampleIndex} data-testid="judge-sample">
          <p className="mb-1 flex items-center gap-2 text-sm">
            <span className="font-medium">{samples.length > 1 ? `Sample ${sample.sampleIndex + 1}` : member}</span>
            <Badge tone={sample.verdict ? "good" : "bad"}>{sample.verdict ? "pass" : "fail"}</Badge>
          </p>
          <Reasoning label={`Reasoning of ${member}${samples.length > 1 ? `, sample ${sample.sampleIndex + 1}` : ""}`} text={sample.reason} />
        </li>
      ))}
    </ol>
  );
}

function LlmJudge({ judge, detail }: { judge: Extract<RunJudge, { kind: "llm" }>; detail: ResponseDetail }) {
  const state = llmJudgeState(detail);
  const byMember = new Map(judge.members.map((member) => [member, detail.judges.filter((entry) => entry.stage === "pass" && entry.judge === member).map((entry) => entry.verdict)]));
  const decided = panelVerdict(judge.members, byMember);
  return (
    <>
      <p className="text-sm" data-testid="own-judge-verdict">
        {state === "not-reached" ? (
          <>Not asked: the response {stepLabel(detail.pass?.failStep ?? "step_1_1")} before the judge&apos;s step.</>
        ) : state === "awaiting" ? (
          <>Awaiting its verdict; until then the rule judge&apos;s stands ({detail.pass?.valid ? "pass" : "fail"}).</>
        ) : (
          <>
            Step 1.4: <Badge tone={decided ? "good" : "bad"}>{decided ? "pass" : "fail"}</Badge>{" "}
            {judge.members.length > 1 || judge.samples > 1 ? <span className="text-slate-600 dark:text-slate-400">(majority of {judge.members.length > 1 ? "the panel" : `${judge.samples} samples`})</span> : null}
          </>
        )}
      </p>
      {state === "not-reached" ? null : (
        <div className="space-y-4">
          {judge.members.map((member) => (
            <section key={member} aria-label={`Judge ${member}`}>
              {judge.members.length > 1 || judge.samples > 1 ? <h4 className="mb-1 text-sm font-semibold">{member}</h4> : null}
              <Samples member={member} detail={detail} />
            </section>
          ))}
        </div>
      )}
    </>
  );
}

export function OwnJudgePanel({ detail, view }: { detail: ResponseDetail; view: ResponseView }) {
  const judge = detail.run.judge;
  const recorded = detail.judges.find((entry) => entry.stage === "pass" && entry.judge === "recorded");
  return (
    <section aria-labelledby="own-judge-title" className={`${cardStyles} space-y-3`} data-testid="own-judge" data-judge-kind={judge.kind}>
      <h2 id="own-judge-title" className="text-lg font-semibold">
        The run&apos;s own judge: {describeRunJudge(judge)}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {judge.kind === "recorded"
          ? "This run's file recorded the official pipeline's verdicts; they are its figures everywhere."
          : judge.kind === "llm"
            ? "The evaluation that generated this run chose this judge; its verdict on step 1.4 is the run's on every page."
            : "No LLM judge decided this run: steps 1.1–1.3 as this app reproduces them, and the deterministic rule judge for step 1.4."}
      </p>
      {judge.kind === "llm" ? <LlmJudge judge={judge} detail={detail} /> : null}
      {judge.kind === "recorded" ? (
        recorded ? (
          <>
            <p className="text-sm" data-testid="own-judge-verdict">
              Step 1.4: <Badge tone={recorded.verdict ? "good" : "bad"}>{recorded.verdict ? "pass" : "fail"}</Badge>
            </p>
            <Reasoning label="Reasoning of the recorded judge" text={recorded.reason} />
          </>
        ) : (
          <p className="text-sm" data-testid="own-judge-verdict">
            No step 1.4 judgement recorded: the response {stepLabel(detail.pass?.recordedFailStep ?? detail.pass?.failStep ?? "step_1_1")}.
          </p>
        )
      ) : null}
      {judge.kind === "rule" ? (
        <p className="text-sm" data-testid="own-judge-verdict">
          {view.ruleJudge ? (
            <>
              Step 1.4: <Badge tone={view.ruleJudge.verdict ? "good" : "bad"}>{view.ruleJudge.verdict ? "pass" : "fail"}</Badge> {view.ruleJudge.explanation}
            </>
          ) : (
            <>Not reached: the response {stepLabel(view.failStep)}.</>
          )}
        </p>
      ) : null}
    </section>
  );
}
