// The documented vocabularies of node params (from the builder prompt): type names, formats and operators.
// The official converter checks none of them; the analysis warns (invalid-option) when a value is outside them.

export const START_VARIABLE_TYPES = ["string", "number", "boolean", "file", "array[file]"] as const;
export const CODE_OUTPUT_TYPES = [
  "string",
  "number",
  "boolean",
  "object",
  "array[string]",
  "array[number]",
  "array[boolean]",
  "array[object]",
] as const;
export const PARAMETER_TYPES = [
  "string",
  "number",
  "boolean",
  "array[string]",
  "array[number]",
  "array[boolean]",
  "array[object]",
] as const;
export const MARKDOWN_TARGET_TYPES = ["docx", "pptx", "pdf", "png", "html", "md"] as const;
export const CHART_TYPES = ["line", "pie", "bar"] as const;
export const LIST_OPERATORS = ["extract_by", "limit", "order_by", "filter_by"] as const;
export const FILE_KINDS = ["document", "image", "video", "audio"] as const;
/** If-else comparison operators by variable type (the `file.type` sub-field uses `in` / `not in`). */
export const IF_ELSE_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  string: ["contains", "not contains", "start with", "end with", "is", "is not", "empty", "not empty"],
  "file-subfield": ["in", "not in"],
  number: ["≠", "=", ">", "<", "≥", "≤", "empty", "not empty"],
  boolean: ["is", "is not"],
  object: ["is", "is not", "empty", "not empty"],
  file: ["exists", "not exists"],
  "array[string]": ["contains", "not contains", "empty", "not empty"],
  "array[number]": ["contains", "not contains", "empty", "not empty"],
  "array[boolean]": ["contains", "not contains", "empty", "not empty"],
  "array[object]": ["empty", "not empty"],
  "array[file]": ["contains", "not contains", "empty", "not empty", "all of"],
};
/** List-operator filter_by operators by array type. */
export const LIST_FILTER_OPERATORS: Readonly<Record<string, readonly string[]>> = {
  "array[string]": ["≠", "=", ">", "<", "≥", "≤", "empty", "not empty"],
  "array[number]": ["≠", "=", ">", "<", "≥", "≤", "empty", "not empty"],
  "array[boolean]": ["is", "not is"],
  "array[file]": ["in", "not in"],
};
