// Writes docs/evidence.schema.json from the evidence file's zod schema (`npm run docs:evidence-schema`); `--check`
// exits 1 when the committed file is out of date instead of writing it.
import path from "node:path";
import { evidenceJsonSchema } from "@/lib/grading/evidence";
import { writeOrCheckGenerated } from "./lib/generated-doc";

writeOrCheckGenerated(path.join(process.cwd(), "docs", "evidence.schema.json"), `${JSON.stringify(evidenceJsonSchema(), null, 2)}\n`, "npm run docs:evidence-schema");
