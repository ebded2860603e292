"use client";

// The main navigation. From 1024 px: top-level links and grouped disclosure menus (a button that shows a list of
// links; Escape or a click elsewhere closes it). Below: one "Menu" button that opens every section at once.
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { benchmarkHref } from "@/lib/leaderboard/benchmarks";
import { isNavGroup, type NavEntry, type NavGroup, type NavItem } from "./nav-items";

/** Pages that show one benchmark: the menu keeps the benchmark being looked at. */
const BENCHMARK_PAGES = new Set(["/", "/charts", "/tasks", "/compare"]);

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

const linkStyles = {
  active: "rounded-md bg-brand-50 px-3 py-1.5 font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100",
  idle: "rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white",
};

export function NavLinks({ entries }: { entries: NavEntry[] }) {
  return (
    <Suspense fallback={<Navigation entries={entries} benchmark={null} />}>
      <NavigationKeepingBenchmark entries={entries} />
    </Suspense>
  );
}

function NavigationKeepingBenchmark({ entries }: { entries: NavEntry[] }) {
  return <Navigation entries={entries} benchmark={useSearchParams().get("benchmark")} />;
}

/**
 * A disclosure (button + popup) open on the page it was opened on, so following a link closes it; Escape closes it
 * with focus back on its button, and so does a press or a focus move outside it.
 */
function useDisclosure(pathname: string) {
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const id = useId();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = () => setOpenOn(null);
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      close();
      button.current?.focus();
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && !container.current?.contains(event.relatedTarget)) close();
    };
    const element = container.current;
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    element?.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      element?.removeEventListener("focusout", onFocusOut);
    };
  }, [open]);
  return { open, id, container, button, toggle: () => setOpenOn(open ? null : pathname) };
}

function Navigation({ entries, benchmark }: { entries: NavEntry[]; benchmark: string | null }) {
  const pathname = usePathname();
  const hrefOf = (item: NavItem) => (BENCHMARK_PAGES.has(item.href) ? benchmarkHref(item.href, benchmark) : item.href);
  const link = (item: NavItem, className: string, hint?: { id: string; text: string }) => {
    const active = isActive(pathname, item.href);
    return (
      <Link href={hrefOf(item)} aria-current={active ? "page" : undefined} aria-describedby={hint?.id} className={`${active ? linkStyles.active : linkStyles.idle} ${className}`}>
        {item.label}
        {hint ? (
          <span id={hint.id} aria-hidden className="block text-xs font-normal text-slate-600 dark:text-slate-400">
            {hint.text}
          </span>
        ) : null}
      </Link>
    );
  };
  return (
    <>
      <nav aria-label="Main" className="hidden min-w-0 items-center gap-1 text-sm lg:flex" data-testid="main-nav">
        {entries.map((entry) =>
          isNavGroup(entry) ? (
            <GroupMenu key={entry.label} group={entry} pathname={pathname} renderLink={link} />
          ) : (
            <span key={entry.href} className="shrink-0">
              {link(entry, "block whitespace-nowrap")}
            </span>
          ),
        )}
      </nav>
      <PhoneMenu entries={entries} pathname={pathname} renderLink={link} />
    </>
  );
}

type RenderLink = (item: NavItem, className: string, hint?: { id: string; text: string }) => ReactNode;

function GroupMenu({ group, pathname, renderLink }: { group: NavGroup; pathname: string; renderLink: RenderLink }) {
  const { open, id, container, button, toggle } = useDisclosure(pathname);
  const holdsCurrent = group.items.some((item) => isActive(pathname, item.href));
  return (
    <div ref={container} className="relative shrink-0">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={toggle}
        className={`flex items-center gap-1 whitespace-nowrap ${holdsCurrent ? linkStyles.active : linkStyles.idle}`}
      >
        {group.label}
        {holdsCurrent ? <span className="sr-only"> (current section)</span> : null}
        <span aria-hidden className="text-xs">▾</span>
      </button>
      <ul id={id} hidden={!open} className="absolute left-0 z-50 mt-2 w-72 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        {group.items.map((item) => (
          <li key={item.href}>
            {renderLink(item, "block", item.hint ? { id: `${id}-${item.href.slice(1)}`, text: item.hint } : undefined)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PhoneMenu({ entries, pathname, renderLink }: { entries: NavEntry[]; pathname: string; renderLink: RenderLink }) {
  const { open, id, container, button, toggle } = useDisclosure(pathname);
  return (
    <div ref={container} className="lg:hidden">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={toggle}
        className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        <span aria-hidden>☰</span> Menu
      </button>
      <nav
        id={id}
        aria-label="Main"
        hidden={!open}
        className="absolute inset-x-0 top-14 z-50 max-h-[calc(100vh-3.5rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 py-3 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <div className="grid gap-4 text-sm sm:grid-cols-2">
          {entries.map((entry) =>
            isNavGroup(entry) ? (
              <section key={entry.label} aria-label={entry.label}>
                <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{entry.label}</h2>
                <ul>
                  {entry.items.map((item) => (
                    <li key={item.href}>{renderLink(item, "block")}</li>
                  ))}
                </ul>
              </section>
            ) : (
              <div key={entry.href}>{renderLink(entry, "block font-medium")}</div>
            ),
          )}
        </div>
      </nav>
    </div>
  );
}
