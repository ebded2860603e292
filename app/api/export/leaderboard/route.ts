import { NextResponse } from "next/server";
import { parseJudgeChoice } from "@/lib/judge/choice";
import { exportFileName, leaderboardColumns, leaderboardExportRows, MIME_TYPES, render } from "@/lib/leaderboard/export";
import { database } from "@/lib/server/db";
import { getExportRates, listBenchmarkChoices } from "@/lib/server/data/leaderboard";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

/** GET /api/export/leaderboard?source=measured|published&format=csv|json[&benchmark=<name or id>][&rounds=all][&judge=<label or panel:a,b>] */
export async function GET(request: Request) {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: decision.reason }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const url = new URL(request.url);
  const source = url.searchParams.get("source") ?? "measured";
  const format = url.searchParams.get("format") ?? "json";
  if ((source !== "measured" && source !== "published") || (format !== "csv" && format !== "json")) {
    return NextResponse.json({ error: "source must be measured or published, format csv or json" }, { status: 400 });
  }
  const judge = parseJudgeChoice(url.searchParams.get("judge"));
  if (!judge.ok) return NextResponse.json({ error: judge.issues.join("; ") }, { status: 400 });
  const requested = url.searchParams.get("benchmark");
  if (requested && source === "measured") {
    // An unknown benchmark is a 404, not the default benchmark's figures under another name.
    const choices = await listBenchmarkChoices(database(), decision.user);
    if (!choices.some((choice) => choice.id === requested || choice.name.toLowerCase() === requested.toLowerCase())) {
      return NextResponse.json({ error: "not found", message: "No benchmark with that name or id." }, { status: 404 });
    }
  }
  const { rows, benchmark } = await getExportRates(database(), decision.user, source, requested, judge.value);
  const body = render(leaderboardColumns(source), leaderboardExportRows(rows, { allRounds: url.searchParams.get("rounds") === "all" }), format);
  const name = exportFileName(["leaderboard", source, ...(benchmark ? [benchmark.name] : []), ...(source === "measured" && judge.value.param ? [`judged-by-${judge.value.param}`] : [])], format);
  return new NextResponse(body, {
    headers: { "Content-Type": MIME_TYPES[format], "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
  });
}
