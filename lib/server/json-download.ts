import "server-only";
// JSON file downloads for readers: the access check, a 404 for what does not exist, and the file as an attachment,
// indented like the official pipeline writes its files, never cached.
import { NextResponse } from "next/server";
import { officialJsonText } from "@/lib/benchmark/official-files";
import { database, type Database } from "./db";
import { checkAccess, type SessionUser } from "./session";


export function jsonDownload(fileName: string, data: unknown): NextResponse {
  // Model names hold only [\w.-]; anything else would not be a safe header value.
  const safeName = fileName.replace(/[^\w.-]/g, "_");
  return new NextResponse(officialJsonText(data), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safeName}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Answers a reader's GET with the file `load` finds (anonymous readers too when the instance is public). */
export async function readerJsonDownload(load: (db: Database, actor: SessionUser | null) => Promise<{ fileName: string; data: unknown } | null>): Promise<NextResponse> {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: "forbidden" }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const file = await load(database(), decision.user);
  if (!file) return NextResponse.json({ error: "not found" }, { status: 404 });
  return jsonDownload(file.fileName, file.data);
}
