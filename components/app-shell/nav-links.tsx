"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { benchmarkHref } from "@/lib/leaderboard/benchmarks";

/** Pages that show one benchmark: the menu keeps the benchmark being looked at. */
const BENCHMARK_PAGES = new Set(["/", "/charts", "/tasks", "/compare"]);

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function NavLinks({ items }: { items: { href: string; label: string }[] }) {
  return (
    <Suspense fallback={<Links items={items} benchmark={null} />}>
      <LinksKeepingBenchmark items={items} />
    </Suspense>
  );
}

function LinksKeepingBenchmark({ items }: { items: { href: string; label: string }[] }) {
  return <Links items={items} benchmark={useSearchParams().get("benchmark")} />;
}

function Links({ items, benchmark }: { items: { href: string; label: string }[]; benchmark: string | null }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex min-w-0 items-center gap-1 overflow-x-auto text-sm">
      {items.map((item) => {
        const active = isActive(pathname, item.href);
        return (
          <Link
            key={item.href}
            href={BENCHMARK_PAGES.has(item.href) ? benchmarkHref(item.href, benchmark) : item.href}
            aria-current={active ? "page" : undefined}
            className={
              active
                ? "shrink-0 rounded-md bg-brand-50 px-3 py-1.5 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100"
                : "shrink-0 rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
            }
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
