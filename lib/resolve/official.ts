// The official resolve stage's pure rules: upload names and input objects built from a test's pseudo-MIME files,
// the file-extension checks of check_resolve_stage.json, and which outputs the judge is shown.
// Pure; reproduces the official behaviour, quirks included (an empty file list passes, extensions keep their dot).

import type { TestFile, TestInputValue } from "@/lib/benchmark/dataset";
import type { JsonValue } from "@/lib/workflow/python-values";

/** The synthetic upload name: "document/pdf" -> "document.pdf" (the real file name is not sent). */
export function uploadFileName(mimeType: string): string {
  const [kind = "", subtype = ""] = mimeType.split("/");
  return `${kind}.${subtype}`;
}

/** The input's `type`: the pseudo-MIME's first part ("document" or "image"). */
export function uploadKind(mimeType: string): string {
  return mimeType.split("/")[0] ?? "";
}

export interface UploadedInput {
  transfer_method: "local_file";
  upload_file_id: string | null;
  type: string;
}

/** The run's inputs: ground_truth and "" values left out, files replaced by what `upload` gave for each. */
export function buildRunInputs(test: Readonly<Record<string, TestInputValue>>, upload: (file: TestFile) => string | null): Record<string, string | number | UploadedInput | UploadedInput[]> {
  const inputs: Record<string, string | number | UploadedInput | UploadedInput[]> = {};
  const uploaded = (file: TestFile): UploadedInput => ({ transfer_method: "local_file", upload_file_id: upload(file), type: uploadKind(file.mime_type) });
  for (const [key, value] of Object.entries(test)) {
    if (key === "ground_truth" || value === "") continue;
    if (Array.isArray(value)) inputs[key] = value.map(uploaded);
    else if (typeof value === "object") inputs[key] = uploaded(value);
    else inputs[key] = value;
  }
  return inputs;
}

/** Every file a test uploads, in input order. */
export function testFiles(test: Readonly<Record<string, TestInputValue>>): TestFile[] {
  return Object.entries(test).flatMap(([key, value]) => (key === "ground_truth" || value === "" ? [] : Array.isArray(value) ? value : typeof value === "object" ? [value] : []));
}

const extensionOf = (value: JsonValue | undefined): JsonValue | undefined => (value !== null && typeof value === "object" && !Array.isArray(value) ? value.extension : undefined);

/** The official file checks: null when they pass, else why the test fails. */
export function fileCheckFailure(outputs: Readonly<Record<string, JsonValue>>, checks: Readonly<Record<string, string>>): string | null {
  for (const [name, extension] of Object.entries(checks)) {
    if (!(name in outputs)) return `output "${name}" is missing`;
    const value = outputs[name];
    if (Array.isArray(value)) {
      if (!value.every((file) => extensionOf(file) === extension)) return `output "${name}": not every file has the extension ${extension}`;
    } else if (value !== null && typeof value === "object") {
      if (extensionOf(value) !== extension) return `output "${name}": expected a ${extension} file, got ${String(extensionOf(value) ?? "no extension")}`;
    } else return `output "${name}": expected a ${extension} file, got ${value === null ? "None" : typeof value}`;
  }
  return null;
}

/** The outputs the judge sees: every output not in the item's file-check map (files of other variables included). */
export function judgedOutputs(outputs: Readonly<Record<string, JsonValue>>, checks: Readonly<Record<string, string>>): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(outputs).filter(([name]) => !(name in checks)));
}

/**
 * How the official pass stage records a Dify import that did not give an app (§3 step 5): an HTTP answer other than
 * 200/202/401 to the import, or any failed confirmation, fails the item at step_1_5; a 401 or no answer at all
 * (an exception) leaves it valid with api_key "Other-Error", so it counts as passed and then fails its three tests.
 */
export function importFailureRecord(failure: { step: "import" | "confirm"; status: number | null }): "step_1_5" | "Other-Error" {
  if (failure.step === "confirm") return failure.status === null ? "Other-Error" : "step_1_5";
  if (failure.status === null || failure.status === 401 || failure.status === 200) return "Other-Error";
  return "step_1_5";
}

export interface OutputFileSummary {
  /** The output variable, with "[i]" for the i-th file of a list. */
  name: string;
  extension: string | null;
  mimeType: string | null;
}

const isFileObject = (value: JsonValue | undefined): value is Record<string, JsonValue> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && (value.dify_model_identity === "__dify__file__" || (typeof value.extension === "string" && ("url" in value || "filename" in value)));

/** The files among a run's outputs (Dify file objects, alone or in lists), for the record of what a case produced. */
export function outputFiles(outputs: Readonly<Record<string, JsonValue>>): OutputFileSummary[] {
  const files: OutputFileSummary[] = [];
  const summary = (name: string, file: Record<string, JsonValue>): OutputFileSummary => ({
    name,
    extension: typeof file.extension === "string" ? file.extension : null,
    mimeType: typeof file.mime_type === "string" ? file.mime_type : null,
  });
  for (const [name, value] of Object.entries(outputs)) {
    if (isFileObject(value)) files.push(summary(name, value));
    else if (Array.isArray(value)) value.forEach((item, index) => isFileObject(item) && files.push(summary(`${name}[${index}]`, item)));
  }
  return files;
}
