// GET /responses/<id>/dry-run-file?case=<1..3>&step=<trace index>&file=<index>: a file a dry run's tool returned
// (an exporter's written file or a placeholder image), written again from the stored trace, as a download: never
// rendered. Readable like the response page's Dry run tab; 404 when unknown, not downloadable or hidden.
import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { dryRunFileOf } from "@/lib/server/data/dry-run";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

const index = (value: string | null, min: number, max: number): number | null => (value !== null && /^\d{1,6}$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null);

export async function GET(request: Request, context: RouteContext<"/responses/[responseId]/dry-run-file">) {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: "forbidden" }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const query = new URL(request.url).searchParams;
  const [position, step, file] = [index(query.get("case"), 1, 3), index(query.get("step"), 0, 999_999), index(query.get("file"), 0, 999_999)];
  if (position === null || step === null || file === null) return NextResponse.json({ error: "case, step and file must be numbers" }, { status: 400 });
  const { responseId } = await context.params;
  const found = await dryRunFileOf(database(), decision.user, { responseId, position, step, file });
  if (!found) return NextResponse.json({ error: "not found" }, { status: 404 });
  // Node titles come from model text: only plain characters are kept in the file name.
  const name = found.name.replace(/[^\w.-]/g, "_").slice(-120);
  return new NextResponse(Buffer.from(found.bytes), {
    headers: {
      "Content-Type": found.mimeType,
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
