// Runtime values of a dry run, shaped as Dify's variable pool holds them: JSON values, and files as the objects Dify
// returns for them (`dify_model_identity: "__dify__file__"`, with `extension` keeping its dot, as the file check reads).

import type { JsonObject, JsonValue } from "@/lib/workflow/python-values";

export type FileKind = "document" | "image" | "audio" | "video" | "custom";

/** A file as Dify's File.to_dict() renders it (only the fields a workflow or the file check reads). */
export interface DryFile extends JsonObject {
  dify_model_identity: "__dify__file__";
  type: FileKind;
  filename: string;
  extension: string;
  mime_type: string;
  transfer_method: string;
  size: number;
  /** For an uploaded test file, the case file it was made from (Dify holds the upload's id here). */
  related_id: string | null;
}

export function isDryFile(value: JsonValue | undefined): value is DryFile {
  return value !== null && typeof value === "object" && !Array.isArray(value) && value.dify_model_identity === "__dify__file__";
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".md": "text/markdown",
  ".html": "text/html",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".svg": "image/svg+xml",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
};

/** The MIME type Dify gives a file of this extension (application/octet-stream when unknown). */
export function mimeTypeOf(extension: string): string {
  return MIME_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/** A file produced by a tool (an exporter, a chart, an image or speech model). */
export function producedFile(kind: FileKind, extension: string, stem: string): DryFile {
  return {
    dify_model_identity: "__dify__file__",
    type: kind,
    filename: `${stem}${extension}`,
    extension,
    mime_type: mimeTypeOf(extension),
    transfer_method: "tool_file",
    size: 0,
    related_id: null,
  };
}

/**
 * An uploaded test file as the official resolve stage sends it: renamed to `<part1>.<part2>` from the pseudo-MIME
 * (resolve_stage.py upload), typed by the pseudo-MIME's first part.
 */
export function uploadedFile(mimeType: string, size: number, caseFile?: string): DryFile {
  const [kind = "", subtype = ""] = mimeType.split("/");
  const extension = `.${subtype.toLowerCase()}`;
  const type: FileKind = kind === "document" || kind === "image" || kind === "audio" || kind === "video" ? kind : "custom";
  return { dify_model_identity: "__dify__file__", type, filename: `${kind}.${subtype}`, extension, mime_type: mimeType, transfer_method: "local_file", size, related_id: caseFile ?? null };
}

/** Dify's SegmentType name of a value, as a node's type checks see it. */
export function segmentType(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (isDryFile(value)) return "file";
  if (Array.isArray(value)) {
    if (value.length === 0) return "array[any]";
    if (value.every(isDryFile)) return "array[file]";
    if (value.every((item) => typeof item === "string")) return "array[string]";
    if (value.every((item) => typeof item === "number")) return "array[number]";
    if (value.every((item) => typeof item === "boolean")) return "array[boolean]";
    if (value.every((item) => item !== null && typeof item === "object" && !Array.isArray(item))) return "array[object]";
    return "array[any]";
  }
  return "object";
}

/**
 * A value's text in a rendered template, as Dify's Segment.text gives it: strings as they are, files and file lists
 * as "" (segments.py FileSegment/ArrayFileSegment.text), an empty string array as "", other values as JSON.
 */
export function segmentText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return pythonScalar(value);
  if (isDryFile(value)) return "";
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isDryFile)) return "";
    if (value.length === 0) return "";
    return JSON.stringify(value);
  }
  return JSON.stringify(value);
}

function pythonScalar(value: number | boolean): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

/** The contract's kind of an output value. */
export type OutputKind = "text" | "number" | "object" | "array" | "file" | "files";

export function outputKind(value: JsonValue | undefined): OutputKind {
  if (isDryFile(value)) return "file";
  if (Array.isArray(value)) return value.length > 0 && value.every(isDryFile) ? "files" : "array";
  if (typeof value === "number") return "number";
  if (value !== null && value !== undefined && typeof value === "object") return "object";
  return "text";
}

export function outputExtensions(value: JsonValue | undefined): string[] {
  const files = isDryFile(value) ? [value] : Array.isArray(value) ? value.filter(isDryFile) : [];
  return [...new Set(files.map((file) => file.extension))];
}

/** A short text of a value for the trace: files by name, text clipped, structures as clipped JSON. */
export function valuePreview(value: JsonValue | undefined, max = 160): string {
  if (value === undefined) return "(none)";
  if (isDryFile(value)) return `file ${value.filename}`;
  if (Array.isArray(value) && value.length > 0 && value.every(isDryFile)) return `${value.length} files (${[...new Set(value.map((file) => file.extension))].join(", ")})`;
  if (typeof value === "string") return value.length > max ? `${value.slice(0, max)}…` : value;
  const text = typeof value === "object" && value !== null ? JSON.stringify(value, (_key, item: unknown) => (typeof item === "string" && item.length > max ? `${item.slice(0, max)}…` : item)) : segmentText(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
