import "server-only";
// Where a run imported from a run bundle came from and what its verification found, for its run page. Readers of
// the run may see it; the check is before the query.
import { bundleInfoSchema, type BundleFinding, type BundleInfo } from "@/lib/bundle/format";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import type { VerificationCounts } from "../bundles/verify-bundle";

export interface RunBundleProvenance {
  bundleSha256: string;
  fileName: string | null;
  importedAt: Date;
  verification: "verified" | "disagreements";
  findings: BundleFinding[];
  checked: Partial<VerificationCounts>;
  /** The bundle's bundle.json; null when it no longer reads (it was checked on import). */
  info: BundleInfo | null;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function getRunBundleProvenance(db: Database, actor: SessionUser | null, runId: string): Promise<RunBundleProvenance | null> {
  assertAllowed(actor, "read");
  const row = await db.runBundleImport.findUnique({ where: { runId } });
  if (!row) return null;
  const info = bundleInfoSchema.safeParse(parseJson<unknown>(row.provenance, null));
  return {
    bundleSha256: row.bundleSha256,
    fileName: row.fileName,
    importedAt: row.importedAt,
    verification: row.verification === "verified" ? "verified" : "disagreements",
    findings: parseJson<BundleFinding[]>(row.disagreements, []),
    checked: parseJson<Partial<VerificationCounts>>(row.checked, {}),
    info: info.success ? info.data : null,
  };
}
