import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { loadResponseWithView } from "@/lib/server/data/response-view";
import { checkAccess } from "@/lib/server/session";
import { fullFieldText, isDownloadableField } from "@/lib/viewer/page-text";

// The whole of one text of a response (the page shows long texts clipped), as a plain-text download: never rendered.
export async function GET(request: Request, { params }: RouteContext<"/api/responses/[responseId]/text">) {
  const access = await checkAccess("read");
  if (!access.allowed) return NextResponse.json({ error: "forbidden" }, { status: access.reason === "unauthenticated" ? 401 : 403 });
  const field = new URL(request.url).searchParams.get("field");
  if (!isDownloadableField(field)) return NextResponse.json({ error: "unknown field" }, { status: 400 });
  const { responseId } = await params;
  const loaded = await loadResponseWithView(database(), access.user, responseId);
  if (!loaded) return NextResponse.json({ error: "not found" }, { status: 404 });
  const text = fullFieldText(loaded.view, field);
  if (text === null) return NextResponse.json({ error: "not found" }, { status: 404 });
  // The page names the file (e.g. "PaperQA_2.yml"); only plain characters are kept.
  const requestedName = new URL(request.url).searchParams.get("filename") ?? "";
  const filename = /^[\w.-]{1,120}$/.test(requestedName) ? requestedName : `response-${responseId.replace(/[^\w-]/g, "")}-${field}.txt`;
  return new NextResponse(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
