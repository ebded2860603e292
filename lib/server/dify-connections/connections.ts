import "server-only";
// Dify connections: a Dify origin (1.9 or later) and the console account that imports, publishes and deletes apps
// there, stored with the password encrypted (AES-256-GCM, lib/server/secrets) and read back as views that never hold
// it. Every function checks the actor's permission first; only workers load the decrypted password. Testing a
// connection signs in (saying which Dify version answered and how the password was sent) and checks its workspace
// against what the benchmark's node types need.
import { z } from "zod";
import { assertAllowed } from "../authz";
import { connectionSettings } from "../connection-settings";
import type { Database } from "../db";
import { benchmarkRequirements, describeRequirement, readiness } from "@/lib/resolve/dify-requirements";
import { DIFY_RUN_TIMEOUT_MS, signIn, type DifyDeps, type PasswordStyle } from "../dify/client";
import { decryptSecret } from "../secrets";
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

type ConnectionRow = { passwordCipher: string; updatedAt: Date } & Omit<DifyConnectionView, "hasPassword" | "updatedAt">;

export const difyConnectionSettings = connectionSettings<typeof VIEW_SELECT, ConnectionRow, DifyConnectionView, DifyConnectionFields>({
  table: (db) => db.difyConnection,
  select: VIEW_SELECT,
  toView: ({ passwordCipher, updatedAt, ...rest }) => ({ ...rest, hasPassword: passwordCipher !== "", updatedAt: updatedAt.toISOString() }),
  secret: { cipherColumn: "passwordCipher", clearedValue: "" },
});

/** Every connection, for choosing one to execute runs with (researchers) or managing them (admins). */
export const listDifyConnections = difyConnectionSettings.list;
export const createDifyConnection = (db: Database, actor: SessionUser, fields: DifyConnectionFields, password: string) =>
  difyConnectionSettings.create(db, actor, fields, { set: password });
/** Updates the fields; a null password keeps the stored one (the field is write-only). */
export const updateDifyConnection = (db: Database, actor: SessionUser, id: string, fields: DifyConnectionFields, password: string | null) =>
  difyConnectionSettings.update(db, actor, id, fields, password ? { set: password } : "keep");
/** Deletes the connection; evaluations that named it keep running without Dify execution (the relation nulls). */
export const deleteDifyConnection = difyConnectionSettings.remove;

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
