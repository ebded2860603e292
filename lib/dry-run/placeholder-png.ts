// The dry run's placeholder image for the tools it does not run (Mermaid converter, text to image, Markdown to PNG):
// a valid 1×1 grey PNG written here, so the output is a real image file, never a rendering of what was asked for.

import { crc32 } from "@/lib/zip/zip";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function chunk(type: string, data: readonly number[]): number[] {
  const typed = [...type].map((char) => char.charCodeAt(0));
  return [...u32(data.length), ...typed, ...data, ...u32(crc32(Uint8Array.from([...typed, ...data])))];
}

function adler32(data: readonly number[]): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** One grey pixel: IHDR 1×1, 8-bit greyscale; IDAT a zlib stream of one stored deflate block. */
function placeholderPng(): Uint8Array {
  const scanline = [0x00, 0xcc];
  const zlib = [0x78, 0x01, 0x01, scanline.length, 0x00, ~scanline.length & 0xff, 0xff, ...scanline, ...u32(adler32(scanline))];
  const header = [...u32(1), ...u32(1), 8, 0, 0, 0, 0];
  return Uint8Array.from([...SIGNATURE, ...chunk("IHDR", header), ...chunk("IDAT", zlib), ...chunk("IEND", [])]);
}

export const PLACEHOLDER_PNG: Uint8Array = placeholderPng();
