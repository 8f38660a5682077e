# SPDX-License-Identifier: BSL-1.0
"""Tests of esign_reference.py against the real server (ESIGN_SERVER, else PATH).

Run: python3 -m unittest discover -s examples/clients/python -p 'test_esign_reference.py' -v
"""
import contextlib
import http.server
import io
import os
import re
import signal
import tempfile
import threading
import time
import unittest

from esign_reference import EsignError, Team, attach, start_server

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
DAY = 86_400_000
START = 1_700_000_000_000  # a fixed instant for teams with a frozen clock
SERVER = None  # one server for the module; tests that need their own start one


def setUpModule():
    global SERVER
    SERVER = start_server()


def tearDownModule():
    SERVER.stop()


def recipient(email, role="signer"):
    return {"type": "manual", "email": email, "firstname": "Ada", "lastname": "Lovelace",
            "role": role}


class ServerProcess(unittest.TestCase):
    def test_start_health_and_clean_stop(self):
        server = start_server()
        self.assertEqual(server.health(), {"status": "ok"})
        self.assertTrue(UUID.match(server.create_team().uuid))
        self.assertEqual(server.stop(), 0)  # SIGTERM is a clean stop: exit status 0
        with self.assertRaises(ConnectionError):
            server.health()

    def test_context_manager_stops(self):
        with start_server() as server:
            self.assertIsNone(server.process.poll())
        self.assertEqual(server.process.returncode, 0)

    def test_a_server_that_does_not_stop_is_killed_and_its_stderr_shown(self):
        with tempfile.TemporaryDirectory() as directory:
            stubborn = os.path.join(directory, "stubborn-server")
            with open(stubborn, "w") as f:  # ignores SIGTERM, says why on stderr
                f.write("#!/usr/bin/env python3\n"
                        "import signal, sys, time\n"
                        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                        "sys.stderr.write('still draining connections\\n'); sys.stderr.flush()\n"
                        "print('listening on http://127.0.0.1:9', flush=True)\n"
                        "time.sleep(60)\n")
            os.chmod(stubborn, 0o755)
            server = start_server(stubborn)
            shown = io.StringIO()
            with contextlib.redirect_stderr(shown):
                status = server.stop(timeout=0.5)
        self.assertEqual(status, -signal.SIGKILL)
        self.assertIn("did not stop within 0.5 s of SIGTERM and was killed", shown.getvalue())
        self.assertIn("still draining connections", shown.getvalue())

    def test_failed_start_reports_status_and_stderr(self):
        with self.assertRaises(RuntimeError) as caught:
            start_server(fixture="/nonexistent/fixture.json")
        self.assertIn("exited with status 2", str(caught.exception))
        self.assertIn("--fixture", str(caught.exception))  # quoted from the server's stderr

    def test_attach_to_a_running_server(self):
        attached = attach(SERVER.url)
        team = attached.create_team(name="attached")
        self.assertEqual(team.call("/public/utils/whoami")["teamName"], "attached")
        self.assertIsNone(attached.stop())  # not ours: left running
        self.assertEqual(SERVER.health(), {"status": "ok"})

    def test_control_token_required_when_set(self):
        with start_server(control_token="s3cret") as server:
            # Handed over in the server's environment, never on its command line.
            cmdline = "/proc/%d/cmdline" % server.process.pid
            if os.path.exists(cmdline):
                with open(cmdline, "rb") as f:
                    self.assertNotIn(b"s3cret", f.read())
            team = server.create_team()  # the client sends the token
            for token in (None, "wrong"):
                with self.assertRaises(EsignError) as caught:
                    attach(server.url, control_token=token).create_team()
                self.assertEqual((caught.exception.status, caught.exception.code),
                                 (401, "AUTHENTICATION_ERROR"))
            # A team key never grants a server-wide operation, but does the team-scoped ones.
            with self.assertRaises(EsignError) as caught:
                team.call("/_control/team/create", {})
            self.assertEqual(caught.exception.status, 401)
            self.assertIsInstance(team.now(), int)


