// The part of autocannon's API the load test uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
  }

  interface Result {
    requests: { total: number; average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    throughput: { average: number };
  }

  interface Instance extends EventEmitter {
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    stop(): void;
  }

  export type { Result };
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
