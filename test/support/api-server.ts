// A loopback HTTP server serving the app's /api/v1 route handlers (app/api/v1/**/route.ts) as they are, so tests and
// the API examples talk HTTP to the real handlers on the test database: requests become Web Requests (the body
// streamed, Content-Length kept) and the handlers' Responses are written back byte for byte.
import { readdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface RouteEntry {
  pattern: RegExp;
  names: string[];
  methods: Record<string, Handler>;
}

const ROOT = path.resolve(__dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? routeFiles(full) : entry === "route.ts" ? [full] : [];
  });
}

async function loadRoutes(): Promise<RouteEntry[]> {
  const entries: RouteEntry[] = [];
  for (const file of routeFiles(API_DIR)) {
    const segments = path.relative(ROOT, path.dirname(file)).split(path.sep).slice(1);
    const names: string[] = [];
    const pattern = segments
      .map((segment) => {
        const param = /^\[(\w+)\]$/.exec(segment);
        if (!param) return segment.replace(/[.]/g, "\\.");
        names.push(param[1]!);
        return "([^/]+)";
      })
      .join("/");
    const loaded = (await import(file)) as Record<string, unknown>;
    const methods: Record<string, Handler> = {};
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) if (typeof loaded[method] === "function") methods[method] = loaded[method] as Handler;
    entries.push({ pattern: new RegExp(`^/${pattern}$`), names, methods });
  }
  return entries;
}

export interface ApiServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

async function answer(routes: RouteEntry[], origin: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const url = new URL(incoming.url ?? "/", origin);
  const route = routes.find((entry) => entry.pattern.test(url.pathname));
  const handler = route?.methods[incoming.method ?? "GET"];
  if (!route || !handler) {
    outgoing.writeHead(route ? 405 : 404, { "content-type": "application/json" });
    outgoing.end(JSON.stringify({ error: { code: route ? "malformed" : "not_found", message: "no such route" } }));
    return;
  }
  const match = route.pattern.exec(url.pathname)!;
  const params = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  const request = new Request(url, {
    method: incoming.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (outHeaders[name] = value));
  outgoing.writeHead(response.status, outHeaders);
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

export async function startApiServer(): Promise<ApiServer> {
  const routes = await loadRoutes();
  let origin = "";
  const server: Server = createServer((incoming, outgoing) => {
    answer(routes, origin, incoming, outgoing).catch((error: unknown) => {
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
