// GET /responses/<id>/coze: the response's Coze workflow package (Workflow-<Task>_<round>-draft.zip), built from
// the stored text with the current core. 404 when the response is unknown or unreadable, 422 with the reason when
// the official Coze converter cannot convert it. HTTP nodes carry the stored GitHub token (Settings › Coze export) only
// for those who manage endpoints; everyone else gets "EMPTY", as the official converter writes without one.
import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { getResponseDetail } from "@/lib/server/data/responses";
import { cozeGithubTokenFor } from "@/lib/server/data/settings";
import { checkAccess } from "@/lib/server/session";
import { cozePackage } from "@/lib/workflow/coze-package";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import { parseResponse, storedResponseInput } from "@/lib/workflow/response";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/responses/[responseId]/coze">) {
  // Readable like the response page itself (anonymous readers too when the instance is public).
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: "forbidden" }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const { responseId } = await context.params;
  const detail = await getResponseDetail(database(), decision.user, responseId);
  if (!detail) return NextResponse.json({ error: "not found" }, { status: 404 });
  const parsed = parseResponse(storedResponseInput(detail));
  if (!parsed.json.ok) return NextResponse.json({ error: "The workflow JSON does not parse, so there is no Coze package." }, { status: 422 });
  const githubToken = await cozeGithubTokenFor(database(), decision.user);
  const built = cozePackage(parsed.json.value, difyAppName(detail.turn.task.name, detail.turn.round), { githubToken });
  if (!built.ok) return NextResponse.json({ error: built.issues[0]?.message ?? "The Coze conversion fails.", code: built.issues[0]?.code }, { status: 422 });
  return new NextResponse(Buffer.from(built.value.bytes), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${built.value.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
