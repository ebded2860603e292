"use client";

// The "?" overlay: every keyboard shortcut of the current mode, straight from lib/review/shortcuts.ts.
import { useEffect, useRef } from "react";
import { buttonStyles } from "@/components/ui/styles";
import type { ReviewMode } from "@/lib/review/queue";
import { shortcutsFor } from "@/lib/review/shortcuts";

export function ShortcutHelp({ open, mode, onClose }: { open: boolean; mode: ReviewMode; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="shortcut-help-title"
      className="m-auto w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id="shortcut-help-title" className="text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{mode === "blind" ? "Blind review: give your own verdict before the judge's is shown." : "The judge's verdict is shown: say whether it is correct."}</p>
      <table className="mt-4 w-full text-sm">
        <caption className="sr-only">Keyboard shortcuts</caption>
        <tbody>
          {shortcutsFor(mode).map((shortcut) => (
            <tr key={shortcut.action} className="border-t border-slate-100 dark:border-slate-800">
              <th scope="row" className="whitespace-nowrap py-1.5 pr-4 text-left font-mono text-xs font-semibold">
                {shortcut.label}
              </th>
              <td className="py-1.5">{shortcut.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-6 flex justify-end">
        <button type="button" className={buttonStyles.secondary} onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}
