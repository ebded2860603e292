// GET /api/v1/runs/<id>/resolve-records: the official resolve record file, the same bytes as the run page's download.
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiFile } from "@/lib/server/api/http";
import { getResolveRecordFile } from "@/lib/server/data/resolve-records";
import { database } from "@/lib/server/db";
import { resolveRecordsFileName, resolveRecordsText } from "@/lib/benchmark/official-files";

export const dynamic = "force-dynamic";

export const GET = apiRoute<typeof API_ROUTES.resolveRecords, { id: string }>(API_ROUTES.resolveRecords, async ({ user, params }) => {
  const file = await getResolveRecordFile(database(), user, params.id);
  return file ? apiFile(resolveRecordsText(file.records), "application/json; charset=utf-8", resolveRecordsFileName(file.modelName)) : apiError("not_found", "No run with this id.");
});
