// Hashing runs on worker threads and its results match bcrypt's.
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { hashPassword, passwordWorkerCount, verifyPassword } from "./passwords";

describe("password hashing off the main thread", () => {
  it("hashes and verifies like bcrypt", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$2b\$11\$/);
    expect(bcrypt.compareSync("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("wrong horse", hash)).toBe(false);
  });

  it("runs on worker threads, not on the thread that serves requests", async () => {
    await verifyPassword("nope", bcrypt.hashSync("pw", 4));
    expect(passwordWorkerCount()).toBeGreaterThan(0);
  });
});
