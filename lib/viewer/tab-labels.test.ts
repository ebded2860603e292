import { describe, expect, it } from "vitest";
import { artifactTabLabel } from "./tab-labels";

describe("artifactTabLabel", () => {
  it("says repaired only when a repair produced the text", () => {
    expect(artifactTabLabel("Pretty JSON", "{}", "{}")).toBe("Pretty JSON");
    expect(artifactTabLabel("Pretty JSON", null, "{}")).toBe("Pretty JSON (repaired)");
    expect(artifactTabLabel("Dify YAML", null, null)).toBe("Dify YAML (none)");
    expect(artifactTabLabel("Dify YAML", "", "")).toBe("Dify YAML (none)");
  });
});
