#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Isolation under a hostile neighbour (contract.md §6.1): what team A's slow requests cost team B.

Starts esign-reference-server with --threads 2 (and --verbose, whose log line per request gives
the server's own time for it), fills team A through the API (ENVELOPES envelopes, each with a
recipient, the first 900 of them sent: the team's API credits) and takes its snapshot, then
measures team B's requests (whoami and envelope/get in alternation, one keep-alive connection;
GET /_control/health every 10th) three times in one run, the phases interleaved over ROUNDS
rounds:
  alone       nothing else runs;
  A busy      team A restores its snapshot in a loop on 8 connections (8 processes, so that this
              client's own measurements do not wait for them), every 4th request of each being
              the largest logs/list filter (every envelope event type, last page) instead;
  A busy, A's clients at nice 19
              the same load, its 8 client processes at the lowest CPU priority: on a machine
              with few cores, A's clients and B's client share the cores with the server, and
              this phase tells what B waits for in the server from what it waits for a core.
For each phase it prints B's median and p99 latency in milliseconds as B's client saw it
(end to end) and as the server spent it (from the request's header to its answer, the
--verbose log), their ratios to B alone, and how many requests A got answered meanwhile.
Target: B's p99 with A busy within 2x of B alone.

    python3 bench/http_isolation.py SERVER [--envelopes 400] [--samples 400] [--rounds 3]
                                           [--threads 2] [--connections 8] [--max-body BYTES]

SERVER: the esign-reference-server executable (an optimized build: see bench/README.md).
"""
import argparse
import http.client
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import tempfile
import time

CREATE = json.dumps({"title": "Contract", "documents": [{"title": "d", "pageCount": 2}]})
RECIPIENT = [{"type": "manual", "email": "s@example.com", "firstname": "S", "lastname": "T"}]
EVENT_TYPES = [
    "ENVELOPE_CREATED", "ENVELOPE_SENT", "ENVELOPE_OPENED", "RECIPIENT_VERIFIED", "RECIPIENT_APPROVED",
    "DOCUMENT_SIGNED", "ENVELOPE_COMPLETED", "ENVELOPE_DECLINED", "ENVELOPE_CANCELED", "ENVELOPE_EXPIRED",
]
# B's paths (A sends only restores and logs/list), and the marker that starts a phase in the log.
B_PATHS = ("/public/utils/whoami", "/public/envelope/get")
MARKER = "/_isolation-bench/phase/"
# One --verbose line: "esign-reference-server: POST /public/utils/whoami -> 200 (… bytes, 0.045 ms)".
LOG_LINE = re.compile(r"^esign-reference-server: (\S+) (\S+) -> (\d+) \((\d+) bytes, (\d+)\.(\d+) ms\)$")
# Each phase: its name, and the niceness of A's client processes (None: A sends nothing).
PHASES = (("alone", None), ("A busy", 0), ("A busy, A's clients at nice 19", 19))


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


def server_times(log_path):
    """B's requests' times as the server logged them, by phase (a marker request starts one; B's
    requests are sequential, so each is logged, before its answer is sent, within its phase)."""
    by_phase, phase = {}, None
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            m = LOG_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            path, ms = m.group(2), int(m.group(5)) + int(m.group(6)) / 1000
            if path.startswith(MARKER):
                phase = path[len(MARKER):]
            elif path in B_PATHS and phase is not None:
                by_phase.setdefault(phase, []).append(ms / 1000)
    return by_phase


def start_server(exe, threads, max_body, log):
    # The log goes to a file: a pipe that this script read would make the server's log writes
    # wait for this script's threads, and those threads B's client.
    proc = subprocess.Popen([exe, "--listen", "127.0.0.1:0", "--threads", str(threads), "--max-body", str(max_body),
                             "--verbose"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
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


def hostile(port, key, snapshot, logs_body, niceness, stop, answered):
    if niceness:
        os.nice(niceness)
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
    parser.add_argument("--samples", type=int, default=400, help="B's requests per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--max-body", type=int, default=1 << 20)
    args = parser.parse_args()

    log = tempfile.NamedTemporaryFile(prefix="esign-isolation-", suffix=".log")
    proc, port = start_server(args.server, args.threads, args.max_body, log)
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

        seen = {name: {"b": [], "health": [], "server": [], "a": 0, "seconds": 0.0, "tag": []} for name, _ in PHASES}
        for round_ in range(args.rounds):
            for index, (name, niceness) in enumerate(PHASES):
                tag = f"{round_}-{index}"
                b_client.request("POST", MARKER + tag, "{}")  # 404: a line in the log that starts the phase
                workers, stop, answered = [], multiprocessing.Event(), multiprocessing.Value("l", 0)
                if niceness is not None:
                    workers = [multiprocessing.Process(target=hostile, args=(port, a["apiKey"], snapshot, logs_body,
                                                                             niceness, stop, answered))
                               for _ in range(args.connections)]
                    for w in workers:
                        w.start()
                    while answered.value < 2 * args.connections:  # every connection of A is busy
                        time.sleep(0.05)
                begin, before = time.perf_counter(), answered.value
                b_times, health = measure(b_client, args.samples, envelope_body)
                seen[name]["seconds"] += time.perf_counter() - begin
                seen[name]["a"] += answered.value - before
                stop.set()
                for w in workers:
                    w.join()
                seen[name]["b"] += b_times
                seen[name]["health"] += health
                seen[name]["tag"].append(tag)

        b_client.request("POST", MARKER + "end", "{}")
        logged = server_times(log.name)
        for s in seen.values():
            for tag in s["tag"]:
                s["server"] += logged.get(tag, [])
        print(f"snapshot of A: {len(snapshot)} bytes; server --threads {args.threads}; "
              f"{args.connections} connections of A; {args.rounds} rounds of {args.samples} of B's requests a phase")
        alone_e2e, alone_server = stats(seen["alone"]["b"]), stats(seen["alone"]["server"])
        for name, niceness in PHASES:
            s = seen[name]
            em, ep = stats(s["b"])
            sm, sp = stats(s["server"]) if s["server"] else (float("nan"), float("nan"))
            hm, hp = stats(s["health"])
            print(f"{name}:")
            print(f"  B end to end:    median {em:7.3f} ms  p99 {ep:7.3f} ms   "
                  f"ratio median {em / alone_e2e[0]:6.2f}x  p99 {ep / alone_e2e[1]:6.2f}x")
            print(f"  B in the server: median {sm:7.3f} ms  p99 {sp:7.3f} ms   "
                  f"ratio median {sm / alone_server[0]:6.2f}x  p99 {sp / alone_server[1]:6.2f}x   "
                  f"({len(s['server'])} logged)")
            print(f"  health:          median {hm:7.3f} ms  p99 {hp:7.3f} ms")
            if niceness is not None:
                print(f"  A meanwhile: {s['a']} requests answered in {s['seconds']:.1f} s")
    finally:
        proc.terminate()
        proc.wait()
        log.close()


if __name__ == "__main__":
    main()
