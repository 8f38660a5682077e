#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""What a request costs over HTTP as a team's data grows (issue: one million envelopes per team).

Starts esign-reference-server, makes one team holding SMALL envelopes and one holding LARGE
(control envelope/create, one keep-alive connection), then measures each request on both teams
in alternation over several rounds (the machine is noisy) and prints the medians in
microseconds per request, as seen by this client (Python's own cost included, the same for both
teams), and their ratio.

    python3 bench/http_scale.py SERVER [--small 1000] [--large 100000] [--rounds 5] [--samples 300]

SERVER: the esign-reference-server executable (an optimized build: see bench/README.md).
"""
import argparse
import http.client
import json
import statistics
import subprocess
import time

CREATE = json.dumps({"title": "Contract", "documents": [{"title": "d", "pageCount": 2}]})


class Client:
    def __init__(self, port, key=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.key = key

    def post(self, path, body):
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = "Bearer " + self.key
        try:
            self.conn.request("POST", path, body, headers)
            reply = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # The server closed a connection left idle (while the other team was made): again.
            self.conn.close()
            self.conn.request("POST", path, body, headers)
            reply = self.conn.getresponse()
        data = reply.read()
        if reply.status != 200:
            raise RuntimeError(f"{path} {body}: {reply.status} {data[:300]!r}")
        return data


def make_team(port, count, name):
    operator = Client(port)
    team = json.loads(operator.post("/_control/team/create", json.dumps({"name": name, "seed": 7})))
    client = Client(port, team["apiKey"])
    uuids, last = [], []
    for i in range(count):
        start = time.perf_counter()
        made = json.loads(client.post("/_control/envelope/create", CREATE))
        if i >= count - 1000:
            last.append(time.perf_counter() - start)
        uuids.append(made["envelopeUuid"])
    first = json.loads(client.post("/public/envelope/list", "{}"))
    last_page = json.dumps({"page": first["pagination"]["totalPages"]})
    picks = [uuids[(i * 7919) % len(uuids)] for i in range(1024)]
    return {
        "client": client,
        "create_us": statistics.median(last) * 1e6,  # the last 1000 creations
        "requests": {
            "envelope/get": ("/public/envelope/get", [json.dumps({"envelopeUuid": u}) for u in picks]),
            "envelope/list, page 1": ("/public/envelope/list", ["{}"]),
            "envelope/list, last page": ("/public/envelope/list", [last_page]),
            "envelope/list, status draft": ("/public/envelope/list", [json.dumps({"status": ["draft"]})]),
            "logs/list, page 1": ("/public/logs/list", [json.dumps({"category": "envelope"})]),
            "logs/list of one envelope": (
                "/public/logs/list",
                [json.dumps({"category": "envelope", "envelopeUuid": u}) for u in picks],
            ),
        },
    }


def measure(team, name, samples):
    path, bodies = team["requests"][name]
    times = []
    for i in range(samples):
        body = bodies[i % len(bodies)]
        start = time.perf_counter()
        team["client"].post(path, body)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--samples", type=int, default=300)
    args = ap.parse_args()

    proc = subprocess.Popen([args.server, "--listen", "127.0.0.1:0", "--threads", "2", "--journal-size", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline().strip().rsplit(":", 1)[1])
        started = time.perf_counter()
        small = make_team(port, args.small, "small")
        large = make_team(port, args.large, "large")
        print(f"made {args.small} + {args.large} envelopes in {time.perf_counter() - started:.1f} s")
        names = list(small["requests"])
        results = {(n, s): [] for n in names for s in ("small", "large")}
        for _ in range(args.rounds):
            for n in names:
                for label, team in (("small", small), ("large", large)):
                    results[(n, label)].append(measure(team, n, args.samples))
        print(f"| request | {args.small:,} | {args.large:,} | ratio |")
        print("|---|---|---|---|")
        for n in names:
            a = statistics.median(results[(n, "small")])
            b = statistics.median(results[(n, "large")])
            print(f"| {n} | {a:.0f} | {b:.0f} | {b / a:.2f}x |")
        a, b = small["create_us"], large["create_us"]
        print(f"| control envelope/create (the last 1,000 made) | {a:.0f} | {b:.0f} | {b / a:.2f}x |")
        with open(f"/proc/{proc.pid}/status") as status:
            rss = next(line for line in status if line.startswith("VmRSS"))
        print(f"server {rss.strip()}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
