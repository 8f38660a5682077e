#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""esign-reference-server side by side with a bare Boost.Beast server and Prism, under wrk.

    python3 bench/http_compare.py --server build/release/examples/esign-reference-server \\
        --bare build/release/esign-bare-server [--prism auto|PATH|none] [--duration 10] \\
        [--rounds 3] [--connections 64] [--only get,add-recipients,logs,teams,startup,rss]

Starts the three servers (each as it starts by default: esign-reference-server and
esign-bare-server with one HTTP thread per hardware thread), then, in rounds, runs wrk for
--duration seconds on each measurement in turn (the contenders interleaved), and prints the
median of the rounds:

- envelope/get at --connections connections: esign (a draft envelope with one document, in a
  team of its own as contract.md §6 asks of every test suite), the bare server (a fixed body of
  the size of esign's answer), Prism (mocking esign's own OpenAPI document, GET /openapi.json);
- add-recipients (one new recipient a request, e-mails never repeated, spread over a fresh team's
  --pool envelopes each round) and logs/list (page 1: 50 entries), esign only;
- 8 teams in parallel vs 1 team: envelope/get and envelope/update alternating, rotating over one
  team's key or eight teams' keys (one wrk, a Lua script);
- time from the start of the process to an accepted connection (connect polled every 0.2 ms);
- resident memory (VmRSS) of a fresh esign server holding --rss-envelopes envelopes, made with
  control envelope/create (as bench/http_scale.py makes them).

wrk and the servers share the machine's cores. Prism (npm @stoplight/prism-cli, see
bench/README.md) is looked for in ~/.cache/esign-prism; without it, its column is left out.
Python 3.11 standard library only; wrk must be on PATH (or --wrk).
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_scale import CREATE, Client  # noqa: E402  (the same envelopes, the same client)

DEFAULT_PRISM = Path.home() / ".cache" / "esign-prism" / "node_modules" / ".bin" / "prism"
MEASURES = ("get", "add-recipients", "logs", "teams", "startup", "rss")

# Every wrk script ends with this: one machine-readable line (latencies in microseconds).
DONE_LUA = r"""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,' ..
    '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def lua_string(text):
    assert "]==]" not in text
    return "[==[" + text + "]==]"


def static_script(path, body, key):
    """One request, the same every time (wrk sends it without calling Lua per request)."""
    lines = ['wrk.method = "POST"', f"wrk.path = {lua_string(path)}", f"wrk.body = {lua_string(body)}",
             'wrk.headers["Content-Type"] = "application/json"']
    if key:
        lines.append(f'wrk.headers["Authorization"] = {lua_string("Bearer " + key)}')
    return "\n".join(lines) + "\n" + DONE_LUA


def rotating_script(requests):
    """Requests (path, key, body) sent in turn by each wrk thread, formatted once in init."""
    entries = ",\n".join(
        "  {" + ", ".join(lua_string(x) for x in r) + "}" for r in requests)
    return f"""
local specs = {{
{entries}
}}
local formatted = {{}}
local next_index = 0
init = function(args)
  for i, s in ipairs(specs) do
    formatted[i] = wrk.format("POST", s[1], {{["Content-Type"] = "application/json",
                                              ["Authorization"] = "Bearer " .. s[2]}}, s[3])
  end
end
request = function()
  next_index = next_index % #formatted + 1
  return formatted[next_index]
end
""" + DONE_LUA


def add_recipients_script(key, envelopes, tag):
    """add-recipients of one new recipient, the envelopes in turn, every e-mail new (the tag
    tells runs apart, the thread number threads, a counter requests)."""
    uuids = ", ".join(lua_string(u) for u in envelopes)
    return f"""
wrk.method = "POST"
wrk.path = "/public/envelope/add-recipients"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = {lua_string("Bearer " + key)}
local envelopes = {{ {uuids} }}
local threads_made = 0
setup = function(thread)
  thread:set("thread_number", threads_made)
  threads_made = threads_made + 1
