// Content fingerprints with a stat shortcut: what decides whether a CLI bundle or the app is rebuilt.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fingerprintFiles, listFiles, unchangedSince } from "./fingerprint.cjs";

const root = mkdtempSync(path.join(os.tmpdir(), "c2w-fingerprint-"));
// Kept apart from root, whose listing a test below checks.
const elsewhere = mkdtempSync(path.join(os.tmpdir(), "c2w-fingerprint-stat-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe("fingerprintFiles", () => {
  it("keeps the fingerprint when only modification times change, and changes it with the bytes", () => {
    writeFileSync(path.join(root, "a.ts"), "export const a = 1;\n");
    writeFileSync(path.join(root, "b.ts"), "export const b = 2;\n");
    const first = fingerprintFiles(root, ["a.ts", "b.ts"]);
    utimesSync(path.join(root, "a.ts"), new Date("2030-01-01"), new Date("2030-01-01"));
    const touched = fingerprintFiles(root, ["a.ts", "b.ts"], { previous: first.record });
    expect(touched.fingerprint).toBe(first.fingerprint);
    expect(touched.record["a.ts"]?.[1]).not.toBe(first.record["a.ts"]?.[1]);
    writeFileSync(path.join(root, "a.ts"), "export const a = 3;\n");
    expect(fingerprintFiles(root, ["a.ts", "b.ts"], { previous: touched.record }).fingerprint).not.toBe(first.fingerprint);
  });

  it("trusts an unchanged size and modification time without reading the file", () => {
    const when = new Date("2029-06-01T00:00:00Z");
    writeFileSync(path.join(root, "c.ts"), "one");
    utimesSync(path.join(root, "c.ts"), when, when);
    const first = fingerprintFiles(root, ["c.ts"]);
    writeFileSync(path.join(root, "c.ts"), "two");
    utimesSync(path.join(root, "c.ts"), when, when);
    expect(fingerprintFiles(root, ["c.ts"], { previous: first.record }).fingerprint).toBe(first.fingerprint);
    expect(fingerprintFiles(root, ["c.ts"]).fingerprint).not.toBe(first.fingerprint);
  });

  it("counts a missing file and the extra settings", () => {
    const base = fingerprintFiles(root, ["b.ts"], { extra: ["NEXT_PUBLIC_X=1"] });
    expect(fingerprintFiles(root, ["b.ts"], { extra: ["NEXT_PUBLIC_X=2"] }).fingerprint).not.toBe(base.fingerprint);
    const missing = fingerprintFiles(root, ["b.ts", "gone.ts"], { extra: ["NEXT_PUBLIC_X=1"] });
    expect(missing.fingerprint).not.toBe(base.fingerprint);
    expect(missing.record["gone.ts"]).toBeUndefined();
  });
});

describe("unchangedSince", () => {
  it("holds while every file keeps its size and time and every missing file stays missing", () => {
    const dir = mkdtempSync(path.join(elsewhere, "unchanged-"));
    const when = new Date("2028-03-01T00:00:00Z");
    writeFileSync(path.join(dir, "x.ts"), "x");
    utimesSync(path.join(dir, "x.ts"), when, when);
    const files = ["x.ts", "later.ts"];
    const { record } = fingerprintFiles(dir, files);
    expect(unchangedSince(dir, files, record)).toBe(true);

    utimesSync(path.join(dir, "x.ts"), new Date("2028-03-02T00:00:00Z"), new Date("2028-03-02T00:00:00Z"));
    expect(unchangedSince(dir, files, record)).toBe(false);
    utimesSync(path.join(dir, "x.ts"), when, when);
    writeFileSync(path.join(dir, "x.ts"), "xy");
    utimesSync(path.join(dir, "x.ts"), when, when);
    expect(unchangedSince(dir, files, record)).toBe(false);
  });

  it("fails when a file the record lacks appears, or one it holds disappears", () => {
    const dir = mkdtempSync(path.join(elsewhere, "appears-"));
    writeFileSync(path.join(dir, "y.ts"), "y");
    const files = ["y.ts", "z.ts"];
    const { record } = fingerprintFiles(dir, files);
    writeFileSync(path.join(dir, "z.ts"), "z");
    expect(unchangedSince(dir, files, record)).toBe(false);
    rmSync(path.join(dir, "z.ts"));
    expect(unchangedSince(dir, files, record)).toBe(true);
    rmSync(path.join(dir, "y.ts"));
    expect(unchangedSince(dir, files, record)).toBe(false);
  });
});

describe("listFiles", () => {
  it("walks directories in sorted order and skips what it is told to", () => {
    writeFileSync(path.join(root, "skip.test.ts"), "");
    const files = listFiles(root, ["."], (name) => name.endsWith(".test.ts"));
    expect(files).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
