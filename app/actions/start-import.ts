"use server";

import { authorizedAction } from "@/lib/server/action";
import { directoryRequestSchema, startImportRequest } from "@/lib/server/import/start-request";

// Uploads go through POST /api/imports (limits checked before the body is read); this action takes directories only.
const start = authorizedAction("import", directoryRequestSchema, (input, user) => startImportRequest(user, input));

/** Starts an import of server directories in the background and returns its job id; the page polls /api/imports/<id>. */
export async function startDirectoryImport(form: FormData) {
  const text = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
  return start({
    mode: "directory",
    benchmarkDir: text("benchmarkDir") ?? "",
    runsPaths: (text("runsPaths") ?? "").split("\n").map((line) => line.trim()).filter(Boolean),
    model: text("model"),
    label: text("label"),
  });
}
