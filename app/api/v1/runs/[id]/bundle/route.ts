// GET /api/v1/runs/<id>/bundle: the run bundle (one zip: what produced the run, with a manifest of sha256 hashes).
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiFile } from "@/lib/server/api/http";
import { exportRunBundle } from "@/lib/server/bundles/export-bundle";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const GET = apiRoute<typeof API_ROUTES.runBundle, { id: string }>(API_ROUTES.runBundle, async ({ user, params }) => {
  const bundle = await exportRunBundle(database(), user, params.id);
  return bundle ? apiFile(bundle.bytes, "application/zip", bundle.fileName) : apiError("not_found", "No run with this id.");
});
