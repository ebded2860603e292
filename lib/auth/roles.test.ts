import { describe, expect, it } from "vitest";
import { can, isRole } from "./roles";

describe("role permissions", () => {
  it("lets only admins and researchers import", () => {
    expect(can("admin", "import")).toBe(true);
    expect(can("researcher", "import")).toBe(true);
    expect(can("annotator", "import")).toBe(false);
    expect(can("viewer", "import")).toBe(false);
  });

  it("lets annotators vote but not viewers", () => {
    expect(can("annotator", "annotate")).toBe(true);
    expect(can("viewer", "annotate")).toBe(false);
  });

  it("denies everything to a missing role", () => {
    expect(can(null, "read")).toBe(false);
    expect(can(undefined, "annotate")).toBe(false);
  });

  it("recognises only the four roles", () => {
    expect(isRole("admin")).toBe(true);
    expect(isRole("root")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});
