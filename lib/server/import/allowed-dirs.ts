import "server-only";
// Which server directories the Import page may read: IMPORT_ALLOWED_DIRS (`:`-separated), else the configured
// benchmark directory and the project's demo data. Paths are resolved (symlinks too) before the check.
import { realpath } from "node:fs/promises";
import path from "node:path";
import { configuredBenchmarkDir } from "../benchmark-location";
import { serverEnv } from "../env";

export function allowedImportRoots(): string[] {
  const env = serverEnv();
  if (env.IMPORT_ALLOWED_DIRS) {
    return env.IMPORT_ALLOWED_DIRS.split(":").filter(Boolean).map((dir) => path.resolve(dir));
  }
  // Run-time directories, not files to bundle: the comments keep Turbopack from tracing the whole project.
  return [configuredBenchmarkDir({ env: { C2W_BENCHMARK_DIR: env.C2W_BENCHMARK_DIR } }), path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "demo")];
}

// One answer for "missing" and "outside": the difference would let a user probe the server's files.
const notAllowed = (requested: string) =>
  `${requested.replace(/[\u0000-\u001f]/g, "")} does not exist or is outside the directories imports may read (IMPORT_ALLOWED_DIRS)`;

/** The real path of `requested` when it lies inside an allowed root; otherwise a message saying why not. */
export async function resolveAllowedPath(requested: string): Promise<{ ok: true; path: string } | { ok: false; message: string }> {
  let real: string;
  try {
    real = await realpath(path.resolve(requested));
  } catch {
    return { ok: false, message: notAllowed(requested) };
  }
  for (const root of allowedImportRoots()) {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      continue;
    }
    if (real === realRoot || real.startsWith(`${realRoot}${path.sep}`)) return { ok: true, path: real };
  }
  return { ok: false, message: notAllowed(requested) };
}
