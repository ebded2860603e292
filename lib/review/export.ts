// Annotation export: one row per vote with the judge verdict it is about and that verdict's input and prompt
// fingerprints, as CSV (RFC 4180, spreadsheet-safe) or JSON. Pure; the same rows always give the same bytes.

import { csvDocument } from "../csv";

export interface AnnotationRow {
  queueId: string;
  queueName: string;
  mode: string;
  itemId: string;
  position: number;
  stage: string;
  judge: string;
  model: string;
  run: string;
  task: string;
  round: number;
  casePosition: number;
  judgeVerdict: "pass" | "fail";
  judgeReason: string | null;
  inputFingerprint: string;
  promptFingerprint: string | null;
  annotator: string;
  annotatorVerdict: "pass" | "fail";
  judgeCorrect: "correct" | "incorrect";
  followedRules: string | null;
  comment: string | null;
  judgeVisibleWhenVoting: boolean;
  votedAt: string;
  updatedAt: string;
}

export const ANNOTATION_COLUMNS = [
  "queueId",
  "queueName",
  "mode",
  "itemId",
  "position",
  "stage",
  "judge",
  "model",
  "run",
  "task",
  "round",
  "casePosition",
  "judgeVerdict",
  "judgeReason",
  "inputFingerprint",
  "promptFingerprint",
  "annotator",
  "annotatorVerdict",
  "judgeCorrect",
  "followedRules",
  "comment",
  "judgeVisibleWhenVoting",
  "votedAt",
  "updatedAt",
] as const satisfies readonly (keyof AnnotationRow)[];

export { csvCell } from "../csv";

/** CSV with a header row and CRLF line ends. */
export function annotationsCsv(rows: readonly AnnotationRow[]): string {
  return csvDocument(ANNOTATION_COLUMNS, rows.map((row) => ANNOTATION_COLUMNS.map((column) => row[column])));
}

export interface AnnotationExport {
  exportedAt: string;
  count: number;
  columns: readonly string[];
  annotations: readonly AnnotationRow[];
}

export function annotationsJson(rows: readonly AnnotationRow[], exportedAt: Date): string {
  const document: AnnotationExport = { exportedAt: exportedAt.toISOString(), count: rows.length, columns: ANNOTATION_COLUMNS, annotations: rows };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The download route of the annotations: one queue's, or every queue's when `queueId` is missing. */
export function annotationExportHref(format: ExportFormat, queueId?: string): string {
  const search = new URLSearchParams();
  if (queueId) search.set("queue", queueId);
  search.set("format", format);
  return `/api/review/export?${search.toString()}`;
}

/** A file name such as "annotations-pass-stage-sample-2026-12-01.csv". */
export function exportFileName(scope: string, format: ExportFormat, date: Date): string {
  const slug = scope.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "all";
  return `annotations-${slug}-${date.toISOString().slice(0, 10)}.${format}`;
}
