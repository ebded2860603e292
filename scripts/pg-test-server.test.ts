// Finding PostgreSQL's binaries for the throwaway test server, and the message when there are none.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPostgresBin, postgresUnavailableReason } from "./pg-test-server.mjs";

const root = mkdtempSync(path.join(tmpdir(), "c2w-pgbin-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fakeBin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of ["initdb", "pg_ctl"]) {
    writeFileSync(path.join(dir, tool), "#!/bin/sh\n");
    chmodSync(path.join(dir, tool), 0o755);
  }
  return dir;
}

describe("finding PostgreSQL's binaries", () => {
  const nowhere = path.join(root, "no-debian-root");

  it("says what to install, or what to set, when there are none", () => {
    const reason = postgresUnavailableReason({ PATH: path.join(root, "empty") }, nowhere);
    expect(reason).toMatch(/initdb, pg_ctl\) not found/);
    expect(reason).toMatch(/postgresql/);
    expect(reason).toMatch(/C2W_TEST_POSTGRES_URL/);
  });

  it("needs no binaries when a server URL is given", () => {
    expect(postgresUnavailableReason({ PATH: "", C2W_TEST_POSTGRES_URL: "postgresql://127.0.0.1/x" }, nowhere)).toBeNull();
  });

  it("prefers PG_BIN, then PATH, then the newest Debian version", () => {
    const debian = path.join(root, "debian");
    fakeBin(path.join(debian, "13", "bin"));
    const newest = fakeBin(path.join(debian, "15", "bin"));
    const onPath = fakeBin(path.join(root, "path-bin"));
    const explicit = fakeBin(path.join(root, "explicit"));
    expect(findPostgresBin({ PATH: "" }, debian)).toBe(newest);
    expect(findPostgresBin({ PATH: onPath }, debian)).toBe(onPath);
    expect(findPostgresBin({ PATH: onPath, PG_BIN: explicit }, debian)).toBe(explicit);
  });
});
