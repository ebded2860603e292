// POST /api/imports: the caller's role is checked before a byte of the body is read, then the body is read within
// the request, file-count and per-file limits; bad names and bad UTF-8 are refused; every refusal writes nothing.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/imports/route";
import { emptyDatabase, testDatabase } from "../../support/database";
import { ensureRoleUsers, signInAs } from "../../support/session-mock";
import { tableCounts } from "../../support/table-counts";

vi.mock("next-auth", async () => (await import("../../support/session-mock")).nextAuthMock);

process.env.IMPORT_MAX_REQUEST_MB = "1";
process.env.IMPORT_MAX_FILES = "3";

const URL_ = "http://127.0.0.1:3000/api/imports";

/** A body that would deliver `bytes` bytes, and how many bytes anyone actually pulled from it. */
function trackedBody(bytes: number) {
  const read = { bytes: 0 };
  const chunk = new Uint8Array(64 * 1024);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (read.bytes >= bytes) return controller.close();
      read.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, read };
}

function rawPost(body: ReadableStream<Uint8Array>, headers: Record<string, string>): Request {
  return new Request(URL_, { method: "POST", body, headers: { "content-type": "multipart/form-data; boundary=x", ...headers }, duplex: "half" } as RequestInit);
}

function formPost(files: { name: string; bytes: Uint8Array<ArrayBuffer> | string }[], fields: Record<string, string> = {}): Request {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files) form.append("files", new File([file.bytes], file.name));
  return new Request(URL_, { method: "POST", body: form });
}

describe("POST /api/imports", () => {
  const db = testDatabase();
  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
  });
  beforeEach(() => signInAs("researcher"));

  it("refuses an anonymous 60 MB post with 401 before reading the body", async () => {
    signInAs("anonymous");
    const before = await tableCounts(db);
    const { stream, read } = trackedBody(60 * 1024 * 1024);
    const response = await POST(rawPost(stream, { "content-length": String(60 * 1024 * 1024) }));
    expect(response.status).toBe(401);
    // A ReadableStream pulls once ahead when created; nothing beyond that first chunk was consumed.
    expect(read.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(await tableCounts(db)).toEqual(before);
  });

  it("refuses roles that may not import with 403 before reading the body", async () => {
    for (const role of ["viewer", "annotator"] as const) {
      signInAs(role);
      const { stream, read } = trackedBody(10 * 1024 * 1024);
      const response = await POST(rawPost(stream, {}));
      expect(response.status).toBe(403);
      expect(read.bytes).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it("refuses a declared length over the request limit with 413 without reading it", async () => {
    const { stream, read } = trackedBody(60 * 1024 * 1024);
    const response = await POST(rawPost(stream, { "content-length": String(60 * 1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(read.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("cuts off an undeclared body at the request limit with 413", async () => {
    const { stream, read } = trackedBody(60 * 1024 * 1024);
    const response = await POST(rawPost(stream, {}));
    expect(response.status).toBe(413);
    expect(read.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it("refuses too many files, a NUL in a file name and invalid UTF-8 with 4xx, writing nothing", async () => {
    const before = await tableCounts(db);
    const tooMany = await POST(formPost([1, 2, 3, 4].map((n) => ({ name: `m${n}.json`, bytes: "[]" }))));
    expect(tooMany.status).toBe(413);
    const nul = await POST(formPost([{ name: "bad\u0000name.json", bytes: "[]" }]));
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { message: string }).message).toMatch(/control characters/);
    const latin1 = await POST(formPost([{ name: "model.json", bytes: new Uint8Array([0x5b, 0x22, 0xe9, 0x22, 0x5d]) }], { benchmarkId: "x" }));
    expect(latin1.status).toBe(400);
    expect(((await latin1.json()) as { message: string }).message).toBe("model.json is not valid UTF-8 text.");
    expect(await tableCounts(db)).toEqual(before);
  });

  it("refuses a cross-site post", async () => {
    const request = formPost([{ name: "model.json", bytes: "[]" }]);
    const crossSite = new Request(request, { headers: { ...Object.fromEntries(request.headers), origin: "https://evil.example", host: "127.0.0.1:3000" } });
    expect((await POST(crossSite)).status).toBe(403);
  });
});
