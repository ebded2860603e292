import "server-only";
// A JSON file download: indented like the official pipeline writes its files, never cached.
import { NextResponse } from "next/server";

export function jsonDownload(fileName: string, data: unknown): NextResponse {
  // Model names hold only [\w.-]; anything else would not be a safe header value.
  const safeName = fileName.replace(/[^\w.-]/g, "_");
  return new NextResponse(JSON.stringify(data, null, 4), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safeName}"`,
      "Cache-Control": "no-store",
    },
  });
}
