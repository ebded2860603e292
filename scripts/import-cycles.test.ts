// No module of the app imports itself back through others (value imports; `import type` is erased). A cycle makes load
// order decide whether a top-level constant is initialised when read: the job modules once formed one
// (evaluations/types → judge-job → after-generation → resolve-job → evaluations/types), and a command line loading
// them in another order than the web app crashed on a constant read too early.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const SOURCE_DIRS = ["lib", "app", "components", "scripts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

const VALUE_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gm;

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, specifier: string): string | null => {
    const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)) : null;
    if (base === null) return null;
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((candidate) => known.has(candidate)) ?? null;
  };
  return new Map(
    files.map((file) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      const targets = [...text.matchAll(VALUE_IMPORT)].map((match) => resolve(file, match[1]!)).filter((target): target is string => target !== null);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("import cycles", () => {
  it("finds a cycle it is shown, and none in the app's modules", () => {
    expect(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", ["a.ts"]]]))).toEqual([["a.ts", "b.ts", "c.ts"]]);
    const files = SOURCE_DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(300);
    const graph = importGraph(files);
    expect(graph.get("lib/server/resolve/pass-gate.ts")).toContain("lib/server/evaluations/pass-stage-verdicts.ts");
    expect(cycles(graph).map((component) => component.join(" "))).toEqual([]);
  });
});
