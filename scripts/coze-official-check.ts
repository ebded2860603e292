// `npm run coze:official-check -- --official <checkout> [--benchmark <dir>] [--run <file|dir>]`: runs the official
// converter (`python3 converter.py --type coze`, in an official Chat2Workflow checkout) on every recorded response and
// compares each package with ours, modulo node ids, y coordinates and LLM input order (random or set order there).
// Both sides use the checkout's config.yaml token. Exits 1 when any response differs. Takes minutes (one python3 per
// response, two at a time).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { inflateRawSync } from "node:zlib";
import { parseRunFile } from "@/lib/benchmark/runs";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { cozePackage, parseCozeYaml } from "@/lib/workflow/coze-package";
import { parseResponse } from "@/lib/workflow/response";

const run = promisify(execFile);

const USAGE = `Usage: npm run coze:official-check -- --official <checkout> [--benchmark <dir>] [--run <file|dir>]
  --official <dir>   an official Chat2Workflow checkout (python3 with PyYAML runs its converter.py); or C2W_OFFICIAL_DIR
  --benchmark <dir>  the benchmark (default: C2W_BENCHMARK_DIR, else ../shared/chat2workflow)
  --run <file|dir>   recorded runs to compare (default <benchmark>/runs)`;

/** Every entry of a zip archive (stored or deflated), as text. */
function unzipText(bytes: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let pointer = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < bytes.readUInt16LE(end + 10); i++) {
    const method = bytes.readUInt16LE(pointer + 10);
    const size = bytes.readUInt32LE(pointer + 20);
    const nameLength = bytes.readUInt16LE(pointer + 28);
    const local = bytes.readUInt32LE(pointer + 42);
    const name = bytes.subarray(pointer + 46, pointer + 46 + nameLength).toString("utf8");
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataStart, dataStart + size);
    entries.set(name, (method === 8 ? inflateRawSync(data) : data).toString("utf8"));
    pointer += 46 + nameLength + bytes.readUInt16LE(pointer + 30) + bytes.readUInt16LE(pointer + 32);
  }
  return entries;
}

type Tree = Record<string, unknown>;

/**
 * The package with ids renamed by emission order (start and end keep their fixed ids), y dropped and LLM inputs
 * sorted: what is left is what the official converter determines.
 */
function canonical(workflow: Tree): Tree {
  const names = new Map<string, string>();
  const nodes = workflow.nodes as Tree[];
  for (const node of nodes.flatMap((n) => [n, ...((n.nodes as Tree[] | undefined) ?? [])])) {
    const id = node.id as string;
    if (!names.has(id)) names.set(id, id === "100001" || id === "900001" ? id : `N${names.size}`);
  }
  const rename = (id: string) => names.get(id) ?? `unknown:${id}`;
  const renameText = (text: string) =>
    text.replace(/(\{\{_|block_output_|^_)(\d{6})(?=[_.])/g, (whole, prefix: string, id: string) => (names.has(id) ? `${prefix}${rename(id)}` : whole));
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === "string") {
      return key === "id" || key === "source_node" || key === "target_node" || key === "ref_node" || (key === "blockID" && value !== "") ? rename(value) : renameText(value);
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, null));
    if (value === null || typeof value !== "object") return value;
    const out: Tree = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "position") out[k] = { x: (v as Tree).x };
      // PyYAML writes the key y bare and reads it back as "y"; a YAML 1.1 reader (ours) reads it as true.
      else if (k === "canvas_position") out[k] = { x: (v as Tree).x, y: (v as Tree).y ?? (v as Tree).true };
      else out[k] = walk(v, k);
    }
    if (out.type === "llm" && /^LLM( \d+)?$/.test(String(out.title)) && Array.isArray((out.parameters as Tree | undefined)?.node_inputs)) {
      const parameters = out.parameters as Tree;
      parameters.node_inputs = [...(parameters.node_inputs as Tree[])].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    }
    return out;
  };
  return walk(workflow, null) as Tree;
}

/** The first path at which two values differ, for the report. */
function firstDifference(a: unknown, b: unknown, at = ""): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference((a as Tree)[key], (b as Tree)[key], `${at}.${key}`);
      if (found) return found;
    }
  }
  return `${at || "(root)"}: official ${JSON.stringify(a)?.slice(0, 160)} / ours ${JSON.stringify(b)?.slice(0, 160)}`;
}

interface Item {
  label: string;
  name: string;
  workflow: string | null;
}

