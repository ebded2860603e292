"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { deleteRunAction, rescoreRunAction } from "@/app/actions/run-actions";
import { buttonStyles } from "@/components/ui/styles";

export function RunActions({ runId, label, mayRescore, mayDelete }: { runId: string; label: string; mayRescore: boolean; mayDelete: boolean }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // Set when the server says the run carries review votes: the second click confirms deleting exactly that many.
  const [votesToConfirm, setVotesToConfirm] = useState<{ votes: number; message: string } | null>(null);

  function rescore() {
    setMessage(null);
    startTransition(async () => {
      const result = await rescoreRunAction({ runId });
      setMessage(result.ok ? `Re-scored ${result.value.responses} responses; ${result.value.changed} verdicts changed.` : result.message);
      router.refresh();
    });
  }

  function remove() {
    startTransition(async () => {
      const result = await deleteRunAction({ runId, ...(votesToConfirm ? { confirmVotes: votesToConfirm.votes } : {}) });
      const votes = !result.ok ? Number(result.fieldErrors?.confirmVotes ?? NaN) : NaN;
      if (!result.ok && Number.isInteger(votes)) {
        setVotesToConfirm({ votes, message: result.message });
        return;
      }
      dialog.current?.close();
      setVotesToConfirm(null);
      if (!result.ok) setMessage(result.message);
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex gap-2">
        {mayRescore ? (
          <button type="button" className={buttonStyles.secondary} onClick={rescore} disabled={pending} aria-label={`Re-score ${label}`}>
            Re-score
          </button>
        ) : null}
        {mayDelete ? (
          <button type="button" className={buttonStyles.ghostDanger} onClick={() => dialog.current?.showModal()} disabled={pending} aria-label={`Delete ${label}`}>
            Delete
          </button>
        ) : null}
      </div>
      {message ? (
        <p role="status" className="max-w-56 whitespace-normal text-right text-xs text-slate-600 dark:text-slate-400">
          {message}
        </p>
      ) : null}
      <dialog
        ref={dialog}
        aria-labelledby={`delete-${runId}-title`}
        className="m-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id={`delete-${runId}-title`} className="text-lg font-semibold">
          Delete this run?
        </h2>
        <p className="mt-2 whitespace-normal text-sm text-slate-600 dark:text-slate-400">
          <strong>{label}</strong> and all of its responses, verdicts, diagnostics and test results will be removed, together with any review-queue items and votes on them. This cannot be undone.
        </p>
        {votesToConfirm ? (
          <p role="alert" className="mt-3 whitespace-normal text-sm font-medium text-red-700 dark:text-red-400">
            {votesToConfirm.message}
          </p>
        ) : null}
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className={buttonStyles.secondary} onClick={() => { setVotesToConfirm(null); dialog.current?.close(); }} autoFocus>
            Cancel
          </button>
          <button type="button" className={buttonStyles.danger} onClick={remove} disabled={pending}>
            {pending ? "Deleting…" : votesToConfirm ? `Delete the run and its ${votesToConfirm.votes} votes` : "Delete run"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
