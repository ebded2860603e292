import { describe, expect, it } from "vitest";
import { buildRunInputs, fileCheckFailure, importFailureRecord, judgedOutputs, outputFiles, uploadFileName } from "./official";

describe("official resolve rules", () => {
  it("names uploads after the pseudo-MIME type and builds file inputs, leaving out ground_truth and empty values", () => {
    expect(uploadFileName("document/pdf")).toBe("document.pdf");
    const ids = ["f1", "f2", "f3"];
    const inputs = buildRunInputs(
      { paper: { mime_type: "document/pdf", value: "a.pdf" }, pictures: [{ mime_type: "image/jpg", value: "b.jpg" }, { mime_type: "image/png", value: "c.png" }], language: "English", count: 3, note: "", ground_truth: "x" },
      () => ids.shift() ?? null,
    );
    expect(inputs).toEqual({
      paper: { transfer_method: "local_file", upload_file_id: "f1", type: "document" },
      pictures: [
        { transfer_method: "local_file", upload_file_id: "f2", type: "image" },
        { transfer_method: "local_file", upload_file_id: "f3", type: "image" },
      ],
      language: "English",
      count: 3,
    });
  });

  it("checks extensions with their dot; an empty list passes; text where a file is expected fails", () => {
    const checks = { report: ".pdf" };
    expect(fileCheckFailure({ report: { extension: ".pdf" } }, checks)).toBeNull();
    expect(fileCheckFailure({ report: [] }, checks)).toBeNull();
    expect(fileCheckFailure({ report: [{ extension: ".pdf" }, { extension: ".docx" }] }, checks)).toMatch(/not every file/);
    expect(fileCheckFailure({ report: { extension: "pdf" } }, checks)).toMatch(/expected a \.pdf file/);
    expect(fileCheckFailure({ report: "a link" }, checks)).toMatch(/got string/);
    expect(fileCheckFailure({}, checks)).toMatch(/missing/);
  });

  it("shows the judge every output outside the file checks, files of other variables included", () => {
    expect(judgedOutputs({ report: { extension: ".pdf" }, summary: "s", chart: { extension: ".png" } }, { report: ".pdf" })).toEqual({ summary: "s", chart: { extension: ".png" } });
  });

  it("records a failed import as the official pass stage does: step_1_5 for refusals, Other-Error for 401 and no answer", () => {
    expect(importFailureRecord({ step: "import", status: 400 })).toBe("step_1_5");
    expect(importFailureRecord({ step: "import", status: 500 })).toBe("step_1_5");
    expect(importFailureRecord({ step: "import", status: 401 })).toBe("Other-Error");
    expect(importFailureRecord({ step: "import", status: null })).toBe("Other-Error");
    expect(importFailureRecord({ step: "confirm", status: 400 })).toBe("step_1_5");
    expect(importFailureRecord({ step: "confirm", status: 401 })).toBe("step_1_5");
  });

  it("lists the files among a run's outputs, alone or in lists, and ignores text", () => {
    const pdf = { dify_model_identity: "__dify__file__", extension: ".pdf", mime_type: "application/pdf", url: "http://x/f.pdf" };
    const png = { dify_model_identity: "__dify__file__", extension: ".png", mime_type: "image/png", url: "http://x/f.png" };
    expect(outputFiles({ report: pdf, pictures: [png, png], summary: "text", count: 3, nothing: null })).toEqual([
      { name: "report", extension: ".pdf", mimeType: "application/pdf" },
      { name: "pictures[0]", extension: ".png", mimeType: "image/png" },
      { name: "pictures[1]", extension: ".png", mimeType: "image/png" },
    ]);
    expect(outputFiles({ summary: "text", data: { extension: "not a file" } })).toEqual([]);
  });
});
