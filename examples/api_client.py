#!/usr/bin/env python3
"""Evaluate a model endpoint through the Chat2Workflow Studio HTTP API, standard library only.

Starts an evaluation, polls it until it has finished, then saves each run's pass records and run bundle and prints
a JSON summary on stdout (progress goes to stderr). See docs/api.md.

    C2W_API_URL=http://localhost:3000 C2W_API_TOKEN=c2w_... \
        python3 examples/api_client.py --benchmark chat2workflow --endpoint "my-endpoint" --out-dir results/
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class ApiError(Exception):
    def __init__(self, status, code, message):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code


class Client:
    def __init__(self, base_url, token):
        self.base_url = base_url.rstrip("/")
        self.token = token

    def request(self, method, path, body=None, raw=False):
        data = None if body is None else json.dumps(body).encode("utf-8")
        for _ in range(5):
            req = urllib.request.Request(self.base_url + path, data=data, method=method)
            req.add_header("Authorization", f"Bearer {self.token}")
            if data is not None:
                req.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(req, timeout=60) as response:
                    payload = response.read()
                    return payload if raw else json.loads(payload)
            except urllib.error.HTTPError as error:
                answer = json.loads(error.read() or b"{}").get("error", {})
                if error.code == 429:
                    # The token's rate limit: wait as long as the server asks, then try again.
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                raise ApiError(error.code, answer.get("code"), answer.get("message")) from None
        raise ApiError(429, "rate_limited", "still rate limited after 5 tries")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", required=True, help="benchmark id or slug")
    parser.add_argument("--endpoint", required=True, help="model endpoint id or label")
    parser.add_argument("--mode", default="zero-shot", choices=["zero-shot", "agentic", "agentic-opencode", "feedback"])
    parser.add_argument("--judge", default="rule", choices=["none", "rule"])
    parser.add_argument("--out-dir", default=".")
    parser.add_argument("--poll-seconds", type=float, default=2.0)
    parser.add_argument("--timeout-seconds", type=float, default=3600.0)
    args = parser.parse_args()

    client = Client(os.environ.get("C2W_API_URL", "http://localhost:3000"), os.environ["C2W_API_TOKEN"])
    try:
        benchmarks = client.request("GET", "/api/v1/benchmarks")["benchmarks"]
        print(f"benchmarks: {', '.join(b['slug'] for b in benchmarks)}", file=sys.stderr)
        started = client.request("POST", "/api/v1/evaluations", {
            "benchmark": args.benchmark, "endpoint": args.endpoint, "mode": args.mode,
            "runs": 1, "judge": {"kind": args.judge},
        })
        print(f"evaluation {started['id']} started", file=sys.stderr)
        deadline = time.time() + args.timeout_seconds
        while True:
            evaluation = client.request("GET", f"/api/v1/evaluations/{started['id']}")
            turns = evaluation["runs"][0]["turns"]
            print(f"  {evaluation['status']}: {turns['stored']}/{turns['total']} turns", file=sys.stderr)
            if evaluation["status"] != "running" or time.time() > deadline:
                break
            time.sleep(args.poll_seconds)

        os.makedirs(args.out_dir, exist_ok=True)
        runs = []
        for run in evaluation["runs"]:
            records = client.request("GET", f"/api/v1/runs/{run['id']}/pass-records")
            records_path = os.path.join(args.out_dir, f"pass_records_{run['id']}.json")
            with open(records_path, "w", encoding="utf-8") as handle:
                json.dump(records, handle, indent=4, ensure_ascii=False)
            bundle_path = os.path.join(args.out_dir, f"bundle_{run['id']}.zip")
            with open(bundle_path, "wb") as handle:
                handle.write(client.request("GET", f"/api/v1/runs/{run['id']}/bundle", raw=True))
            valid = sum(1 for record in records if record["valid"])
            runs.append({"id": run["id"], "valid": valid, "records": len(records), "passRecords": records_path, "bundle": bundle_path})

        query = urllib.parse.urlencode({"benchmark": args.benchmark})
        rows = client.request("GET", f"/api/v1/leaderboard?{query}")["rows"]
        print(json.dumps({"evaluation": evaluation["id"], "status": evaluation["status"], "runs": runs, "leaderboardRows": len(rows)}))
        return 0 if evaluation["status"] == "succeeded" else 1
    except ApiError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
