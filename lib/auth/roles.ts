// Roles and what each may do; the single source for authorization decisions on server and client.
// Pure data and predicates: the server enforces them, the client only uses them to hide controls.

export const ROLES = ["admin", "researcher", "annotator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export const PERMISSIONS = {
  /** Read leaderboards, runs, responses. Anonymous visitors get it only when PUBLIC_READ is on. */
  read: ["admin", "researcher", "annotator", "viewer"],
  /** Import benchmarks and runs, re-score runs. */
  import: ["admin", "researcher"],
  /** Delete runs, manage users. */
  administer: ["admin"],
  /** Create and assign annotation queues. */
  manageQueues: ["admin", "researcher"],
  /** Vote on judge verdicts. */
  annotate: ["admin", "researcher", "annotator"],
  /** Add, edit, test and delete model endpoints (their API keys). */
  manageEndpoints: ["admin"],
  /** Start judging jobs, watch jobs, cancel, pause and resume them. */
  runJobs: ["admin", "researcher"],
  /** Create, list and revoke one's own API access tokens (admins see and revoke everyone's). */
  manageTokens: ["admin", "researcher", "annotator", "viewer"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin",
  researcher: "Researcher",
  annotator: "Annotator",
  viewer: "Viewer",
};
