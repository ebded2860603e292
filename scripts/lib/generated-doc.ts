// Writes a file generated from code (`npm run docs:*`), or with `--check` exits 1 when the committed file differs.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function writeOrCheckGenerated(target: string, text: string, command: string): void {
  const name = path.relative(process.cwd(), target);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {
      // a missing file is out of date
    }
    if (current !== text) {
      console.error(`${name} is out of date: run ${command}`);
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(target, text);
  console.log(`wrote ${name}`);
}
