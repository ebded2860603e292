// The main navigation, in display order: a few top-level links and grouped menus. `permission` hides items the
// visitor's role cannot open; a group whose items are all hidden disappears.
import { can, type Permission, type Role } from "@/lib/auth/roles";

export interface NavItem {
  href: string;
  label: string;
  permission: Permission;
  /** One line under the label in the menus. */
  hint?: string;
}

export interface NavGroup {
  label: string;
  items: readonly NavItem[];
}

export type NavEntry = NavItem | NavGroup;

export const isNavGroup = (entry: NavEntry): entry is NavGroup => "items" in entry;

export const NAV_ENTRIES: readonly NavEntry[] = [
  { href: "/", label: "Leaderboard", permission: "read" },
  {
    label: "Explore",
    items: [
      { href: "/charts", label: "Charts", permission: "read", hint: "Rates per model, domain and turn" },
      { href: "/tasks", label: "Tasks", permission: "read", hint: "Every task and its turns" },
      { href: "/runs", label: "Runs", permission: "read", hint: "Imported and generated runs" },
      { href: "/diff", label: "Diff", permission: "read", hint: "Two answers side by side" },
      { href: "/compare", label: "Compare models", permission: "read", hint: "Paired tests on shared turns" },
      { href: "/diagnostics", label: "Diagnostics", permission: "read", hint: "Every diagnostic code explained" },
    ],
  },
  {
    label: "Judging",
    items: [
      { href: "/review", label: "Review", permission: "annotate", hint: "Your review queues" },
      { href: "/judges", label: "Judges", permission: "read", hint: "Judge agreement and drift" },
      { href: "/promote", label: "Promote", permission: "read", hint: "Grades and promotion rules" },
    ],
  },
  {
    label: "Evaluate",
    items: [
      { href: "/evaluations", label: "Evaluations", permission: "runJobs", hint: "Generate and judge a model's run" },
      { href: "/import", label: "Import", permission: "import", hint: "Benchmarks and recorded runs" },
      { href: "/jobs", label: "Jobs", permission: "runJobs", hint: "Background work and its progress" },
    ],
  },
  { href: "/settings", label: "Settings", permission: "manageTokens" },
];

/** What a visitor sees: anonymous visitors get the read items only; write items only for roles that may use them. */
export function navigationFor(role: Role | null): NavEntry[] {
  const allowed = (item: NavItem) => (role ? can(role, item.permission) : item.permission === "read");
  const entries: NavEntry[] = [];
  for (const entry of NAV_ENTRIES) {
    if (!isNavGroup(entry)) {
      if (allowed(entry)) entries.push(entry);
      continue;
    }
    const items = entry.items.filter(allowed);
    if (items.length > 0) entries.push({ label: entry.label, items });
  }
  return entries;
}

/** Every link of a navigation, flattened (for the phone menu and tests). */
export const navLinks = (entries: readonly NavEntry[]): NavItem[] => entries.flatMap((entry) => (isNavGroup(entry) ? entry.items : [entry]));
