import { describe, expect, it } from "vitest";
import { clientAddressOf, parseTrustedProxies } from "./client-address";

describe("the client's address", () => {
  it("is the connection's address when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    const none = parseTrustedProxies(undefined);
    expect(clientAddressOf("203.0.113.7", "198.51.100.1", none)).toBe("203.0.113.7");
    expect(clientAddressOf("::ffff:127.0.0.1", ["10.0.0.1, 10.0.0.2"], none)).toBe("127.0.0.1");
  });

  it("is the hop a trusted proxy forwarded, through a chain of trusted proxies, never past an untrusted one", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.5");
    expect(clientAddressOf("10.1.2.3", "198.51.100.1", trusted)).toBe("198.51.100.1");
    // The client's own claim (first) is not believed: the nearest untrusted hop is.
    expect(clientAddressOf("192.0.2.5", "6.6.6.6, 198.51.100.9, 10.0.0.7", trusted)).toBe("198.51.100.9");
    expect(clientAddressOf("10.1.2.3", "not-an-address", trusted)).toBe("10.1.2.3");
    expect(clientAddressOf("10.1.2.3", undefined, trusted)).toBe("10.1.2.3");
  });

  it("refuses a TRUSTED_PROXIES entry that is not an address or range", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.example.org")).toThrow(/proxy\.example\.org/);
  });
});
