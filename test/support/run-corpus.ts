// Loads the shared benchmark's recorded runs for tests: turn specs plus every run file's records, in file order.
// Throws when a file does not parse (tests should fail loudly on a corrupt corpus); callers skip when it is absent,
// and get an empty corpus for a missing directory because a skipped suite's body still runs while tests are collected.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseCheckPassFile } from "../../lib/benchmark/dataset";
import { parseRunFile, type RunRecord } from "../../lib/benchmark/runs";
import { buildTurnSpecs, type TurnSpec } from "../../lib/benchmark/turn";

export interface RunCorpus {
  turns: Map<string, TurnSpec>;
  runs: { model: string; records: RunRecord[] }[];
}

export function loadRunCorpus(dir: string | null): RunCorpus {
  if (dir === null) return { turns: new Map(), runs: [] };
  const readJson = (relative: string): unknown => JSON.parse(readFileSync(path.join(dir, relative), "utf8"));
  const checkPass = parseCheckPassFile("dataset/check_pass_stage.json", readJson("dataset/check_pass_stage.json"));
  if (!checkPass.ok) throw new Error(checkPass.issues.map((i) => i.message).join("\n"));
  const runs = readdirSync(path.join(dir, "runs"))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const parsed = parseRunFile(`runs/${name}`, readJson(`runs/${name}`));
      if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join("\n"));
      return { model: name.replace(/\.json$/, ""), records: parsed.value };
    });
  return { turns: buildTurnSpecs(checkPass.value), runs };
}
