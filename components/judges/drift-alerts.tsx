// The judges page's drift notice for one stage: an alert listing each judge and prompt version whose latest week of
// agreement with the blind human labels fell below its earlier weeks' 95% interval, or a line saying none did.
import type { DriftCheck } from "@/lib/judge/calibration";

export function DriftAlerts({ stage, checks }: { stage: string; checks: readonly DriftCheck[] }) {
  const alerts = checks.filter((check) => check.alert);
  if (alerts.length > 0) {
    return (
      <div role="alert" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100" data-testid={`drift-alert-${stage}`}>
        <p className="font-semibold">Judge drift: agreement with human labels fell in the latest week</p>
        <ul className="mt-1 list-disc pl-5">
          {alerts.map((check) => (
            <li key={`${check.judge}:${check.promptVersion ?? ""}`}>{check.explanation}.</li>
          ))}
        </ul>
      </div>
    );
  }
  if (checks.length === 0) return null;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400" data-testid={`drift-ok-${stage}`}>
      No drift: every judge&apos;s latest week lies within or above the 95% interval of its earlier weeks.
    </p>
  );
}