end
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format(
    '{{"envelopeUuid":"%s","recipients":[{{"type":"manual","email":"r%s.%d.%d@example.com",' ..
    '"firstname":"Ada","lastname":"Lovelace"}}]}}',
    envelopes[counter % #envelopes + 1], "{tag}", thread_number, counter)
  return wrk.format(nil, nil, nil, body)
end
""" + DONE_LUA


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_connectable(port, proc, timeout, poll=0.0002):
    """Seconds until a TCP connection to port is accepted (None when the process died first)."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            return None
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return time.perf_counter() - start
        except OSError:
            time.sleep(poll)
    return None


class Server:
    """A server process on a port of its own, stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, name, argv, port, timeout=60, env=None):
        self.name, self.port = name, port
        self.started = time.perf_counter()
        # Output to a file, never a pipe nobody reads (a full pipe would stop the server).
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.ready_after = wait_connectable(port, self.proc, timeout)
        if self.ready_after is None:
            self.stop()
            self.log.seek(0)
            err = self.log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"{name} did not start listening on {port}: {' '.join(argv)}\n{err}")

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """User and system CPU time the process used so far (its threads included)."""
        with open(f"/proc/{self.proc.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def esign_argv(args, port):
    return [args.server, "--listen", f"127.0.0.1:{port}"] + args.server_arg


def bare_argv(args, port, body_bytes):
    return [args.bare, "--listen", f"127.0.0.1:{port}", "--body-bytes", str(body_bytes)]


def prism_argv(args, port, document):
    # Its fastest setting: static examples, warnings only in its log (no line per request).
    return [args.prism, "mock", "--host", "127.0.0.1", "--port", str(port), "--verboseLevel", "warn", str(document)]


def post(port, path, body, key=None):
    """One request on a connection of its own: (status, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    conn.request("POST", path, body, headers)
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, data


def make_team(port, name, envelopes):
    """A team of its own (control team/create) with envelopes made by control envelope/create."""
    operator = Client(port)
    team = json.loads(operator.post("/_control/team/create", json.dumps({"name": name})))
    client = Client(port, team["apiKey"])
    uuids = [json.loads(client.post("/_control/envelope/create", CREATE))["envelopeUuid"] for _ in range(envelopes)]
    client.conn.close()
    operator.conn.close()
    return team["apiKey"], uuids


def run_wrk(args, server, script_text, workdir, label):
    port = server.port
    cpu_before = server.cpu_seconds()
    script = Path(workdir) / (label.replace("/", "_").replace(" ", "_") + ".lua")
    script.write_text(script_text)
    argv = [args.wrk, "--latency", "-t", str(args.wrk_threads), "-c", str(args.connections),
            "-d", f"{args.duration}s", "--timeout", "10s", "-s", str(script), f"http://127.0.0.1:{port}"]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    line = next((x for x in out.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no result for {label}:\n{out}")
    r = json.loads(line[len("RESULT "):])
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    # The server's CPU per request: what it costs, apart from how the cores were shared with wrk.
    r["cpu_us"] = (server.cpu_seconds() - cpu_before) * 1e6 / max(1, r["requests"])
    errors = {k: r[k] for k in ("connect", "read", "write", "status", "timeout") if r[k]}
    r["errors"] = errors
    note = f"  errors {errors}" if errors else ""
    print(f"  {label}: {r['rps']:,.0f} requests/s, p50 {r['p50_us'] / 1000:.2f} ms, "
          f"p99 {r['p99_us'] / 1000:.2f} ms, server CPU {r['cpu_us']:.1f} µs/request{note}", flush=True)
    return r


def startup_ms(argv_of_port, runs, timeout):
    times = []
    for _ in range(runs):
        port = free_port()
        server = Server("startup", argv_of_port(port), port, timeout=timeout)
        times.append(server.ready_after * 1000)
        server.stop()
    return statistics.median(times), min(times), max(times)


def measure_rss(args):
    port = free_port()
    server = Server("esign (rss)", esign_argv(args, port), port)
    try:
        empty = server.rss_kib()
        key, _ = make_team(port, "rss", 0)
        started = time.perf_counter()
        workers = 4
        counts = [args.rss_envelopes // workers + (1 if i < args.rss_envelopes % workers else 0) for i in range(workers)]

        def make(count):
            client = Client(port, key)
            for _ in range(count):
                client.post("/_control/envelope/create", CREATE)
            client.conn.close()

        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            list(pool.map(make, counts))
        made_in = time.perf_counter() - started
        status, body = post(port, "/public/envelope/list", "{}", key)
        total = json.loads(body)["pagination"]["totalRecords"] if status == 200 else None
        return {"empty_kib": empty, "full_kib": server.rss_kib(), "envelopes": total, "made_s": made_in}
    finally:
        server.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="esign-reference-server (a Release build)")
    ap.add_argument("--bare", help="esign-bare-server (bench/bare_server)")
    ap.add_argument("--baseline", help="another esign-reference-server build (e.g. before a change), "
                    "measured on envelope/get too")
    ap.add_argument("--prism", default="auto",
                    help=f"prism executable, 'auto' ({DEFAULT_PRISM} or prism on PATH) or 'none'")
    ap.add_argument("--wrk", default=shutil.which("wrk") or "wrk")
    ap.add_argument("--duration", type=int, default=10, help="seconds of each wrk run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--wrk-threads", type=int, default=2)
    ap.add_argument("--pool", type=int, default=2000, help="envelopes add-recipients spreads over, each round")
    ap.add_argument("--rss-envelopes", type=int, default=100000)
    ap.add_argument("--startup-runs", type=int, default=10)
    ap.add_argument("--only", default=",".join(MEASURES), help="comma-separated subset of " + ",".join(MEASURES))
    ap.add_argument("--server-arg", action="append", default=[],
                    help="an extra argument for esign-reference-server (repeatable)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    if only - set(MEASURES):
        ap.error(f"--only: unknown {sorted(only - set(MEASURES))}")
    if not shutil.which(args.wrk) and not Path(args.wrk).is_file():
        ap.error("wrk not found (apt-get install wrk)")
    if args.prism == "auto":
        args.prism = str(DEFAULT_PRISM) if DEFAULT_PRISM.is_file() else shutil.which("prism")
        if not args.prism:
            print(f"Prism not found ({DEFAULT_PRISM}): its column is left out; install it as "
                  "bench/README.md says (section http_compare.py).", flush=True)
    elif args.prism == "none":
        args.prism = None
    if args.bare is None and "get" in only:
        print("no --bare: the bare server's column is left out", flush=True)

    print(f"{os.cpu_count()} hardware threads; wrk -t {args.wrk_threads} -c {args.connections} "
          f"-d {args.duration}s, {args.rounds} rounds; servers and wrk share the cores", flush=True)
    results = {}  # label -> list of wrk results
    servers = []
    with tempfile.TemporaryDirectory(prefix="esign-http-compare-") as workdir:
        try:
            port = free_port()
            esign = Server("esign", esign_argv(args, port), port)
            servers.append(esign)
            key, (get_uuid,) = make_team(port, "get", 1)
            get_body = json.dumps({"envelopeUuid": get_uuid})
            status, answer = post(port, "/public/envelope/get", get_body, key)
            assert status == 200, (status, answer[:300])
            print(f"esign envelope/get answer: {len(answer)} bytes", flush=True)

            runs = []  # (label, server, script maker): each round runs them all, in this order
            if "get" in only:
                runs.append(("envelope/get esign", esign, lambda r: static_script("/public/envelope/get", get_body, key)))
                if args.baseline:
                    base_port = free_port()
                    baseline = Server("baseline", [args.baseline, "--listen", f"127.0.0.1:{base_port}"]
                                      + args.server_arg, base_port)
                    servers.append(baseline)
                    base_key, (base_uuid,) = make_team(base_port, "get", 1)
                    base_body = json.dumps({"envelopeUuid": base_uuid})
                    runs.append(("envelope/get esign baseline", baseline,
                                 lambda r: static_script("/public/envelope/get", base_body, base_key)))
                if args.bare:
                    bare_port = free_port()
                    bare = Server("bare", bare_argv(args, bare_port, len(answer)), bare_port)
                    servers.append(bare)
                    runs.append(("envelope/get bare", bare,
                                 lambda r: static_script("/public/envelope/get", get_body, key)))
                if args.prism:
                    document = Path(workdir) / "openapi.json"
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json") as doc:
                        document.write_bytes(doc.read())
                    prism_port = free_port()
                    prism = Server("prism", prism_argv(args, prism_port, document), prism_port, timeout=120)
                    servers.append(prism)
                    status, prism_answer = post(prism_port, "/public/envelope/get", get_body, key)
                    print(f"Prism envelope/get answer: {status}, {len(prism_answer)} bytes", flush=True)
                    if status != 200:
                        raise RuntimeError(f"Prism answered {status}: {prism_answer[:300]!r}")
                    runs.append(("envelope/get prism", prism,
                                 lambda r: static_script("/public/envelope/get", get_body, key)))
            if "add-recipients" in only:
                def add_script(r):
                    pool_key, pool = make_team(port, f"add-{r}", args.pool)
                    return add_recipients_script(pool_key, pool, f"{r}")
                runs.append(("add-recipients esign", esign, add_script))
            if "logs" in only:
                logs_key, _ = make_team(port, "logs", 200)
                logs_body = json.dumps({"category": "envelope"})
                status, logs = post(port, "/public/logs/list", logs_body, logs_key)
                assert status == 200 and len(json.loads(logs)["logs"]) == 50, (status, logs[:300])
                print(f"esign logs/list answer: {len(logs)} bytes (50 entries)", flush=True)
                runs.append(("logs/list esign", esign, lambda r: static_script("/public/logs/list", logs_body, logs_key)))
            if "teams" in only:
                teams = [make_team(port, f"team-{i}", 1) for i in range(8)]

                def mix(team):
                    k, (u,) = team
                    return [("/public/envelope/get", k, json.dumps({"envelopeUuid": u})),
                            ("/public/envelope/update", k,
                             json.dumps({"envelopeUuid": u, "update": {"title": "Contract"}}))]
                for t in teams:
                    for p, k, b in mix(t):
                        status, answer_t = post(port, p, b, k)
                        assert status == 200, (p, status, answer_t[:300])
                one = mix(teams[0])
                eight = [r for t in teams for r in mix(t)]
                runs.append(("get+update, 1 team", esign, lambda r: rotating_script(one)))
                runs.append(("get+update, 8 teams", esign, lambda r: rotating_script(eight)))

            for r in range(1, args.rounds + 1):
                print(f"round {r}", flush=True)
                for label, server, script in runs:
                    results.setdefault(label, []).append(run_wrk(args, server, script(r), workdir, label))
        finally:
            for s in servers:
                s.stop()

    startup = {}
    if "startup" in only:
        print(f"startup: {args.startup_runs} starts each", flush=True)
        startup["esign"] = startup_ms(lambda p: esign_argv(args, p), args.startup_runs, 60)
        if args.bare:
            startup["bare"] = startup_ms(lambda p: bare_argv(args, p, 1024), args.startup_runs, 60)
        if args.prism and "get" in only:
            # Prism needs the document: written again, since the work directory is gone.
            with tempfile.TemporaryDirectory(prefix="esign-http-compare-") as workdir:
                port = free_port()
                esign = Server("esign", esign_argv(args, port), port)
                document = Path(workdir) / "openapi.json"
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json") as doc:
                    document.write_bytes(doc.read())
                esign.stop()
                startup["prism"] = startup_ms(lambda p: prism_argv(args, p, document), min(3, args.startup_runs), 120)
        for name, (med, lo, hi) in startup.items():
            print(f"  {name}: median {med:.1f} ms (min {lo:.1f}, max {hi:.1f})", flush=True)

    rss = None
    if "rss" in only and args.rss_envelopes > 0:
        print(f"rss: a fresh esign server, {args.rss_envelopes:,} envelopes", flush=True)
        rss = measure_rss(args)
        print(f"  made in {rss['made_s']:.1f} s; VmRSS {rss['empty_kib'] / 1024:.1f} MiB empty, "
              f"{rss['full_kib'] / 1024:.1f} MiB with {rss['envelopes']:,} envelopes", flush=True)

    report(args, results, startup, rss)


def median_of(results, label, key):
    runs = results.get(label)
    return statistics.median(r[key] for r in runs) if runs else None


def report(args, results, startup, rss):
    print()
    print(f"Medians of {args.rounds} rounds of {args.duration} s, {args.connections} connections, "
          f"wrk -t {args.wrk_threads} on the same {os.cpu_count()} cores as the servers.")
    print()
    print("| measurement | requests/s | p50 ms | p99 ms | server CPU µs/request | errors |")
    print("|---|---|---|---|---|---|")
    for label, runs in results.items():
        errors = sum(sum(r["errors"].values()) for r in runs)
        print(f"| {label} | {median_of(results, label, 'rps'):,.0f} | {median_of(results, label, 'p50_us') / 1000:.2f} "
              f"| {median_of(results, label, 'p99_us') / 1000:.2f} | {median_of(results, label, 'cpu_us'):.1f} | {errors} |")
    print()
    rows = []
    e_rps = median_of(results, "envelope/get esign", "rps")
    e_p99 = median_of(results, "envelope/get esign", "p99_us")
    b_rps = median_of(results, "envelope/get bare", "rps")
    b_p99 = median_of(results, "envelope/get bare", "p99_us")
    p_rps = median_of(results, "envelope/get prism", "rps")
    if e_rps and b_rps:
        ratio = e_rps / b_rps
        rows.append(("envelope/get requests/s, esign / bare", f"{ratio:.3f}x", ">= 0.6x", ratio >= 0.6))
        ratio = e_p99 / b_p99
        rows.append(("envelope/get p99, esign / bare", f"{ratio:.3f}x", "<= 1.5x", ratio <= 1.5))
        ratio = median_of(results, "envelope/get esign", "cpu_us") / median_of(results, "envelope/get bare", "cpu_us")
        rows.append(("envelope/get server CPU per request, esign / bare", f"{ratio:.2f}x", "", None))
    base_rps = median_of(results, "envelope/get esign baseline", "rps")
    if e_rps and base_rps:
        rows.append(("envelope/get requests/s, esign / esign baseline", f"{e_rps / base_rps:.2f}x", "", None))
        if b_rps:
            rows.append(("envelope/get requests/s, esign baseline / bare", f"{base_rps / b_rps:.2f}x", "", None))
    if e_rps and p_rps:
        ratio = e_rps / p_rps
        rows.append(("envelope/get requests/s, esign / Prism", f"{ratio:.1f}x", ">= 20x", ratio >= 20))
    one = median_of(results, "get+update, 1 team", "rps")
    eight = median_of(results, "get+update, 8 teams", "rps")
    if one and eight:
        ratio = eight / one
        rows.append(("get+update requests/s, 8 teams / 1 team", f"{ratio:.2f}x", ">= 1x (§6.1)", ratio >= 1))
    for name, (med, _, _) in startup.items():
        target, met = ("< 50 ms", med < 50) if name == "esign" else ("", None)
        rows.append((f"start to listening, {name}", f"{med:.1f} ms", target, met))
    if rss:
        rows.append((f"VmRSS, esign with {rss['envelopes']:,} envelopes", f"{rss['full_kib'] / 1024:.0f} MiB",
                     f"(empty: {rss['empty_kib'] / 1024:.1f} MiB)", None))
    if rows:
        print("| comparison | value | target | met |")
        print("|---|---|---|---|")
        for name, value, target, met in rows:
            print(f"| {name} | {value} | {target} | {'' if met is None else ('met' if met else 'MISSED')} |")


if __name__ == "__main__":
    main()
