// The placeholder image is a valid PNG: signature, IHDR of 1×1 first, chunk CRCs right, IDAT inflating to one scanline.
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PLACEHOLDER_PNG } from "./placeholder-png";

function chunks(bytes: Uint8Array): { type: string; data: Buffer; crcOk: boolean }[] {
  const buffer = Buffer.from(bytes);
  const found: { type: string; data: Buffer; crcOk: boolean }[] = [];
  for (let at = 8; at < buffer.length; ) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.subarray(at + 4, at + 8).toString("latin1");
    const data = buffer.subarray(at + 8, at + 8 + length);
    found.push({ type, data, crcOk: crc32(buffer.subarray(at + 4, at + 8 + length)) === buffer.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

describe("placeholder PNG", () => {
  it("has the PNG signature and an IHDR of one 8-bit grey pixel, with valid chunks", () => {
    expect(Buffer.from(PLACEHOLDER_PNG.subarray(0, 8)).toString("hex")).toBe("89504e470d0a1a0a");
    const found = chunks(PLACEHOLDER_PNG);
    expect(found.map((chunk) => chunk.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    expect(found.filter((chunk) => !chunk.crcOk)).toEqual([]);
    const header = found[0]?.data as Buffer;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([1, 1, 8, 0]);
    expect([...inflateSync(found[1]?.data as Buffer)]).toEqual([0, 0xcc]);
  });
});
