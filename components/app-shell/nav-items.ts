// The main navigation, in display order. `permission` hides items the visitor's role cannot open.
import type { Permission } from "@/lib/auth/roles";

export interface NavItem {
  href: string;
  label: string;
  permission: Permission;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Leaderboard", permission: "read" },
  { href: "/charts", label: "Charts", permission: "read" },
  { href: "/tasks", label: "Tasks", permission: "read" },
  { href: "/runs", label: "Runs", permission: "read" },
  { href: "/diff", label: "Diff", permission: "read" },
  { href: "/judges", label: "Judges", permission: "read" },
  { href: "/promote", label: "Promote", permission: "read" },
  { href: "/review", label: "Review", permission: "annotate" },
  { href: "/import", label: "Import", permission: "import" },
  { href: "/evaluations", label: "Evaluations", permission: "runJobs" },
  { href: "/jobs", label: "Jobs", permission: "runJobs" },
];
