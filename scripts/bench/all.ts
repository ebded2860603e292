// `npm run bench`: runs every `bench:*` script in package.json one after another and prints their reports.
// Each benchmark reports medians and its own targets; this runner only sequences them and collects exit codes.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts)
  .filter((name) => name.startsWith("bench:"))
  .sort();

const failed: string[] = [];
for (const name of scripts) {
  console.log(`\n=== npm run ${name} ===\n`);
  const result = spawnSync("npm", ["run", "--silent", name], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) failed.push(name);
}
console.log(failed.length ? `\nfailed: ${failed.join(", ")}` : `\nall ${scripts.length} benchmarks ran`);
process.exit(failed.length ? 1 : 0);
