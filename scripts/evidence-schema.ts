// Writes docs/evidence.schema.json from the evidence file's zod schema (`npm run docs:evidence-schema`); `--check`
// exits 1 when the committed file is out of date instead of writing it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { evidenceJsonSchema } from "@/lib/grading/evidence";

const target = path.join(process.cwd(), "docs", "evidence.schema.json");
const text = `${JSON.stringify(evidenceJsonSchema(), null, 2)}\n`;
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // a missing file is out of date
  }
  if (current !== text) {
    console.error("docs/evidence.schema.json is out of date: run npm run docs:evidence-schema");
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
