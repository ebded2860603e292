// Child process of lib/workflow/linear-work.test.ts: runs every analysis of model text on each text of the JSON file
// named on the command line, then prints how many it analysed. The test starts it with V8 flags that make any regular
// expression that backtracks excessively fall back to V8's linear engine and say so on stdout.
import { readFileSync } from "node:fs";
import { analyseEverything } from "./adversarial";

const texts = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as string[];
for (const text of texts) analyseEverything(text);
console.log(`analysed ${texts.length}`);
