import { describe, expect, it } from "vitest";
import { databaseFilePath, isPostgresUrl, postgresConnectionConfig, postgresSchemaOf, resolveDatabaseUrl } from "./database-url";

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

describe("PostgreSQL URLs", () => {
  it("are recognised by either scheme and left as they are", () => {
    expect(isPostgresUrl("postgres://db/studio")).toBe(true);
    expect(isPostgresUrl("postgresql://db/studio")).toBe(true);
    expect(isPostgresUrl("file:./data/studio.db")).toBe(false);
    expect(resolveDatabaseUrl("postgresql://db/studio", "/srv/app")).toBe("postgresql://db/studio");
  });

  it("give the connection fields, with encoded credentials decoded and TLS and schema carried over", () => {
    const url = "postgresql://stu%40dio:p%2Fss@db.example.org:6543/studio_prod?sslmode=require&schema=lab";
    expect(postgresConnectionConfig(url)).toEqual({
      host: "db.example.org",
      port: 6543,
      database: "studio_prod",
      user: "stu@dio",
      password: "p/ss",
      ssl: true,
      options: '-c search_path="lab"',
    });
    expect(postgresSchemaOf(url)).toBe("lab");
  });

  it("default the port and database, and keep TLS off when the URL asks for none", () => {
    expect(postgresConnectionConfig("postgres://127.0.0.1?sslmode=disable")).toEqual({ host: "127.0.0.1", port: 5432, database: "postgres" });
    expect(postgresSchemaOf("postgres://127.0.0.1/x")).toBeNull();
  });
});
