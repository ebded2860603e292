// A minimal deterministic ZIP writer and reader (stored entries, CRC-32, fixed timestamps), so the same files always
// give the same bytes.

import { err, ok, type Result } from "../result";

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
/** 1980-01-01 00:00, the earliest DOS date. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** General-purpose flag bit 11: names are UTF-8. */
const UTF8_FLAG = 0x0800;

class ByteWriter {
  private readonly chunks: Uint8Array[] = [];
  length = 0;

  bytes(data: Uint8Array): void {
    this.chunks.push(data);
    this.length += data.length;
  }

  u16(value: number): void {
    this.bytes(new Uint8Array([value & 0xff, (value >>> 8) & 0xff]));
  }

  u32(value: number): void {
    this.bytes(new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]));
  }

  result(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  const out = new ByteWriter();
  const central = new ByteWriter();
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const crc = crc32(entry.data);
    const offset = out.length;
    for (const writer of [out, central]) {
      writer.u32(writer === out ? LOCAL_HEADER : CENTRAL_HEADER);
      if (writer === central) writer.u16(20); // version made by
      writer.u16(20); // version needed
      writer.u16(UTF8_FLAG);
      writer.u16(0); // stored
      writer.u16(DOS_TIME);
      writer.u16(DOS_DATE);
      writer.u32(crc);
      writer.u32(entry.data.length);
      writer.u32(entry.data.length);
      writer.u16(name.length);
      writer.u16(0); // extra field length
      if (writer === central) {
        writer.u16(0); // comment length
        writer.u16(0); // disk number
        writer.u16(0); // internal attributes
        writer.u32(0); // external attributes
        writer.u32(offset);
      }
      writer.bytes(name);
    }
    out.bytes(entry.data);
  }
  const centralOffset = out.length;
  const centralBytes = central.result();
  out.bytes(centralBytes);
  out.u32(END_OF_CENTRAL);
  out.u16(0);
  out.u16(0);
  out.u16(entries.length);
  out.u16(entries.length);
  out.u32(centralBytes.length);
  out.u32(centralOffset);
  out.u16(0);
  return out.result();
}

export function readZip(bytes: Uint8Array): Result<ZipEntry[], string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === END_OF_CENTRAL) {
      end = i;
      break;
    }
  }
  if (end < 0) return err("no end-of-central-directory record: not a zip archive");
  const count = view.getUint16(end + 10, true);
  let pointer = view.getUint32(end + 16, true);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (pointer + 46 > bytes.length || view.getUint32(pointer, true) !== CENTRAL_HEADER) return err(`central directory entry ${i} is damaged`);
    const method = view.getUint16(pointer + 10, true);
    const crc = view.getUint32(pointer + 16, true);
    const size = view.getUint32(pointer + 20, true);
    const nameLength = view.getUint16(pointer + 28, true);
    const extraLength = view.getUint16(pointer + 30, true);
    const commentLength = view.getUint16(pointer + 32, true);
    const local = view.getUint32(pointer + 42, true);
    let name: string;
    try {
      name = decoder.decode(bytes.subarray(pointer + 46, pointer + 46 + nameLength));
    } catch {
      return err(`entry ${i} has a name that is not UTF-8`);
    }
    if (method !== 0) return err(`entry ${name} is compressed (method ${method}); only stored entries are read`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) return err(`entry ${name}: local header is damaged`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) return err(`entry ${name} runs past the end of the archive`);
    const data = bytes.slice(start, start + size);
    if (crc32(data) !== crc) return err(`entry ${name}: CRC-32 mismatch`);
    entries.push({ name, data });
    pointer += 46 + nameLength + extraLength + commentLength;
  }
  return ok(entries);
}
