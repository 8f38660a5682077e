#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Smoke test of esign-bare-server (bench/http_compare.py's floor): it starts, answers a POST
with the fixed body of the size asked for, keeps the connection alive for a second request,
and stops on SIGTERM with status 0.

    python3 bench/bare_server/smoke_test.py BUILD/esign-bare-server
"""
import http.client
import json
import signal
import subprocess
import sys


def main():
    server = sys.argv[1]
    proc = subprocess.Popen([server, "--listen", "127.0.0.1:0", "--threads", "2", "--body-bytes", "700"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        port = int(line.rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for path in ("/public/envelope/get", "/anything"):
            conn.request("POST", path, '{"envelopeUuid":"x"}', {"Content-Type": "application/json"})
            reply = conn.getresponse()
            body = reply.read()
            assert reply.status == 200, reply.status
            assert reply.getheader("Content-Type") == "application/json", reply.getheader("Content-Type")
            assert len(body) == 700, len(body)
            assert json.loads(body) == {"p": "x" * 692}, body[:40]
            assert not reply.will_close, "the connection was not kept alive"
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=10)
    assert status == 0, f"exit status {status}"
    print("esign-bare-server: 2 requests on one connection, 700-byte body: ok")


if __name__ == "__main__":
    main()
