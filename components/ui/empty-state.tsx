import Link from "next/link";
import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: { href: string; label: string };
}) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 className="text-lg font-medium">{title}</h2>
      {children ? <div className="mx-auto mt-2 max-w-xl text-sm text-slate-600 dark:text-slate-400">{children}</div> : null}
      {action ? (
        <Link
          href={action.href}
          className="mt-5 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
        >
          {action.label}
        </Link>
      ) : null}
    </section>
  );
}
