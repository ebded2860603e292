import { describe, expect, it } from "vitest";
import { ANNOTATION_COLUMNS, annotationExportHref, annotationsCsv, annotationsJson, csvCell, exportFileName, type AnnotationRow } from "./export";

const ROW: AnnotationRow = {
  queueId: "q1",
  queueName: "Pass, sample",
  mode: "blind",
  itemId: "i1",
  position: 0,
  stage: "pass",
  judge: "recorded",
  model: "demo_alpha",
  run: "runs/demo_alpha.json",
  task: "QuizBuilder",
  round: 3,
  casePosition: 0,
  judgeVerdict: "fail",
  judgeReason: 'Rule 2 fails: "Code" is declared\nbut unused.',
  inputFingerprint: "abc123",
  promptFingerprint: null,
  annotator: "annotator@demo.local",
  annotatorVerdict: "fail",
  judgeCorrect: "correct",
  followedRules: "yes",
  comment: "=HYPERLINK(\"x\")",
  judgeVisibleWhenVoting: false,
  votedAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
};

describe("annotation export", () => {
  it("writes a header and one quoted, escaped row per vote with the fingerprints", () => {
    const csv = annotationsCsv([ROW]);
    const [header, line, end] = csv.split("\r\n");
    expect(header).toBe(ANNOTATION_COLUMNS.join(","));
    expect(end).toBe("");
    expect(line).toContain('"Pass, sample"');
    expect(line).toContain('"Rule 2 fails: ""Code"" is declared\nbut unused."');
    expect(line).toContain(",abc123,,annotator@demo.local,");
  });

  it("keeps spreadsheet formulas inert", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell(null)).toBe("");
    expect(csvCell(false)).toBe("false");
  });

  it("writes JSON with the rows and their count", () => {
    const document = JSON.parse(annotationsJson([ROW], new Date("2026-12-02T00:00:00Z"))) as { count: number; exportedAt: string; annotations: AnnotationRow[] };
    expect(document.count).toBe(1);
    expect(document.exportedAt).toBe("2026-12-02T00:00:00.000Z");
    expect(document.annotations[0]).toEqual(ROW);
  });

  it("names the file after the scope and date", () => {
    expect(exportFileName("Pass stage · 10 items", "csv", new Date("2026-12-01T12:00:00Z"))).toBe("annotations-pass-stage-10-items-2026-12-01.csv");
    expect(exportFileName("···", "json", new Date("2026-12-01T12:00:00Z"))).toBe("annotations-all-2026-12-01.json");
  });
});

describe("annotation export links", () => {
  it("points at one queue's annotations, or every queue's, in the chosen format", () => {
    expect(annotationExportHref("csv", "q 1&x")).toBe("/api/review/export?queue=q+1%26x&format=csv");
    expect(annotationExportHref("json")).toBe("/api/review/export?format=json");
  });
});
