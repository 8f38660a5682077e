#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Isolation under a hostile neighbour (contract.md §6.1): what team A's slow requests cost team B.

Starts esign-reference-server with --threads 2, fills team A through the API (ENVELOPES
envelopes, each with a recipient, the first 900 of them sent: the team's API credits) and takes
its snapshot, then measures team B's requests (whoami and envelope/get in alternation, one
keep-alive connection; GET /_control/health every 10th) twice in one run:
  alone     nothing else runs;
  A busy    team A restores its snapshot in a loop on 8 connections (8 processes, so that this
            client's own measurements do not wait for them), every 4th request of each being
            the largest logs/list filter (every envelope event type, last page) instead.
and prints B's median and p99 latency in milliseconds for both, their ratio, and how many
requests A got answered meanwhile. Target: B's p99 with A busy within 2x of B alone.

    python3 bench/http_isolation.py SERVER [--envelopes 400] [--samples 400] [--threads 2] [--max-body BYTES]

SERVER: the esign-reference-server executable (an optimized build: see bench/README.md).
"""
import argparse
import http.client
import json
import multiprocessing
import statistics
import subprocess
import time

CREATE = json.dumps({"title": "Contract", "documents": [{"title": "d", "pageCount": 2}]})
RECIPIENT = [{"type": "manual", "email": "s@example.com", "firstname": "S", "lastname": "T"}]
EVENT_TYPES = [
    "ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED", "RECIPIENT_VERIFIED", "RECIPIENT_APPROVED",
    "DOCUMENT_SIGNED", "ENVELOPE_COMPLETED", "ENVELOPE_DECLINED", "ENVELOPE_CANCELED", "ENVELOPE_EXPIRED",
]


class Client:
    def __init__(self, port, key=None, timeout=120):
        self.port = port
        self.key = key
        self.timeout = timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def request(self, method, path, body=None):
        headers = {}
        if method == "POST":
            headers["Content-Type"] = "application/json"
        if self.key:
            headers["Authorization"] = "Bearer " + self.key
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body, headers)
                reply = self.conn.getresponse()
                return reply.status, reply.read()
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                if attempt:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)

    def post(self, path, body, expect=200):
        status, data = self.request("POST", path, body)
        if expect is not None and status != expect:
            raise RuntimeError(f"{path}: {status} {data[:300]!r}")
        return data


def start_server(exe, threads, max_body):
    proc = subprocess.Popen([exe, "--listen", "127.0.0.1:0", "--threads", str(threads), "--max-body", str(max_body)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, int(line.strip().rsplit(":", 1)[1])


def new_team(port):
    return json.loads(Client(port).post("/_control/team/create", "{}"))


def fill(client, count):
    for i in range(count):
        env = json.loads(client.post("/_control/envelope/create", CREATE))["envelopeUuid"]
        client.post("/public/envelope/add-recipients", json.dumps({"envelopeUuid": env, "recipients": RECIPIENT}))
        if i < 900:  # within the team's API credits
            client.post("/public/envelope/send", json.dumps({"envelopeUuid": env}))


def hostile(port, key, snapshot, logs_body, stop, answered):
    client = Client(port, key)
    n = 0
    while not stop.is_set():
        if n % 4 == 3:
            client.post("/public/logs/list", logs_body)
        else:
            client.post("/_control/team/restore", snapshot)
        n += 1
        with answered.get_lock():
            answered.value += 1


def measure(client, samples, envelope_body):
    whoami, get, health = [], [], []
    plain = Client(client.port)
    for i in range(samples):
        start = time.perf_counter()
        if i % 2 == 0:
            client.post("/public/utils/whoami", "{}")
            whoami.append(time.perf_counter() - start)
        else:
            client.post("/public/envelope/get", envelope_body)
            get.append(time.perf_counter() - start)
        if i % 10 == 0:
            start = time.perf_counter()
            status, _ = plain.request("GET", "/_control/health")
            if status != 200:
                raise RuntimeError(f"health: {status}")
            health.append(time.perf_counter() - start)
    return whoami + get, health


def stats(xs):
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]
    return statistics.median(xs) * 1000, p99 * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("server")
    parser.add_argument("--envelopes", type=int, default=400)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--max-body", type=int, default=1 << 20)
    args = parser.parse_args()

    proc, port = start_server(args.server, args.threads, args.max_body)
    try:
        a = new_team(port)
        a_client = Client(port, a["apiKey"])
        fill(a_client, args.envelopes)
        snapshot = a_client.post("/_control/team/snapshot", "{}")
        logs = json.loads(a_client.post("/public/logs/list", json.dumps({"category": "envelope", "limit": 50})))
        last_page = max(1, logs["pagination"].get("totalPages", 1))
        logs_body = json.dumps({"category": "envelope", "eventTypes": EVENT_TYPES, "page": last_page, "limit": 50})

        b = new_team(port)
        b_client = Client(port, b["apiKey"])
        env = json.loads(b_client.post("/_control/envelope/create", CREATE))["envelopeUuid"]
        envelope_body = json.dumps({"envelopeUuid": env})
        measure(b_client, 50, envelope_body)  # warm up

        alone, alone_health = measure(b_client, args.samples, envelope_body)

        stop = multiprocessing.Event()
        answered = multiprocessing.Value("l", 0)
        workers = [multiprocessing.Process(target=hostile, args=(port, a["apiKey"], snapshot, logs_body, stop, answered))
                   for _ in range(args.connections)]
        for w in workers:
            w.start()
        while answered.value < 2 * args.connections:  # every connection of A is busy
            time.sleep(0.05)
        begin, before = time.perf_counter(), answered.value
        busy, busy_health = measure(b_client, args.samples, envelope_body)
        elapsed, a_done = time.perf_counter() - begin, answered.value - before
        stop.set()
        for w in workers:
            w.join()

        am, ap = stats(alone)
        bm, bp = stats(busy)
        hm, hp = stats(alone_health)
        km, kp = stats(busy_health)
        print(f"snapshot of A: {len(snapshot)} bytes; server --threads {args.threads}; "
              f"{args.connections} connections of A")
        print(f"B alone:  median {am:8.2f} ms  p99 {ap:8.2f} ms   health median {hm:8.2f} ms  p99 {hp:8.2f} ms")
        print(f"A busy:   median {bm:8.2f} ms  p99 {bp:8.2f} ms   health median {km:8.2f} ms  p99 {kp:8.2f} ms")
        print(f"ratio:    median {bm / am:8.2f} x   p99 {bp / ap:8.2f} x")
        print(f"A meanwhile: {a_done} requests answered in {elapsed:.1f} s")
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
