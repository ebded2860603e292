// GET /api/v1/runs/<id>/pass-records: the official pass record file, the same bytes as the run page's download.
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError } from "@/lib/server/api/http";
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { database } from "@/lib/server/db";
import { jsonDownload } from "@/lib/server/json-download";

export const dynamic = "force-dynamic";

export const GET = apiRoute<typeof API_ROUTES.passRecords, { id: string }>(API_ROUTES.passRecords, async ({ user, params }) => {
  const file = await getRunPassRecords(database(), user, params.id);
  return file ? jsonDownload(file.fileName, file.data) : apiError("not_found", "No run with this id.");
});
