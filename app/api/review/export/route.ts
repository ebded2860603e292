import { NextResponse, type NextRequest } from "next/server";
import { annotationsCsv, annotationsJson, EXPORT_FORMATS, exportFileName, type ExportFormat } from "@/lib/review/export";
import { database } from "@/lib/server/db";
import { listAnnotationRows } from "@/lib/server/data/review";
import { requireRouteAccess } from "@/lib/server/route-access";

export const dynamic = "force-dynamic";

/** Annotations as a CSV or JSON download: `?format=csv|json`, `&queue=<id>` for one queue (default: all queues). */
export async function GET(request: NextRequest) {
  const user = await requireRouteAccess("manageQueues");
  if (user instanceof NextResponse) return user;
  const params = request.nextUrl.searchParams;
  const format = (params.get("format") ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) return NextResponse.json({ error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }, { status: 400 });
  const exported = await listAnnotationRows(database(), user, params.get("queue"));
  if (!exported) return NextResponse.json({ error: "not found" }, { status: 404 });
  const now = new Date();
  const body = format === "csv" ? annotationsCsv(exported.rows) : annotationsJson(exported.rows, now);
  return new NextResponse(body, {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(exported.scope, format, now)}"`,
      "Cache-Control": "no-store",
    },
  });
}
