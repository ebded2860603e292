// Plumbing the loopback test servers share (the OpenAI-compatible stubs and the fake Dify): a request body read in
// full, delays that closing the server cancels, and listening on 127.0.0.1 at an ephemeral port.
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The whole request body; rejects when the request fails. */
export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** `wait(ms)` resolves after ms; `cancelAll()` (on close) clears the pending ones so no timer outlives the server. */
export function cancellableDelays(): { wait(ms: number): Promise<void>; cancelAll(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
    cancelAll() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Listens on 127.0.0.1 at an ephemeral port; `close()` drops open connections, then stops the server. */
export async function listenOnLoopback(server: Server): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