class TeamOperations(unittest.TestCase):
    def setUp(self):
        self.team = SERVER.create_team(name=self.id()[-100:])

    def assertEsignError(self, caught, status, code):
        self.assertEqual((caught.exception.status, caught.exception.code), (status, code))
        self.assertTrue(UUID.match(caught.exception.request_id))

    def test_team_record(self):
        team = self.team
        whoami = team.call("/public/utils/whoami", {})
        self.assertEqual(whoami["teamUuid"], team.uuid)
        self.assertEqual(whoami["ownerEmail"], team.owner_email)
        workspace = team.call("/public/workspace/get",
                              {"workspaceUuid": team.default_workspace_uuid})["workspace"]
        self.assertTrue(workspace["isDefault"])

    def test_seeded_teams_get_the_same_identifiers(self):
        first = SERVER.create_team(seed=42, start_time=START)
        second = SERVER.create_team(seed=42, start_time=START)
        self.assertEqual(first.uuid, second.uuid)  # §6.3: even the team's own uuid
        self.assertNotEqual(first.api_key, second.api_key)  # keys never come from a seed
        self.assertEqual(first.create_envelope("E"), second.create_envelope("E"))

    def test_teams_are_isolated(self):
        other = SERVER.create_team()
        envelope = self.team.create_envelope("Mine")["envelopeUuid"]
        got = self.team.call("/public/envelope/get", {"envelopeUuid": envelope})
        self.assertEqual(got["title"], "Mine")
        with self.assertRaises(EsignError) as caught:
            other.call("/public/envelope/get", {"envelopeUuid": envelope})
        self.assertEsignError(caught, 400, "ENVELOPE_NOT_FOUND")
        with self.assertRaises(EsignError) as caught:
            other.act(envelope, "a@example.com", "open")
        self.assertEsignError(caught, 400, "ENVELOPE_NOT_FOUND")
        with self.assertRaises(EsignError) as caught:
            other.call("/public/workspace/get", {"workspaceUuid": self.team.default_workspace_uuid})
        self.assertEsignError(caught, 400, "WORKSPACE_NOT_FOUND")
        self.assertEqual(other.call("/public/envelope/list", {})["envelopes"], [])

    def test_errors_carry_status_code_details(self):
        with self.assertRaises(EsignError) as caught:
            self.team.call("/public/envelope/get", {"envelopeUuid": 36})
        error = caught.exception
        self.assertEsignError(caught, 400, "INVALID_REQUEST_FORMAT")
        self.assertEqual([d["path"] for d in error.details], [["envelopeUuid"]])
        self.assertTrue(error.message)
        self.assertEqual(error.body["path"], "/public/envelope/get")
        with self.assertRaises(EsignError) as caught:
            Team(SERVER, {"apiKey": "not-a-key"}).call("/public/envelope/list", {})
        self.assertEsignError(caught, 401, "AUTHENTICATION_ERROR")
        with self.assertRaises(EsignError) as caught:
            self.team.call("/public/no/such/operation", {})
        self.assertEqual(caught.exception.status, 404)

    def test_clock_advance_moves_only_this_team(self):
        team = SERVER.create_team(start_time=START)  # frozen clocks: exact values
        other = SERVER.create_team(start_time=START)
        self.assertEqual(team.now(), START)
        first = team.create_envelope("Before")["envelopeUuid"]
        self.assertEqual(team.advance_clock(DAY), START + DAY)
        second = team.create_envelope("After")["envelopeUuid"]
        dates = [team.call("/public/envelope/get", {"envelopeUuid": uuid})["creationDate"]
                 for uuid in (first, second)]
        self.assertEqual(dates, [START, START + DAY])
        self.assertEqual(team.now(), START + DAY)
        self.assertEqual(other.now(), START)

    def test_team_reset_empties_the_team(self):
        team = self.team
        team.create_envelope("Gone soon")
        team.call("/public/envelope/list", {})
        team.add_fault("/public/envelope/get", error="INTERNAL_SERVER_ERROR")
        team.reset()
        self.assertEqual(team.call("/public/envelope/list", {})["envelopes"], [])
        self.assertEqual(len(team.journal()), 1)  # only the list just made
        self.assertEqual(team.faults(), [])
        self.assertEqual(team.call("/public/utils/whoami", {})["teamUuid"], team.uuid)

    def test_fault_fails_the_next_matching_call(self):
        team = self.team
        fault = team.add_fault("/public/envelope/list", error="FEATURE_NOT_IN_CURRENT_PLAN")
        self.assertEqual([(f["faultUuid"], f["times"]) for f in team.faults()], [(fault, 1)])
        team.call("/public/utils/whoami", {})  # another operation is not affected
        with self.assertRaises(EsignError) as caught:
            team.call("/public/envelope/list", {})
        self.assertEsignError(caught, 403, "FEATURE_NOT_IN_CURRENT_PLAN")
        self.assertEqual(team.faults(), [])
        team.call("/public/envelope/list", {})  # the rule is used up

        team.add_fault("/public/envelope/list", error="INTERNAL_SERVER_ERROR", times=5)
        team.clear_faults()
        team.call("/public/envelope/list", {})

    def test_drop_fault_closes_the_connection(self):
        self.team.add_fault("/public/envelope/list", action="drop")
        with self.assertRaises(ConnectionError):
            self.team.call("/public/envelope/list", {})

    def test_journal_lists_the_calls(self):
        team = self.team
        team.call("/public/envelope/list", {"page": 1})
        with self.assertRaises(EsignError):
            team.call("/public/envelope/get", {"envelopeUuid": "0" * 36})
        entries = team.journal()
        self.assertEqual([(e["path"], e["status"]) for e in entries],
                         [("/public/envelope/list", 200), ("/public/envelope/get", 400)])
        self.assertEqual(entries[0]["request"], {"page": 1})
        self.assertEqual(entries[1]["response"]["error"]["code"], "ENVELOPE_NOT_FOUND")
        self.assertEqual([e["path"] for e in team.journal(status=400)], ["/public/envelope/get"])
        team.clear_journal()
        self.assertEqual(team.journal(), [])

    def test_snapshot_restore_into_a_new_team(self):
        source = self.team
        source.create_envelope("One", tags=["a"])
        envelope = source.create_envelope("Two")["envelopeUuid"]
        source.call("/public/envelope/add-recipients",
                    {"envelopeUuid": envelope, "recipients": [recipient("s@example.com")]})
        target = SERVER.create_team()
        target.restore(source.snapshot())

        def listing(team):
            return [(e["uuid"], e["title"], e["status"], e["creationDate"], e["tags"])
                    for e in team.call("/public/envelope/list", {})["envelopes"]]

        self.assertEqual(len(listing(source)), 2)
        self.assertEqual(listing(target), listing(source))
        self.assertEqual(target.call("/public/utils/whoami", {})["teamUuid"], target.uuid)
        target.reset()  # the copy is the target's own: resetting it leaves the source alone
        self.assertEqual(len(listing(source)), 2)

    def test_send_outbox_and_recipient_actions(self):
        team = self.team
        envelope = team.create_envelope("To sign")["envelopeUuid"]
        team.call("/public/envelope/add-recipients",
                  {"envelopeUuid": envelope, "recipients": [recipient("signer@example.com")]})
        team.call("/public/envelope/send", {"envelopeUuid": envelope})
        self.assertEqual([(m["to"], m["kind"], m["envelopeUuid"]) for m in team.outbox()],
                         [("signer@example.com", "invitation", envelope)])
        self.assertEqual(team.act(envelope, "signer@example.com", "sign"),
                         {"envelopeStatus": "complete", "recipientStatus": "signed"})
        with self.assertRaises(EsignError) as caught:
            team.act(envelope, "signer@example.com", "sign")
        self.assertEsignError(caught, 400, "ACTION_NOT_ALLOWED")

    def test_embed_url_and_signing_links(self):
        team = self.team
        envelope = team.create_envelope("To sign")["envelopeUuid"]
        signer = dict(recipient("signer@example.com"), verificationType="email")
        team.call("/public/envelope/add-recipients", {"envelopeUuid": envelope, "recipients": [signer]})
        team.call("/public/envelope/send", {"envelopeUuid": envelope})
        # The e-mail's link: the server's address, the signing page, a link token.
        link = team.signing_link(envelope, "signer@example.com")
        self.assertTrue(link.startswith(SERVER.url + "/embeds/sign#t=slt."), link)
        self.assertEqual(team.outbox()[0]["signingUrl"], link)
        # The embed URL: a fresh iframe token on the same page, exchanged once for a session.
        url = team.embed_url(envelope, "signer@example.com")
        self.assertTrue(url.startswith(SERVER.url + "/embeds/sign#t=sit."), url)
        token = url.split("#t=", 1)[1]
        session = SERVER.embeds("session/start", {"token": token})["session"]
        with self.assertRaises(EsignError) as caught:
            SERVER.embeds("session/start", {"token": token})
        self.assertEsignError(caught, 409, "SIGNING_TOKEN_USED")
        page = SERVER.embeds("envelope/get", {"session": session})
        self.assertEqual(page["recipient"]["email"], "signer@example.com")
        self.assertTrue(page["actions"]["sign"])
        done = SERVER.embeds("recipient/act", {"session": session, "action": "sign",
                                               "signatureName": "Ada Lovelace"})
        self.assertEqual(done["envelopeStatus"], "complete")
        self.assertTrue(done["completed"])

    def test_template_and_cancel(self):
        team = self.team
        template = team.create_template("Lease", ["Tenant"])["templateUuid"]
        created = team.call("/public/envelope/create-from-template", {
            "templateUuid": template,
            "recipients": [dict(recipient("t@example.com"), label="Tenant")]})
        team.cancel_envelope(created["envelopeUuid"])
        got = team.call("/public/envelope/get", {"envelopeUuid": created["envelopeUuid"]})
        self.assertEqual(got["status"], "canceled")
        self.assertEqual([r["email"] for r in got["recipients"]], ["t@example.com"])

    def test_team_update_changes_the_plan(self):
        self.team.update(features=["sms", "timestamp"])
        with self.assertRaises(EsignError) as caught:
            self.team.call("/public/webhook/create", {
                "url": "http://127.0.0.1:9/", "contentType": "application/json",
                "sslVerify": False, "active": True})
        self.assertEsignError(caught, 403, "FEATURE_NOT_IN_CURRENT_PLAN")

    def test_webhook_deliveries(self):
        received = threading.Event()

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                received.set()

            def log_message(self, *args):
                pass

        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        self.addCleanup(receiver.server_close)
        self.addCleanup(receiver.shutdown)
        webhook = self.team.call("/public/webhook/create", {
            "url": "http://127.0.0.1:%d/hook" % receiver.server_address[1],
            "contentType": "application/json", "sslVerify": False, "active": True,
            "events": ["ENVELOPE_CREATED"]})["webhook"]["uuid"]
        self.team.create_envelope("Announced")
        self.assertTrue(received.wait(30), "no delivery within 30 s")
        # The record is written once the answer is read: poll for it, bounded.
        deadline = time.monotonic() + 30
        while True:
            deliveries = self.team.webhook_deliveries(webhook)
            if any(d["delivered"] for d in deliveries) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual([(d["eventType"], d["delivered"], d["lastStatus"]) for d in deliveries],
                         [("ENVELOPE_CREATED", True, 200)])
        self.assertEqual(self.team.webhook_deliveries("0" * 36), [])


if __name__ == "__main__":
    unittest.main()
