// Builders for evaluation tests: the shared benchmark imported without runs, a model endpoint pointing at a loopback
// stub, and acting users of each role.
import { randomBytes } from "node:crypto";
import type { Role } from "@/lib/auth/roles";
import type { Database } from "@/lib/server/db";
import { createEndpoint, type EndpointFields } from "@/lib/server/endpoints/endpoints";
import { runImport } from "@/lib/server/import/import-service";
import type { SessionUser } from "@/lib/server/session";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

export const actor = (role: Role): SessionUser => ({ id: `user-${role}`, email: `${role}@example.org`, name: null, role });

/** Imports the benchmark directory (no runs) and returns its id. */
export async function importBenchmarkOnly(db: Database, dir: string): Promise<string> {
  const outcome = await runImport(db, { benchmark: { kind: "directory", dir }, runs: [], importedBy: "test" }, { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 });
  if (!outcome.ok) throw new Error(outcome.issues.map((entry) => entry.message).join("\n"));
  return outcome.benchmarkId;
}

export async function stubEndpoint(db: Database, baseUrl: string, overrides: Partial<EndpointFields> = {}): Promise<string> {
  const fields: EndpointFields = {
    label: `stub-${randomBytes(3).toString("hex")}`,
    baseUrl,
    model: "replay-stub/model:v1",
    temperature: 0,
    maxTokens: null,
    concurrency: 8,
    rpm: null,
    tpm: null,
    timeoutMs: 10_000,
    inputPricePerMTok: 1,
    outputPricePerMTok: 4,
    ...overrides,
  };
  const endpoint = await createEndpoint(db, actor("admin"), fields, null);
  return endpoint.id;
}
