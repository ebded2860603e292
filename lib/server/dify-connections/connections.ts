import "server-only";
// Dify connections: a Dify origin (1.9 or later) and the console account that imports, publishes and deletes apps
// there, stored with the password encrypted (AES-256-GCM, lib/server/secrets) and read back as views that never hold
// it. Every function checks the actor's permission first; only workers load the decrypted password. Testing a
// connection signs in (saying which Dify version answered and how the password was sent) and checks its workspace
// against what the benchmark's node types need.
import { z } from "zod";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { benchmarkRequirements, describeRequirement, readiness } from "@/lib/resolve/dify-requirements";
import { DIFY_RUN_TIMEOUT_MS, signIn, type DifyDeps, type PasswordStyle } from "../dify/client";
import { decryptSecret, encryptSecret } from "../secrets";
import type { SessionUser } from "../session";

/** What pages may show of a connection: never the password, only whether one is set. */
export interface DifyConnectionView {
  id: string;
  label: string;
  baseUrl: string;
  email: string;
  hasPassword: boolean;
  keepApps: boolean;
  runTimeoutMs: number;
  updatedAt: string;
}

export const MAX_RUN_TIMEOUT_MS = 6 * 60 * 60 * 1000;

export const difyConnectionFieldsSchema = z.object({
  label: z
    .string()
    .trim()
    .min(1, "name the connection")
    .max(80)
    .regex(/^[\w.:\- ]+$/, "use letters, digits, spaces, dots, dashes, colons and underscores"),
  baseUrl: z
    .string()
    .trim()
    .url("the Dify origin, such as http://localhost or https://dify.example.org")
    .refine((value) => /^https?:\/\//i.test(value), "http or https only")
    .refine((value) => !/\/(console\/api|v1)\/?$/i.test(value), "give the origin only: /console/api and /v1 are added")
    .transform((value) => value.replace(/\/+$/, "")),
  email: z.string().trim().email("the Dify account's email").max(200),
  keepApps: z.boolean(),
  runTimeoutMs: z.number().int().min(10_000, "at least 10 seconds").max(MAX_RUN_TIMEOUT_MS, "at most 6 hours"),
});

export type DifyConnectionFields = z.output<typeof difyConnectionFieldsSchema>;

const VIEW_SELECT = { id: true, label: true, baseUrl: true, email: true, passwordCipher: true, keepApps: true, runTimeoutMs: true, updatedAt: true } as const;

function toView(row: { passwordCipher: string; updatedAt: Date } & Omit<DifyConnectionView, "hasPassword" | "updatedAt">): DifyConnectionView {
  const { passwordCipher, updatedAt, ...rest } = row;
  return { ...rest, hasPassword: passwordCipher !== "", updatedAt: updatedAt.toISOString() };
}

/** Every connection, for choosing one to execute runs with (researchers) or managing them (admins). */
export async function listDifyConnections(db: Database, actor: SessionUser | null): Promise<DifyConnectionView[]> {
  assertAllowed(actor, "runJobs");
  const rows = await db.difyConnection.findMany({ orderBy: { label: "asc" }, select: VIEW_SELECT });
  return rows.map(toView);
}

export async function getDifyConnection(db: Database, actor: SessionUser | null, id: string): Promise<DifyConnectionView | null> {
  assertAllowed(actor, "runJobs");
  const row = await db.difyConnection.findUnique({ where: { id }, select: VIEW_SELECT });
  return row ? toView(row) : null;
}

export async function createDifyConnection(db: Database, actor: SessionUser, fields: DifyConnectionFields, password: string): Promise<DifyConnectionView> {
  assertAllowed(actor, "manageEndpoints");
  const row = await db.difyConnection.create({ data: { ...fields, passwordCipher: encryptSecret(password), createdBy: actor.id }, select: VIEW_SELECT });
  return toView(row);
}

/** Updates the fields; a null password keeps the stored one (the field is write-only). */
export async function updateDifyConnection(db: Database, actor: SessionUser, id: string, fields: DifyConnectionFields, password: string | null): Promise<DifyConnectionView | null> {
  assertAllowed(actor, "manageEndpoints");
  const updated = await db.difyConnection.updateMany({ where: { id }, data: { ...fields, ...(password ? { passwordCipher: encryptSecret(password) } : {}) } });
  if (updated.count === 0) return null;
  return getDifyConnection(db, actor, id);
}

/** Deletes the connection; evaluations that named it keep running without Dify execution (the relation nulls). */
export async function deleteDifyConnection(db: Database, actor: SessionUser, id: string): Promise<boolean> {
  assertAllowed(actor, "manageEndpoints");
  const deleted = await db.difyConnection.deleteMany({ where: { id } });
  return deleted.count > 0;
}

/** A connection as a worker sees it: with the decrypted password. Not for views. */
export interface DifyConnectionConfig {
  id: string;
  label: string;
  baseUrl: string;
  email: string;
  password: string;
  keepApps: boolean;
  runTimeoutMs: number;
  updatedAt: Date;
}

export async function loadDifyConnectionConfig(db: Database, id: string): Promise<DifyConnectionConfig | null> {
  const row = await db.difyConnection.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    label: row.label,
    baseUrl: row.baseUrl,
    email: row.email,
    password: decryptSecret(row.passwordCipher),
    keepApps: row.keepApps,
    runTimeoutMs: row.runTimeoutMs > 0 ? row.runTimeoutMs : DIFY_RUN_TIMEOUT_MS,
    updatedAt: row.updatedAt,
  };
}

