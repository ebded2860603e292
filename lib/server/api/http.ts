import "server-only";
// The HTTP API's answers and its request body reader: JSON answers never cached, errors in the one shape of
// lib/api/errors, and a body read with a byte cap (a declared length over it is refused before a byte is read).
import { NextResponse } from "next/server";
import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from "@/lib/api/errors";

export function apiJson(data: unknown, status = 200): NextResponse {
  return NextResponse.json(data, { status, headers: { "Cache-Control": "no-store" } });
}

export function apiError(code: ApiErrorCode, message: string, headers: Record<string, string> = {}): NextResponse {
  const body: ApiErrorBody = { error: { code, message } };
  return NextResponse.json(body, { status: API_ERRORS[code].status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** A file answered as it is downloaded from the app, byte for byte. */
export function apiFile(body: string | Uint8Array, contentType: string, fileName: string): NextResponse {
  const safeName = fileName.replace(/[^\w.-]/g, "_");
  return new NextResponse(typeof body === "string" ? body : (body as Uint8Array<ArrayBuffer>), {
    headers: { "Content-Type": contentType, "Content-Disposition": `attachment; filename="${safeName}"`, "Cache-Control": "no-store" },
  });
}

export type BodyRead = { ok: true; value: unknown } | { ok: false; response: NextResponse };

/**
 * The request's JSON body, read with at most `maxBytes` bytes: a larger declared Content-Length is refused at once,
 * and a body that streams past the cap is cut off there. Not JSON, not UTF-8 or not declared as JSON: 400.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const tooLarge = () => ({ ok: false as const, response: apiError("too_large", `The body is larger than ${maxBytes} bytes (API_MAX_BODY_KB).`) });
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge();
  }
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type.trim())) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, response: apiError("malformed", "Send the body as JSON with Content-Type: application/json.") };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return { ok: false, response: apiError("malformed", "The body is not valid UTF-8.") };
  }
  if (text.trim() === "") return { ok: false, response: apiError("malformed", "The body is empty; send a JSON object.") };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, response: apiError("malformed", `The body is not valid JSON (${error instanceof SyntaxError ? error.message : "parse error"}).`) };
  }
}
