// Environment failures (configuration, read-only or missing database, disk) are told apart from bugs.
import { describe, expect, it } from "vitest";
import { isEnvironmentError } from "./cli";

describe("CLI error classes", () => {
  it("recognises environment failures", () => {
    const readOnly = Object.assign(new Error("attempt to write a readonly database"), { code: "SQLITE_READONLY" });
    expect(isEnvironmentError(readOnly)).toBe(true);
    expect(isEnvironmentError(new Error("Invalid server configuration:\n  PORT: expected number"))).toBe(true);
    expect(isEnvironmentError(new Error("unable to open database file"))).toBe(true);
    expect(isEnvironmentError(Object.assign(new Error("open failed"), { code: "EACCES" }))).toBe(true);
  });

  it("leaves programming errors alone", () => {
    expect(isEnvironmentError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});
