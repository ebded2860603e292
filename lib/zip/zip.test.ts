// The zip writer's archives read back entry for entry (names, bytes, CRCs), deterministically, and damage is caught.
import { describe, expect, it } from "vitest";
import { crc32, readZip, writeZip } from "./zip";

const encoder = new TextEncoder();

describe("writeZip / readZip", () => {
  const entries = [
    { name: "Workflow-Demo_1-draft/MANIFEST.yml", data: encoder.encode("type: Workflow\n") },
    { name: "Workflow-Demo_1-draft/workflow/Demo_1-draft.yaml", data: encoder.encode("name: Demo_1 — ünïcode\n") },
    { name: "empty.txt", data: new Uint8Array() },
  ];

  it("round-trips names and contents in order", () => {
    const read = readZip(writeZip(entries));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    read.value.forEach((entry, i) => expect(Array.from(entry.data)).toEqual(Array.from(entries[i]?.data ?? [])));
  });

  it("is deterministic and starts with a local file header", () => {
    const a = writeZip(entries);
    expect(Array.from(a)).toEqual(Array.from(writeZip(entries)));
    expect(Array.from(a.subarray(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it("computes the standard CRC-32", () => {
    expect(crc32(encoder.encode("123456789"))).toBe(0xcbf43926);
  });

  it("rejects a damaged archive with a reason", () => {
    const bytes = writeZip(entries);
    const dataStart = 30 + (entries[0]?.name.length ?? 0);
    bytes[dataStart] = (bytes[dataStart] ?? 0) ^ 0xff; // the first byte of the first entry's data
    const read = readZip(bytes);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.issues[0]).toMatch(/CRC-32/);
    expect(readZip(encoder.encode("not a zip")).ok).toBe(false);
  });
});
