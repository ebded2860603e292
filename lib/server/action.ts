import "server-only";
// Wraps a server action: checks the session and role first, then validates the input with zod, then runs.
// Every action returns a plain result object; nothing is thrown across the network boundary.
import { z } from "zod";
import type { Permission } from "@/lib/auth/roles";
import { reportUnexpected } from "./errors";
import { checkAccess, type SessionUser } from "./session";

export type ActionResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: "unauthenticated" | "forbidden" | "invalid" | "failed"; message: string; fieldErrors?: Record<string, string> };

export function authorizedAction<Schema extends z.ZodType, T>(
  permission: Exclude<Permission, "read">,
  schema: Schema,
  handler: (input: z.output<Schema>, user: SessionUser) => Promise<ActionResult<T>>,
): (input: z.input<Schema>) => Promise<ActionResult<T>> {
  return async (input) => {
    const decision = await checkAccess(permission);
    if (!decision.allowed || !decision.user) {
      const reason = decision.allowed ? "unauthenticated" : decision.reason;
      return {
        ok: false,
        error: reason,
        message: reason === "unauthenticated" ? "Sign in to do this." : "Your role does not allow this action.",
      };
    }
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[issue.path.join(".") || "input"] ??= issue.message;
      return { ok: false, error: "invalid", message: "Some fields are invalid.", fieldErrors };
    }
    try {
      return await handler(parsed.data, decision.user);
    } catch (error) {
      // Unexpected failures: details to the server log under an id, a sentence with the id to the user.
      const { message } = reportUnexpected(error, `server action (${permission})`);
      return { ok: false, error: "failed", message };
    }
  };
}
