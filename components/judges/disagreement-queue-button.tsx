"use client";

// Turns a judge comparison's disagreements into a review queue and opens it.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createDisagreementQueueAction } from "@/app/actions/judges";
import { buttonStyles } from "@/components/ui/styles";

export function DisagreementQueueButton({ benchmarkId, stage, judge, against, count }: { benchmarkId: string; stage: "pass" | "resolve"; judge: string; against: string; count: number }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  function create() {
    startTransition(async () => {
      const result = await createDisagreementQueueAction({ benchmarkId, stage, judge, against });
      if (result.ok) router.push(`/review/${result.value.queueId}/manage?created=${result.value.items}`);
      else setMessage(result.message);
    });
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className={buttonStyles.primary} disabled={pending || count === 0} onClick={create} data-testid="disagreement-queue">
        {pending ? "Creating…" : `Review these ${count} disagreement${count === 1 ? "" : "s"} in a queue`}
      </button>
      {message ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </p>
      ) : null}
    </div>
  );
}