export const consoleBaseOf = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "")}/console/api`;
export const serviceBaseOf = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "")}/v1`;

export interface ReadinessLine {
  /** e.g. "plugin langgenius/tongyi", "llm model qwen3-max (langgenius/tongyi/tongyi)". */
  requirement: string;
  /** The node types (or tools) that need it. */
  usedBy: string[];
  state: "ready" | "missing" | "not-configured";
  detail: string;
}

export interface DifyConnectionTest {
  ok: boolean;
  message: string;
  latencyMs: number;
  /** The Dify version that answered (null when it could not say) and how the password was sent. */
  version: string | null;
  passwordStyle: PasswordStyle | null;
  /** What the benchmark's node types need, each against the workspace; null when it could not be listed. */
  readiness: ReadinessLine[] | null;
  /** Why the workspace could not be listed. */
  readinessError: string | null;
}

/**
 * Signs in with the stored account and checks the workspace against what the benchmark's node types need (the
 * password never appears in the message).
 */
export async function testDifyConnection(db: Database, actor: SessionUser, id: string, deps: DifyDeps = {}): Promise<DifyConnectionTest | null> {
  assertAllowed(actor, "manageEndpoints");
  const config = await loadDifyConnectionConfig(db, id);
  if (!config) return null;
  const redact = (text: string) => text.split(config.password).join("[redacted]");
  const started = performance.now();
  const session = await signIn(consoleBaseOf(config.baseUrl), config.email, config.password, deps);
  const latencyMs = Math.round(performance.now() - started);
  if (!session.ok) return { ok: false, message: redact(session.error.message), latencyMs, version: null, passwordStyle: null, readiness: null, readinessError: null };
  const { version, passwordStyle } = session.value;
  const how = `${version ? `Dify ${version}` : "Dify (version not reported)"}, password sent ${passwordStyle === "base64" ? "base64-encoded" : "as typed"}`;
  const message = `Signed in to ${config.baseUrl} as ${config.email} in ${latencyMs} ms (${how}).`;
  const inventory = await session.value.inventory(["llm", "tts"]);
  if (!inventory.ok) return { ok: true, message, latencyMs, version, passwordStyle, readiness: null, readinessError: redact(inventory.error.message) };
  const lines = readiness(benchmarkRequirements(), inventory.value).map((item) => ({ requirement: describeRequirement(item.requirement), usedBy: item.requirement.usedBy, state: item.state, detail: item.detail }));
  return { ok: true, message, latencyMs, version, passwordStyle, readiness: lines, readinessError: null };
}
