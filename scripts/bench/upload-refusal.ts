// `npm run bench:upload-refusal`: how an anonymous 60 MB upload is refused — time to the answer and how much of the
// body the client managed to send before it (the server answers before reading). Against BENCH_URL (loopback, a
// running server); test:load runs it against its own server too.
import http from "node:http";

const SIZE = 60 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

export interface RefusalFigure {
  target: string;
  status: number;
  millis: number;
  /** Bytes the client had written when the answer arrived. */
  bytesSentBeforeAnswer: number;
}

/**
 * Posts SIZE bytes to `path` with `headers` and no session, 64 KiB every 20 ms so that little waits in the sockets'
 * buffers: what the client has written when the answer comes bounds what the server can have read.
 */
export function postLarge(base: string, path: string, headers: Record<string, string>, size = SIZE): Promise<RefusalFigure> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const started = performance.now();
    let sent = 0;
    let answered = false;
    const request = http.request(url, { method: "POST", headers: { "content-length": String(size), ...headers } }, (response) => {
      answered = true;
      const figure = { target: path, status: response.statusCode ?? 0, millis: Math.round(performance.now() - started), bytesSentBeforeAnswer: sent };
      response.resume();
      request.destroy();
      resolve(figure);
    });
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      if (answered) return;
      if (sent >= size) return void request.end();
      sent += CHUNK.length;
      if (request.write(CHUNK)) setTimeout(pump, 20);
      else request.once("drain", () => setTimeout(pump, 20));
    };
    pump();
  });
}

/** Five anonymous 60 MB posts to the upload route and five to a server action endpoint. */
export async function measureUploadRefusals(base: string): Promise<RefusalFigure[]> {
  const figures: RefusalFigure[] = [];
  for (let i = 0; i < 5; i++) figures.push(await postLarge(base, "/api/imports", { "content-type": "multipart/form-data; boundary=x" }));
  for (let i = 0; i < 5; i++) figures.push(await postLarge(base, "/import", { "content-type": "multipart/form-data; boundary=x", "next-action": "0".repeat(40) }));
  return figures;
}

const invokedDirectly = process.argv[1]?.endsWith("upload-refusal.ts");
if (invokedDirectly) {
  const base = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
  if (!["127.0.0.1", "localhost"].includes(new URL(base).hostname)) throw new Error("loopback only");
  measureUploadRefusals(base).then((figures) => {
    for (const figure of figures) console.log(JSON.stringify(figure));
  });
}
