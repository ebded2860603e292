// The endpoint test on the endpoints page: one real chat call whose reply's first lines and latency are shown, after
// checking that GET /models lists the model when the server has that route (many servers answer for any name).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEndpointConnection } from "@/lib/server/endpoints/endpoints";
import { fixedReply, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor, stubEndpoint } from "../support/evaluation-fixtures";

describe("testing a model endpoint", () => {
  const db = testDatabase();
  let listing: OpenAIStub;
  let unlisted: OpenAIStub;
  beforeAll(async () => {
    await emptyDatabase(db);
    listing = await startOpenAIStub(fixedReply("ok\nsecond line\nthird line\nfourth line"), { models: ["stub/listed", "stub/other"] });
    unlisted = await startOpenAIStub(fixedReply("ok"));
  });
  afterAll(async () => {
    await listing.close();
    await unlisted.close();
  });

  it("shows the reply's first lines and passes when /models lists the model", async () => {
    const id = await stubEndpoint(db, listing.baseURL, { model: "stub/listed" });
    const result = await testEndpointConnection(db, actor("admin"), id);
    expect(result).toMatchObject({ ok: true, modelListed: true, replyStart: "ok\nsecond line\nthird line" });
    expect(result?.message).toMatch(/^stub\/listed answered in \d+ ms\.$/);
  });

  it("fails, saying so, when /models does not list the model even though the server answers", async () => {
    const id = await stubEndpoint(db, listing.baseURL, { model: "stub/missing" });
    const result = await testEndpointConnection(db, actor("admin"), id);
    expect(result).toMatchObject({ ok: false, modelListed: false, replyStart: "ok\nsecond line\nthird line" });
    expect(result?.message).toContain("The server does not list stub/missing at /models (it lists stub/listed, stub/other).");
  });

  it("says when the server has no /models route to check against", async () => {
    const id = await stubEndpoint(db, unlisted.baseURL, { model: "any/name" });
    const result = await testEndpointConnection(db, actor("admin"), id);
    expect(result).toMatchObject({ ok: true, modelListed: null, replyStart: "ok" });
    expect(result?.message).toContain("the server has no /models list");
    expect(unlisted.requests).toHaveLength(1);
  });
});
