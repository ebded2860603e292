// The API's per-token limit: a burst up to the limit passes, the next request waits for its share of the minute
// (Retry-After), the allowance refills over time, keys are independent, and memory stays bounded.
import { describe, expect, it } from "vitest";
import { RequestBuckets } from "./rate-limit";

describe("RequestBuckets", () => {
  it("passes a burst up to the limit, then refuses with the seconds until the next request fits", () => {
    const buckets = new RequestBuckets(60);
    for (let i = 0; i < 60; i++) expect(buckets.take("a", 1_000).ok).toBe(true);
    expect(buckets.take("a", 1_000)).toEqual({ ok: false, retryAfterSeconds: 1 });
    // One request a second refills at 60 per minute.
    expect(buckets.take("a", 2_000).ok).toBe(true);
    expect(buckets.take("a", 2_000).ok).toBe(false);
  });

  it("says how long to wait at a slow limit", () => {
    const buckets = new RequestBuckets(2);
    expect(buckets.take("a", 0).ok).toBe(true);
    expect(buckets.take("a", 0).ok).toBe(true);
    expect(buckets.take("a", 0)).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(buckets.take("a", 30_000).ok).toBe(true);
  });

  it("keeps each key's allowance apart", () => {
    const buckets = new RequestBuckets(1);
    expect(buckets.take("a", 0).ok).toBe(true);
    expect(buckets.take("a", 0).ok).toBe(false);
    expect(buckets.take("b", 0).ok).toBe(true);
  });

  it("forgets the least recently seen keys beyond its bound", () => {
    const buckets = new RequestBuckets(1, 3);
    for (const key of ["a", "b", "c", "d"]) buckets.take(key, 0);
    expect(buckets.size).toBe(3);
    // "a" was forgotten, so it starts with a full allowance again; "d" was not.
    expect(buckets.take("a", 0).ok).toBe(true);
    expect(buckets.take("d", 0).ok).toBe(false);
  });
});
