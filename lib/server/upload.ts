import "server-only";
// Reads a multipart upload within limits: the declared length is checked before any byte is read, the body is
// counted as it streams and cut off at the per-request limit, then file count and per-file size are checked.
// Callers check the session and role first; nothing here runs for a caller who may not upload.

export interface UploadLimits {
  maxRequestBytes: number;
  maxFileBytes: number;
  maxFiles: number;
}

export type UploadRefusal = { status: 400 | 413 | 415; message: string };

export type UploadResult = { ok: true; form: FormData; files: File[] } | ({ ok: false } & UploadRefusal);

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

class BodyTooLarge extends Error {}

/** A copy of the request body that fails once more than `limit` bytes have passed. */
function limitedBody(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new BodyTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

export async function readUpload(request: Request, limits: UploadLimits, fileField = "files"): Promise<UploadResult> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return { ok: false, status: 415, message: "Send the files as multipart/form-data." };
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const tooLarge: UploadRefusal = { status: 413, message: `The upload is larger than ${megabytes(limits.maxRequestBytes)} in total (IMPORT_MAX_REQUEST_MB).` };
  if (Number.isFinite(declared) && declared > limits.maxRequestBytes) return { ok: false, ...tooLarge };
  if (!request.body) return { ok: false, status: 400, message: "The upload is empty." };
  let form: FormData;
  try {
    const counted = new Request(request.url, {
      method: "POST",
      headers: { "content-type": type },
      body: limitedBody(request.body, limits.maxRequestBytes),
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    form = await counted.formData();
  } catch (error) {
    if (error instanceof BodyTooLarge || (error instanceof Error && error.cause instanceof BodyTooLarge)) return { ok: false, ...tooLarge };
    return { ok: false, status: 400, message: "The upload could not be read as multipart/form-data." };
  }
  const files = form.getAll(fileField).filter((value): value is File => typeof value !== "string" && value.size > 0);
  if (files.length > limits.maxFiles) return { ok: false, status: 413, message: `Upload at most ${limits.maxFiles} files at once (IMPORT_MAX_FILES).` };
  const oversized = files.find((file) => file.size > limits.maxFileBytes);
  if (oversized) return { ok: false, status: 413, message: `A file is larger than ${megabytes(limits.maxFileBytes)} (IMPORT_MAX_FILE_MB).` };
  return { ok: true, form, files };
}
