"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { useEffect, useId, useRef, useState } from "react";
import { ROLE_LABELS, type Role } from "@/lib/auth/roles";

export function UserMenu({ email, name, role }: { email: string; name: string | null; role: Role }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <span className="sr-only max-w-40 truncate sm:not-sr-only">{name ?? email}</span>
        <span data-testid="user-role" className="rounded bg-brand-100 px-1.5 py-0.5 text-xs font-medium text-brand-700 dark:bg-slate-700 dark:text-brand-100">
          {ROLE_LABELS[role]}
        </span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute right-0 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <p className="truncate font-medium">{name ?? email}</p>
          <p className="truncate text-slate-500 dark:text-slate-400">{email}</p>
          <p className="mt-1 text-slate-500 dark:text-slate-400">
            Role: <span className="font-medium text-slate-900 dark:text-slate-100">{ROLE_LABELS[role]}</span>
          </p>
          <nav aria-label="Account" className="mt-3 flex flex-col gap-1">
            <Link href="/settings" className="rounded px-1 py-0.5 text-brand-700 underline-offset-2 hover:underline dark:text-brand-300" onClick={() => setOpen(false)}>
              Settings
            </Link>
            <Link href="/settings/tokens" className="rounded px-1 py-0.5 text-brand-700 underline-offset-2 hover:underline dark:text-brand-300" onClick={() => setOpen(false)}>
              Access tokens
            </Link>
            <Link href="/api" className="rounded px-1 py-0.5 text-brand-700 underline-offset-2 hover:underline dark:text-brand-300" onClick={() => setOpen(false)}>
              API reference
            </Link>
          </nav>
          <button
            type="button"
            onClick={() => signOut({ callbackUrl: "/" })}
            className="mt-3 w-full rounded-md border border-slate-300 px-3 py-1.5 text-left hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            Sign out
          </button>
        </div>
      ) : null}
    </div>
  );
}
