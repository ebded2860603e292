import "server-only";
// Personal access tokens for the HTTP API: 32 random bytes, stored as their SHA-256 only and shown once. A token acts
// with its user's current role (read from the user row on every request) and stops at revocation, expiry or deletion.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { isRole } from "@/lib/auth/roles";
import { assertAllowed, isAllowed } from "./authz";
import type { Database } from "./db";
import { sha256 } from "./hash";
import type { SessionUser } from "./session";

/** Every token starts with this, so a leaked one is recognisable (and secret scanners can match it). */
export const TOKEN_PREFIX = "c2w_";
export const MAX_TOKEN_DAYS = 3650;
const TOKEN_PATTERN = /^c2w_[A-Za-z0-9_-]{43}$/;
/** A token's last use is written at most this often, so an API client does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiTokenState = "active" | "expired" | "revoked";

/** What lists show of a token: never the token, only its first characters. */
export interface ApiTokenView {
  id: string;
  name: string;
  hint: string;
  userId: string;
  userEmail: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  state: ApiTokenState;
}

export const newTokenSchema = z.object({
  name: z.string().trim().min(1, "name the token").max(100, "at most 100 characters"),
  expiresDays: z.number().int().min(1, "at least 1 day").max(MAX_TOKEN_DAYS, `at most ${MAX_TOKEN_DAYS} days`).optional(),
});
export type NewToken = z.input<typeof newTokenSchema>;

const VIEW_SELECT = {
  id: true,
  name: true,
  hint: true,
  userId: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { email: true } },
} as const;

type TokenRow = { id: string; name: string; hint: string; userId: string; createdAt: Date; expiresAt: Date | null; lastUsedAt: Date | null; revokedAt: Date | null; user: { email: string } };

function stateOf(row: Pick<TokenRow, "expiresAt" | "revokedAt">, now: Date): ApiTokenState {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

function toView(row: TokenRow, now = new Date()): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    userId: row.userId,
    userEmail: row.user.email,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: stateOf(row, now),
  };
}

export type IssuedToken = { ok: true; token: string; view: ApiTokenView } | { ok: false; issues: string[] };

/** Makes a token for a user (trusted callers: the CLI, and the page's action after its permission check). */
export async function issueApiToken(db: Database, userId: string, request: NewToken): Promise<IssuedToken> {
  const parsed = newTokenSchema.safeParse(request);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((issue) => `${issue.path.join(".") || "token"}: ${issue.message}`) };
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expiresAt = parsed.data.expiresDays === undefined ? null : new Date(Date.now() + parsed.data.expiresDays * 86_400_000);
  const row = await db.apiToken.create({
    data: { userId, name: parsed.data.name, tokenHash: sha256(token), hint: `${token.slice(0, TOKEN_PREFIX.length + 6)}…`, expiresAt },
    select: VIEW_SELECT,
  });
  return { ok: true, token, view: toView(row) };
}

/** A token for the acting user, from the tokens page. */
export async function createOwnApiToken(db: Database, actor: SessionUser, request: NewToken): Promise<IssuedToken> {
  assertAllowed(actor, "manageTokens");
  return issueApiToken(db, actor.id, request);
}

/** The actor's own tokens; an admin sees everyone's. Newest first. */
export async function listApiTokens(db: Database, actor: SessionUser): Promise<ApiTokenView[]> {
  assertAllowed(actor, "manageTokens");
  const where = isAllowed(actor, "administer") ? {} : { userId: actor.id };
  const rows = await db.apiToken.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: VIEW_SELECT });
  const now = new Date();
  return rows.map((row) => toView(row, now));
}

/** Revokes one of the actor's tokens (an admin: anyone's). False when there is no such active token to revoke. */
export async function revokeApiToken(db: Database, actor: SessionUser, id: string): Promise<boolean> {
  assertAllowed(actor, "manageTokens");
  const owner = isAllowed(actor, "administer") ? {} : { userId: actor.id };
  const revoked = await db.apiToken.updateMany({ where: { id, revokedAt: null, ...owner }, data: { revokedAt: new Date() } });
  return revoked.count > 0;
}

/** Every token of every user, or of one user (the CLI, run by the operator). */
export async function listAllApiTokens(db: Database, userId?: string): Promise<ApiTokenView[]> {
  const rows = await db.apiToken.findMany({ where: userId ? { userId } : {}, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: VIEW_SELECT });
  const now = new Date();
  return rows.map((row) => toView(row, now));
}

/** Revokes any token by id (the CLI). */
export async function revokeApiTokenById(db: Database, id: string): Promise<boolean> {
  const revoked = await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return revoked.count > 0;
}

/** The key rate limits count a presented token under: its hash, so unknown tokens are limited too and none is kept. */
export const tokenKey = (token: string): string => sha256(token);

/** The user an active token acts for, with their current role; null for anything else (no distinction is given). */
export async function userOfToken(db: Database, token: string): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: sha256(token) },
    select: { id: true, expiresAt: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } } },
  });
  const now = new Date();
  if (!row || stateOf(row, now) !== "active" || !isRole(row.user.role) || row.user.disabledAt) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.user.id, email: row.user.email, name: row.user.name, role: row.user.role };
}
