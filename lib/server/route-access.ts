import "server-only";
// The access check of route handlers that act for a signed-in user: the user, or the JSON error to answer with.
// Anonymous callers get 401, signed-in users whose role lacks the permission 403; the body never says more.
import { NextResponse } from "next/server";
import type { Permission } from "@/lib/auth/roles";
import { checkAccess, type SessionUser } from "./session";

/** Returns the signed-in user allowed `permission`, or the response to return instead (`instanceof NextResponse`). */
export async function requireRouteAccess(permission: Permission): Promise<SessionUser | NextResponse> {
  const decision = await checkAccess(permission);
  if (decision.allowed && decision.user) return decision.user;
  return NextResponse.json({ error: "forbidden" }, { status: decision.allowed || decision.reason === "unauthenticated" ? 401 : 403 });
}
