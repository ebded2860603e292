import { NextResponse } from "next/server";
import { serverEnv } from "@/lib/server/env";
import { reportUnexpected } from "@/lib/server/errors";
import { decodeUtf8Strict, uploadNameProblem } from "@/lib/server/import/upload-names";
import { startImportRequest, uploadFieldsSchema } from "@/lib/server/import/start-request";
import { requireRouteAccess } from "@/lib/server/route-access";
import { readUpload } from "@/lib/server/upload";

export const dynamic = "force-dynamic";

const invalid = (message: string, status = 400) => NextResponse.json({ error: "invalid", message }, { status });

/** Whether a browser request came from this site (a cross-site form post carries another Origin). */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

// Uploads for the Import page. The session and role are checked before a byte of the body is read; the body is
// then read within IMPORT_MAX_REQUEST_MB, IMPORT_MAX_FILES and IMPORT_MAX_FILE_MB. Answers 202 {jobId}.
export async function POST(request: Request) {
  const user = await requireRouteAccess("import");
  if (user instanceof NextResponse) return user;
  if (!sameOrigin(request)) return NextResponse.json({ error: "forbidden" }, { status: 403 });
  try {
    const env = serverEnv();
    const upload = await readUpload(request, {
      maxRequestBytes: env.IMPORT_MAX_REQUEST_MB * 1024 * 1024,
      maxFileBytes: env.IMPORT_MAX_FILE_MB * 1024 * 1024,
      maxFiles: env.IMPORT_MAX_FILES,
    });
    if (!upload.ok) return invalid(upload.message, upload.status);
    if (upload.files.length === 0) return invalid("Choose at least one file.");
    const text = (name: string) => {
      const value = upload.form.get(name);
      return typeof value === "string" ? value : undefined;
    };
    const fields = uploadFieldsSchema.safeParse({
      mode: "upload",
      benchmarkId: text("benchmarkId") ?? "",
      benchmarkName: text("benchmarkName"),
      model: text("model"),
      label: text("label"),
    });
    if (!fields.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of fields.error.issues) fieldErrors[issue.path.join(".") || "input"] ??= issue.message;
      return NextResponse.json({ error: "invalid", message: "Some fields are invalid.", fieldErrors }, { status: 400 });
    }
    const files: { name: string; content: string }[] = [];
    for (const file of upload.files) {
      const nameProblem = uploadNameProblem(file.name);
      if (nameProblem) return invalid(nameProblem);
      const content = decodeUtf8Strict(new Uint8Array(await file.arrayBuffer()));
      if (content === null) return invalid(`${file.name} is not valid UTF-8 text.`);
      files.push({ name: file.name, content });
    }
    const started = await startImportRequest(user, { ...fields.data, files });
    if (!started.ok) return NextResponse.json(started, { status: 400 });
    return NextResponse.json(started.value, { status: 202 });
  } catch (error) {
    const { errorId, message } = reportUnexpected(error, "POST /api/imports");
    return NextResponse.json({ error: "failed", message, errorId }, { status: 500 });
  }
}
