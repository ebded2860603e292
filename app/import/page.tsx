import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { listBenchmarks } from "@/lib/server/data/runs";
import { serverEnv } from "@/lib/server/env";
import { allowedImportRoots } from "@/lib/server/import/allowed-dirs";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  const user = await requireSignedInPermission("import", "/import");
  const benchmarks = await listBenchmarks(database(), user);
  const allowedDirs = allowedImportRoots();
  const benchmark = locateBenchmarkDir({ env: { C2W_BENCHMARK_DIR: serverEnv().C2W_BENCHMARK_DIR } });
  return (
    <>
      <PageHeader
        title="Import"
        description="Load a benchmark and model runs, score every response and store the verdicts. An import is all or nothing: any invalid entry rejects it with a message naming the file, entry and field. Importing the same content twice changes nothing."
      />
      <ImportForm
        benchmarks={benchmarks.map(({ id, name, version, turnCount }) => ({ id, name, version, turnCount }))}
        allowedDirs={allowedDirs}
        defaultDir={benchmark.dir}
        defaultDirMissing={benchmark.ok ? null : benchmark.message}
        maxFileMb={serverEnv().IMPORT_MAX_FILE_MB}
      />
      <p className="mt-8 text-sm text-slate-600 dark:text-slate-400">
        From the command line: <code className="font-mono">npm run import -- --benchmark &lt;dir&gt; --runs &lt;file|dir&gt;</code>
      </p>
    </>
  );
}
