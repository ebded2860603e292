import { Badge } from "@/components/ui/badge";
import { cardStyles } from "@/components/ui/styles";
import { describeFinding } from "@/lib/bundle/format";
import { formatDateTime } from "@/lib/format";
import { modeLabel } from "@/lib/generation/modes";
import type { RunBundleProvenance } from "@/lib/server/data/run-bundle-imports";

const SHOWN_FINDINGS = 50;

function judgeText(info: NonNullable<RunBundleProvenance["info"]>): string {
  const judge = info.evaluation?.judge;
  if (!judge) return info.run.origin === "recorded" ? "the recorded judge" : "none named";
  if (judge.kind === "llm") return `${judge.members.map((member) => `${member.label} (${member.model})`).join(", ") || "a deleted endpoint"}, ${judge.samples} sample${judge.samples === 1 ? "" : "s"}`;
  return judge.kind === "rule" ? "the rule judge" : "none";
}

/** A run imported from a run bundle: what produced the original run, and whether re-scoring and re-deriving agreed. */
export function BundleProvenance({ provenance }: { provenance: RunBundleProvenance }) {
  const { info, checked, findings } = provenance;
  const verified = provenance.verification === "verified";
  return (
    <section className={`${cardStyles} space-y-3`} aria-labelledby="bundle-provenance" data-testid="bundle-provenance" data-verification={provenance.verification}>
      <h2 id="bundle-provenance" className="flex flex-wrap items-center gap-2 text-lg font-medium">
        Imported from a run bundle{" "}
        <Badge tone={verified ? "good" : "bad"}>{verified ? "verified" : `${findings.length} disagreement${findings.length === 1 ? "" : "s"}`}</Badge>
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        On import every response was re-scored with this app&apos;s core ({checked.rescored ?? 0} responses), {checked.judgeVerdictsRederived ?? 0} judge verdicts were
        re-read from their recorded replies, {checked.passVerdictsRederived ?? 0} pass verdicts and {checked.caseVerdictsRederived ?? 0} test cases re-derived, and{" "}
        {checked.turnsReplayed ?? 0} generated turns replayed from {checked.calls ?? 0} recorded model calls. Taken as the run recorded them (nothing to re-derive
        them from): {checked.passVerdictsAsRecorded ?? 0} pass verdicts and {checked.caseVerdictsAsRecorded ?? 0} test cases.
      </p>
      {info ? (
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">Original run</dt>
          <dd>
            {info.run.label} ({info.run.origin}, {info.run.responseCount} responses) · <span className="font-mono text-xs">{info.run.id}</span>
          </dd>
          <dt className="font-medium">Mode</dt>
          <dd>{info.run.generationMode ? `${modeLabel(info.run.generationMode)}${info.run.agentVersion ? `, ${info.run.agentVersion}` : ""}` : "not generated here"}</dd>
          <dt className="font-medium">Model endpoint</dt>
          <dd>{info.evaluation?.generation ? `${info.evaluation.generation.label} (${info.evaluation.generation.model})` : "—"}</dd>
          <dt className="font-medium">Judge</dt>
          <dd>{judgeText(info)}</dd>
          <dt className="font-medium">Dify</dt>
          <dd>{info.evaluation?.dify ? info.evaluation.dify.label : "not executed"}</dd>
          <dt className="font-medium">Benchmark</dt>
          <dd>
            {info.benchmark.name} · fingerprint <span className="font-mono text-xs">{info.benchmark.fingerprint.slice(0, 12)}…</span>
          </dd>
          <dt className="font-medium">Made with</dt>
          <dd>
            {info.app.name} {info.app.version}, scoring core <span className="font-mono text-xs">{info.run.coreVersion}</span>; exported {formatDateTime(info.exportedAt)}
          </dd>
          <dt className="font-medium">Bundle</dt>
          <dd>
            {provenance.fileName ?? "—"} · sha256 <span className="font-mono text-xs">{provenance.bundleSha256.slice(0, 16)}…</span> · imported {formatDateTime(provenance.importedAt)}
          </dd>
        </dl>
      ) : null}
      {findings.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium">Disagreements</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm" data-testid="bundle-findings">
            {findings.slice(0, SHOWN_FINDINGS).map((finding, index) => (
              <li key={index}>{describeFinding(finding)}</li>
            ))}
          </ul>
          {findings.length > SHOWN_FINDINGS ? <p className="mt-1 text-xs text-slate-500">… and {findings.length - SHOWN_FINDINGS} more.</p> : null}
        </div>
      ) : null}
    </section>
  );
}
