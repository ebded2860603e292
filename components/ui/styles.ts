// Shared class names for buttons, inputs and tables so every page looks and behaves the same.

export const buttonStyles = {
  primary:
    "inline-flex items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60",
  secondary:
    "inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800",
  danger:
    "inline-flex items-center justify-center gap-2 rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-60",
  ghostDanger:
    "inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-60 dark:text-red-400 dark:hover:bg-red-950",
} as const;

export const inputStyles =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 dark:border-slate-600 dark:bg-slate-900";

export const labelStyles = "block text-sm font-medium";

export const tableStyles = {
  wrapper: "overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900",
  table: "min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800",
  th: "whitespace-nowrap px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400",
  td: "whitespace-nowrap px-3 py-2 align-top",
  tdNumber: "whitespace-nowrap px-3 py-2 text-right align-top tabular-nums",
  /** A cell whose text wraps (descriptions, messages). */
  tdWrap: "px-3 py-2 align-top",
  /** The first column of a wide table: stays in view while the table scrolls sideways inside its wrapper. */
  sticky: "sticky left-0 z-10 bg-white shadow-[1px_0_0_0_rgb(226,232,240)] dark:bg-slate-900 dark:shadow-[1px_0_0_0_rgb(30,41,59)]",
} as const;

export const cardStyles = "rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900";
