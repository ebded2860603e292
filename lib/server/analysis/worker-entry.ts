import "server-only";
// The analysis worker thread: runs one task at a time for the pool (pool.ts) and posts its result back. Bundled by
// the pool with esbuild into node_modules/.cache, so it loads as one plain file in any process (server, CLI, test).
import { parentPort } from "node:worker_threads";
import { runAnalysisTask, type AnalysisTask } from "@/lib/analysis/tasks";
import { sha256 } from "../hash";

parentPort?.on("message", (message: { id: number; task: AnalysisTask }) => {
  try {
    parentPort!.postMessage({ id: message.id, value: runAnalysisTask(message.task, sha256) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
