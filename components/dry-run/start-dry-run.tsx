"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { startDryRunAction } from "@/app/actions/dry-run";
import { buttonStyles } from "@/components/ui/styles";

/** Starts the dry-run job of a run, then refreshes the page until this response's cases are stored. */
export function StartDryRun({ runId }: { runId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string; jobId?: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function start() {
    setMessage(null);
    startTransition(async () => {
      const result = await startDryRunAction({ runId });
      if (!result.ok) {
        setMessage({ ok: false, text: result.message });
        return;
      }
      setMessage({ ok: true, text: `Started: ${result.value.items} response(s) of this run to dry-run.`, jobId: result.value.jobId });
      const timer = setInterval(() => router.refresh(), 2_000);
      setTimeout(() => clearInterval(timer), 300_000);
    });
  }

  return (
    <div className="space-y-2">
      <button type="button" className={buttonStyles.primary} onClick={start} disabled={pending}>
        {pending ? "Starting…" : "Dry-run this run"}
      </button>
      {message ? (
        <p role="status" className={`text-sm ${message.ok ? "" : "text-red-700 dark:text-red-300"}`}>
          {message.text} {message.jobId ? <a className="underline" href={`/jobs/${encodeURIComponent(message.jobId)}`}>See the job</a> : null}
        </p>
      ) : null}
    </div>
  );
}
