import "server-only";
// Which address a request comes from. The connection's own address, unless it is a proxy named in TRUSTED_PROXIES:
// then the address that proxy put last in X-Forwarded-For (and so on through trusted proxies). A client's own
// X-Forwarded-For is otherwise ignored. The server writes the answer into X-Forwarded-For before Next.js sees the
// request (Next.js only fills that header when it is absent), so every reader of it (the sign-in throttle) is right.
import http from "node:http";
import { BlockList, isIP } from "node:net";

/** Strips the IPv4-in-IPv6 prefix Node gives IPv4 peers on dual-stack sockets. */
function plainAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/** TRUSTED_PROXIES: addresses and CIDR ranges, separated by commas or spaces. Throws on an entry that is neither. */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address ?? "");
    if (family === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  return list;
}

function isTrusted(trusted: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The client's address: the socket's, or, behind trusted proxies, the nearest untrusted hop of X-Forwarded-For. */
export function clientAddressOf(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: BlockList): string | null {
  if (!socketAddress) return null;
  let address = plainAddress(socketAddress);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "")).split(",").map(plainAddress).filter(Boolean);
  while (isTrusted(trusted, address) && hops.length > 0) {
    const next = hops.pop()!;
    if (isIP(next) === 0) break;
    address = next;
  }
  return address;
}

const state = globalThis as unknown as { c2wClientAddressStamp?: boolean };

/** Makes every HTTP server of this process rewrite X-Forwarded-For to the client's address (once per process). */
export function installClientAddressStamp(trustedProxies: string | undefined): void {
  if (state.c2wClientAddressStamp) return;
  state.c2wClientAddressStamp = true;
  const trusted = parseTrustedProxies(trustedProxies);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function stamped(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      const address = clientAddressOf(request.socket?.remoteAddress, request.headers["x-forwarded-for"], trusted);
      if (address) request.headers["x-forwarded-for"] = address;
      else delete request.headers["x-forwarded-for"];
    }
    return emit.apply(this, [event, ...args] as unknown as Parameters<typeof emit>);
  } as typeof emit;
}
