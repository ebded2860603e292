import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirectPath("/runs?model=gpt_5d2")).toBe("/runs?model=gpt_5d2");
  });

  it("refuses other origins and tricks that browsers treat as other origins", () => {
    for (const candidate of ["https://evil.example", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "runs"]) {
      expect(safeRedirectPath(candidate, "/")).toBe("/");
    }
  });

  it("falls back when nothing is given", () => {
    expect(safeRedirectPath(undefined, "/import")).toBe("/import");
  });
});
