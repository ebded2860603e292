import Link from "next/link";
import { clientEnv } from "@/lib/client-env";
import { currentUser } from "@/lib/server/session";
import { CommandPalette } from "./command-palette";
import { NavLinks } from "./nav-links";
import { navigationFor } from "./nav-items";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

export async function AppHeader() {
  const user = await currentUser();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      <div className="mx-auto flex h-14 w-full max-w-7xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
        <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden className="grid h-7 w-9 place-items-center rounded-md bg-brand-600 text-[11px] font-bold text-white">
            C2W
          </span>
          <span className="hidden sm:inline">{clientEnv.NEXT_PUBLIC_APP_NAME}</span>
        </Link>
        <NavLinks entries={navigationFor(user?.role ?? null)} />
        <div className="ml-auto flex shrink-0 items-center gap-2">
          <CommandPalette />
          <ThemeToggle />
          {user ? (
            <UserMenu email={user.email} name={user.name} role={user.role} />
          ) : (
            <Link
              href="/signin"
              className="whitespace-nowrap rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
            >
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
