// HTTP request: the URL is rendered from the pool and must be an http(s) URL (nodes/http_request/executor.py
// _init_url raises InvalidURLError otherwise). The response is a typed placeholder in a dry run: nothing is fetched.

import { failed, succeeded, type NodeExecutor } from "../types";

export const httpRequestExecutor: NodeExecutor = {
  async run(data, ctx) {
    const url = ctx.pool.render(typeof data.url === "string" ? data.url : "");
    if (!url.text) return failed("url is required", url.mocked);
    if (!/^https?:\/\//.test(url.text)) return failed("url should start with http:// or https://", url.mocked);
    return succeeded({ status_code: 200, body: `[response body of GET ${url.text.slice(0, 200)}]`, headers: {}, files: [] }, true);
  },
};
