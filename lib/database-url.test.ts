import { describe, expect, it } from "vitest";
import { databaseFilePath, resolveDatabaseUrl } from "./database-url";

describe("resolveDatabaseUrl", () => {
  it("defaults to data/studio.db under the project root", () => {
    expect(resolveDatabaseUrl(undefined, "/srv/app")).toBe("file:/srv/app/data/studio.db");
    expect(resolveDatabaseUrl("  ", "/srv/app/")).toBe("file:/srv/app/data/studio.db");
  });

  it("resolves relative file URLs against the project root, not the schema folder", () => {
    expect(resolveDatabaseUrl("file:./data/e2e.db", "/srv/app")).toBe("file:/srv/app/data/e2e.db");
    expect(resolveDatabaseUrl("file:tmp/x.db", "/srv/app")).toBe("file:/srv/app/tmp/x.db");
  });

  it("keeps absolute file URLs", () => {
    expect(resolveDatabaseUrl("file:/var/lib/studio.db", "/srv/app")).toBe("file:/var/lib/studio.db");
    expect(databaseFilePath("file:/var/lib/studio.db")).toBe("/var/lib/studio.db");
    expect(databaseFilePath("postgres://x")).toBeNull();
  });
});
