// The bundle's packing and its manifest check: a packed bundle reads back with no findings; a file changed or added
// after packing is a finding naming it; a missing file (listed, or required) refuses the bundle; a bad file names
// its first bad field.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readZip, writeZip } from "../zip/zip";
import { BUNDLE_FILES, benchmarkContentHashes, describeFinding, MANIFEST_FILE, packBundle, parseBundleFile, scoringSchema, unpackBundle } from "./format";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const encoder = new TextEncoder();
const allFiles = () => Object.values(BUNDLE_FILES).map((path) => ({ path, text: path.endsWith("bundle.json") ? "{}" : "[]" }));

function entries(bytes: Uint8Array) {
  const read = readZip(bytes);
  if (!read.ok) throw new Error(read.issues.join("; "));
  return read.value;
}

describe("packBundle / unpackBundle", () => {
  it("reads back every file with a manifest of their hashes, deterministically", () => {
    const bytes = packBundle(allFiles(), sha);
    expect(entries(bytes)[0]?.name).toBe(MANIFEST_FILE);
    const unpacked = unpackBundle(bytes, sha);
    expect(unpacked.ok).toBe(true);
    if (!unpacked.ok) return;
    expect(unpacked.value.findings).toEqual([]);
    expect([...unpacked.value.files.keys()].sort()).toEqual(Object.values(BUNDLE_FILES).sort());
    expect(unpacked.value.manifest.files.find((file) => file.path === "calls.json")).toEqual({ path: "calls.json", sha256: sha(encoder.encode("[]")), bytes: 2 });
    expect(Array.from(packBundle(allFiles(), sha))).toEqual(Array.from(bytes));
  });

  it("finds a file changed or added after packing, naming it", () => {
    const changed = entries(packBundle(allFiles(), sha)).map((entry) => (entry.name === "scoring.json" ? { ...entry, data: encoder.encode("[ ]") } : entry));
    const unpacked = unpackBundle(writeZip([...changed, { name: "extra.txt", data: encoder.encode("x") }]), sha);
    expect(unpacked.ok && unpacked.value.findings.map(describeFinding)).toEqual([
      "scoring.json: its sha256 differs from the manifest's: the file was changed after export",
      "extra.txt: not listed in the manifest: the file was added after export",
    ]);
  });

  it("refuses a bundle missing a listed or a required file, or its manifest", () => {
    const withoutCalls = entries(packBundle(allFiles(), sha)).filter((entry) => entry.name !== "calls.json");
    expect(unpackBundle(writeZip(withoutCalls), sha)).toEqual({ ok: false, issues: [{ file: "calls.json", message: "missing: the manifest lists it but the bundle does not hold it" }] });
    const unlisted = packBundle(allFiles().filter((file) => file.path !== "cases.json"), sha);
    expect(unpackBundle(unlisted, sha)).toEqual({ ok: false, issues: [{ file: "cases.json", message: "missing: the manifest does not list it" }] });
    const noManifest = entries(packBundle(allFiles(), sha)).filter((entry) => entry.name !== MANIFEST_FILE);
    expect(unpackBundle(writeZip(noManifest), sha)).toMatchObject({ ok: false, issues: [{ file: MANIFEST_FILE }] });
    expect(unpackBundle(encoder.encode("not a zip"), sha)).toMatchObject({ ok: false, issues: [{ file: "(bundle)" }] });
  });

  it("names the first bad field of a file", () => {
    const files = new Map([["scoring.json", JSON.stringify([{ task: "A", round: 0 }])]]);
    expect(parseBundleFile(files, "scoring.json", scoringSchema)).toMatchObject({ ok: false, issues: [{ file: "scoring.json", message: expect.stringMatching(/^0\.round: /) }] });
  });
});

describe("benchmarkContentHashes", () => {
  it("hashes content, not formatting or key order, and lists prompts by name", () => {
    const hash = (text: string) => createHash("sha256").update(text).digest("hex");
    const a = benchmarkContentHashes({ queries: [{ id: 1, task: "T" }], checkPass: { T_1: { b: 1, a: 2 } }, checkResolve: {}, prompts: [{ name: "z", text: "Z" }, { name: "a", text: "A" }] }, hash);
    const b = benchmarkContentHashes({ queries: [{ task: "T", id: 1 }], checkPass: { T_1: { a: 2, b: 1 } }, checkResolve: {}, prompts: [{ name: "a", text: "A" }, { name: "z", text: "Z" }] }, hash);
    expect(a).toEqual(b);
    expect(a.map((file) => file.path)).toEqual(["dataset/query.json", "dataset/check_pass_stage.json", "dataset/check_resolve_stage.json", "prompts/a.txt", "prompts/z.txt"]);
    expect(a[3]?.sha256).toBe(hash("A"));
  });
});
