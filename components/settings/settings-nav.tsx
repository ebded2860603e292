"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The settings area's own menu: every section the role may open, one click from any other. */
export function SettingsNav({ sections }: { sections: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="md:w-56 md:shrink-0">
      <ul className="flex flex-wrap gap-1 text-sm md:flex-col">
        <li>
          <Link
            href="/settings"
            aria-current={pathname === "/settings" ? "page" : undefined}
            className={pathname === "/settings" ? "block rounded-md bg-brand-50 px-3 py-1.5 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100" : "block rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}
          >
            Overview
          </Link>
        </li>
        {sections.map((section) => {
          const active = pathname === section.href || pathname.startsWith(`${section.href}/`);
          return (
            <li key={section.href}>
              <Link
                href={section.href}
                aria-current={active ? "page" : undefined}
                className={active ? "block rounded-md bg-brand-50 px-3 py-1.5 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100" : "block rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