function items(runTarget: string): Item[] {
  const files = statSync(runTarget).isDirectory()
    ? readdirSync(runTarget).filter((f) => f.endsWith(".json")).sort().map((f) => path.join(runTarget, f))
    : [runTarget];
  return files.flatMap((file) => {
    const records = parseRunFile(path.basename(file), JSON.parse(readFileSync(file, "utf8")));
    if (!records.ok) throw new Error(`${file} is not a recorded run`);
    const model = path.basename(file, ".json");
    return records.value.map((r) => ({ label: `${model}/${r.task}_${r.round}`, name: `${r.task}_${r.round}`, workflow: r.workflow }));
  });
}

async function official(checkout: string, item: Item, scratch: string): Promise<string | null> {
  if (item.workflow === null) return null;
  const dir = mkdtempSync(path.join(scratch, "o-"));
  writeFileSync(path.join(dir, "in.json"), item.workflow);
  try {
    // A workflow that is not JSON makes the official CLI exit with a traceback: no package, as for a failed conversion.
    await run("python3", ["converter.py", "--json_path", path.join(dir, "in.json"), "--name", item.name, "--output_path", dir, "--type", "coze"], { cwd: checkout }).catch(() => null);
    return readFileSync(path.join(dir, `Workflow-${item.name}-draft.zip`)).toString("base64");
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ options: { official: { type: "string" }, benchmark: { type: "string" }, run: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    console.error(`coze:official-check: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const checkout = values.official ?? process.env.C2W_OFFICIAL_DIR;
  if (!checkout) {
    console.error(`coze:official-check: --official <dir> is required.\n\n${USAGE}`);
    return 2;
  }
  const benchmark = locateBenchmarkDir({ explicit: values.benchmark });
  if (!benchmark.ok) {
    console.error(`coze:official-check: ${benchmark.message}`);
    return 2;
  }
  const config = parseCozeYaml(readFileSync(path.join(checkout, "config.yaml"), "utf8"));
  const configured = config.ok ? (config.value as Tree).github_rest_token : null;
  const githubToken = typeof configured === "string" ? configured : "";
  const all = items(path.resolve(values.run ?? path.join(benchmark.dir, "runs")));
  const scratch = mkdtempSync(path.join(tmpdir(), "coze-official-"));
  const tally = { equal: 0, differ: 0, officialOnly: 0, oursOnly: 0, neither: 0 };
  const differences: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const item = all[next++] as Item;
      const theirs = await official(checkout, item, scratch);
      const parsed = parseResponse({ nodeSelection: "", designPrinciple: "", workflow: item.workflow });
      const ours = parsed.json.ok ? cozePackage(parsed.json.value, item.name, { githubToken }) : null;
      if (!theirs || !ours?.ok) {
        if (theirs) differences.push(`${item.label}: only the official converter converts`);
        else if (ours?.ok) differences.push(`${item.label}: only ours converts`);
        tally[theirs ? "officialOnly" : ours?.ok ? "oursOnly" : "neither"] += 1;
        continue;
      }
      const files = unzipText(Buffer.from(theirs, "base64"));
      const names = [...files.keys()];
      const oursNames = ours.value.files.map((f) => f.name);
      // Both sides as written (parsed back from the archive's YAML), so key order and quoting count as PyYAML's do.
      const read = (texts: string[]) => texts.map((text) => parseCozeYaml(text)).map((doc) => (doc.ok ? (doc.value as Tree) : null));
      const [manifest, workflow] = read([...files.values()]);
      const [oursManifest, oursWorkflow] = read(ours.value.files.map((f) => f.text));
      const problem =
        JSON.stringify(names) !== JSON.stringify(oursNames)
          ? `entries ${JSON.stringify(names)} / ours ${JSON.stringify(oursNames)}`
          : JSON.stringify(manifest) !== JSON.stringify(oursManifest)
            ? "MANIFEST.yml differs"
            : !workflow || !oursWorkflow
              ? "a workflow YAML does not parse"
              : firstDifference(canonical(workflow), canonical(oursWorkflow));
      if (problem) {
        tally.differ += 1;
        differences.push(`${item.label}: ${problem}`);
      } else tally.equal += 1;
    }
  };
  await Promise.all([worker(), worker()]);
  rmSync(scratch, { recursive: true, force: true });
  for (const line of differences.sort()) console.log(line);
  console.log(
    `${all.length} responses: ${tally.equal} packages equal, ${tally.differ} differ, ${tally.officialOnly} converted only by the official converter, ` +
      `${tally.oursOnly} only by ours, ${tally.neither} by neither (token ${githubToken ? "from config.yaml" : "EMPTY"}).`,
  );
  return differences.length === 0 ? 0 : 1;
}

main().then((code) => process.exit(code));
