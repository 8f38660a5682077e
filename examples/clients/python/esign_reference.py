# SPDX-License-Identifier: BSL-1.0
"""Client for esign-reference-server, for other projects' test suites.

Standard library only. Starts the server (or attaches to a running one), makes
teams through /_control/, and calls the API as a team:

    with start_server() as server:
        team = server.create_team(name="My suite")
        env = team.create_envelope("Contract")
        team.call("/public/envelope/get", {"envelopeUuid": env["envelopeUuid"]})

See contract.md §5 and §6 for the control operations.
"""
import atexit
import http.client
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.parse

__all__ = ["EsignError", "Server", "Team", "start_server", "attach", "find_server"]

EXECUTABLE = "esign-reference-server"


class EsignError(Exception):
    """An error answer: HTTP status and the error body's code, message, details, requestId."""

    def __init__(self, status, body, path):
        self.status = status
        self.body = body
        self.path = path
        error = body.get("error") if isinstance(body, dict) else None
        error = error if isinstance(error, dict) else {}
        self.code = error.get("code")
        self.message = error.get("message") or (body if isinstance(body, str) else "")
        self.details = error.get("details") or []
        self.request_id = body.get("requestId") if isinstance(body, dict) else None
        super().__init__("%s: HTTP %d %s: %s" % (path, status, self.code, self.message))


def find_server(executable=None):
    """The server executable: the argument, else $ESIGN_SERVER, else PATH."""
    found = executable or os.environ.get("ESIGN_SERVER") or shutil.which(EXECUTABLE)
    if not found:
        raise FileNotFoundError(
            "%s not found: pass its path, set ESIGN_SERVER or put it on PATH" % EXECUTABLE)
    return found


class Server:
    """A reference server: one this module started (a child process) or one attached by URL."""

    def __init__(self, url, control_token=None, process=None, stderr=None, reader=None,
                 timeout=60):
        self.url = url.rstrip("/")
        self.control_token = control_token
        self.timeout = timeout  # per request; a "delay" fault may hold a request up to 30 s
        self.process = process
        self._stderr = stderr
        self._reader = reader
        if process is not None:
            atexit.register(self.stop)  # never leave an orphan server behind a crashed suite

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self, timeout=10):
        """Stops a server this module started (SIGTERM, then SIGKILL); returns its exit status.

        A server still running `timeout` seconds after SIGTERM is killed, and what it wrote on
        stderr is copied to this process's stderr: why it did not stop is usually there.
        """
        if self.process is None:
            return None
        atexit.unregister(self.stop)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                sys.stderr.write("%s did not stop within %g s of SIGTERM and was killed; its stderr:\n%s\n"
                                 % (self.process.args[0], timeout, self._stderr_text()))
        self._reader.join(5)  # it closes stdout at its end
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        return self.process.returncode

    def _stderr_text(self):
        return "" if self._stderr is None else _file_text(self._stderr)

    def request(self, path, body=None, authorization=None):
        """POSTs body as JSON; returns the decoded answer or raises EsignError."""
        return _post(self.url, path, {} if body is None else body, authorization, self.timeout)

    def control(self, operation, body=None):
        """A server-wide /_control/ operation, with the control token when there is one."""
        token = "Bearer " + self.control_token if self.control_token else None
        return self.request("/_control/" + operation, body, token)

    def health(self):
        """GET /_control/health: {"status": "ok"} once the server accepts requests."""
        return _send(self.url, "GET", "/_control/health", None, {}, self.timeout)

    def reset(self):
        """/_control/reset: every team and the clock back to the state at start."""
        self.control("reset")

    def embeds(self, operation, body=None):
        """A signer's /embeds/ operation (the signing page's: session/start, envelope/get,
        recipient/act); no API key, the body's token or session says who signs."""
        return self.request("/embeds/" + operation, body)

    def create_team(self, name=None, seed=None, start_time=None, **members):
        """/_control/team/create; members are other wire members (apiCredits, features...)."""
        body = dict(members)
        for key, value in (("name", name), ("seed", seed), ("startTime", start_time)):
            if value is not None:
                body[key] = value
        return Team(self, self.control("team/create", body))


def start_server(executable=None, *, args=(), control_token=None, fixture=None, seed=None,
                 strict=False, timeout=20):
    """Starts the server on a free loopback port; args are further command-line options."""
    command = [find_server(executable), "--listen", "127.0.0.1:0"]
    # The token goes in the child's environment, not on its command line (which other local
    # users can read); one inherited from ours is not passed on (the server takes one source).
    env = {k: v for k, v in os.environ.items() if k != "ESIGN_CONTROL_TOKEN"}
    if control_token:
        env["ESIGN_CONTROL_TOKEN"] = control_token
    if fixture:
        command += ["--fixture", str(fixture)]
    if seed is not None:
        command += ["--seed", str(seed)]
    if strict:
        command.append("--strict")
    command += list(args)
    # stderr goes to a file: nobody has to drain it, and it is there to quote when start fails.
    stderr = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=stderr, text=True, env=env)
    lines = queue.Queue()

    def drain():  # reads stdout to its end, so the server can never block on a full pipe
        with process.stdout:
            for line in process.stdout:
                lines.put(line)
        lines.put("")

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        first = lines.get(timeout=timeout)
    except queue.Empty:
        first = None
    match = re.match(r"listening on (http://\S+)", first or "")
    if match:
        return Server(match.group(1), control_token, process, stderr, reader)
    try:  # stdout closed or an unexpected line: the process is (about to be) gone, or stuck
        status = process.wait(0 if first is None else 5)
        problem = "exited with status %d" % status
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        problem = "printed no 'listening on' line within %g s" % timeout
    reader.join(5)
    log = _file_text(stderr).strip()
    stderr.close()
    raise RuntimeError("%s %s; stdout: %r; stderr: %s" % (command[0], problem, first, log))


def _file_text(file, limit=20_000):
    """The end of what a server wrote to `file` (its stderr, a temporary file), as text."""
    file.seek(0)
    return file.read()[-limit:].decode("utf-8", "replace")


def attach(url, control_token=None):
    """A server already running at url (stop() leaves it running)."""
    return Server(url, control_token)


class Team:
    """One team of the server: its uuid, credentials and default workspace."""

    def __init__(self, server, info):
        self.server = server
        self.info = info  # the whole team/create answer
        self.uuid = info.get("teamUuid")
        self.api_key = info["apiKey"]
        self.default_workspace_uuid = info.get("defaultWorkspaceUuid")
        self.owner_uuid = info.get("ownerUuid")
        self.owner_email = info.get("ownerEmail")
        self.access_key = info.get("accessKey")
        self.secret_key = info.get("secretKey")

    def call(self, path, body=None):
        """POSTs body to path (a /public/ or /_control/ path) with the team's key."""
        return self.server.request(path, body, "Bearer " + self.api_key)

    def control(self, operation, body=None):
        """A team-scoped /_control/ operation."""
        return self.call("/_control/" + operation, body)

    def update(self, **members):
        """/_control/team/update: apiCredits, emailQuota, subscription, features."""
        self.control("team/update", members)

    def reset(self):
        """/_control/team/reset: back to the state right after creation."""
        self.control("team/reset")

    def now(self):
        """The team's clock, in ms."""
        return self.control("clock/now")["now"]

    def advance_clock(self, milliseconds):
        """Moves the team's clock forward, applying due expiries and reminders; returns now."""
        return self.control("clock/advance", {"milliseconds": milliseconds})["now"]

    def outbox(self):
        """E-mails the server would have sent for the team, oldest first. Invitations and
        reminders carry signingUrl: the recipient's signing page, {base}/embeds/sign#t=..."""
        return self.control("outbox/list")["emails"]

    def signing_link(self, envelope_uuid, email):
        """The signingUrl of the last e-mail to that recipient of the envelope (None if none)."""
        links = [m.get("signingUrl") for m in self.outbox()
                 if m["envelopeUuid"] == envelope_uuid and m["to"] == email]
        return links[-1] if links else None

    def embed_url(self, envelope_uuid, signer_email, workspace_uuid=None):
        """A signer's embed URL, {server}/embeds/sign#t={iframeToken}, as an integrator's front end
        loads it in an iframe: a new iframe token (single use, one hour on the team's clock)."""
        body = _members(workspaceUuid=workspace_uuid, envelopeUuid=envelope_uuid,
                        signerEmail=signer_email)
        token = self.call("/public/authentication/create-iframe-token", body)["iframeToken"]
        return self.server.url.rstrip("/") + "/embeds/sign#t=" + token

    def webhook_deliveries(self, webhook_uuid=None):
        """Webhook delivery records, of one webhook or all."""
        body = {} if webhook_uuid is None else {"webhookUuid": webhook_uuid}
        return self.control("webhook/deliveries", body)["deliveries"]

    def journal(self, path=None, status=None, since=None, limit=None):
        """The team's last public requests, oldest first."""
        body = _members(path=path, status=status, since=since, limit=limit)
        return self.control("journal/list", body)["entries"]

    def clear_journal(self):
        self.control("journal/clear")

    def add_fault(self, operation=None, action="error", error=None, times=None,
                  probability=None, delay_ms=None, webhook_uuid=None):
        """Adds a fault rule (for an operation path or a webhook); returns its faultUuid."""
        body = _members(operation=operation, action=action, error=error, times=times,
                        probability=probability, delayMs=delay_ms, webhookUuid=webhook_uuid)
        return self.control("faults/add", body)["faultUuid"]

    def faults(self):
        """The fault rules left, in the order added."""
        return self.control("faults/list")["faults"]

    def clear_faults(self):
        self.control("faults/clear")

    def snapshot(self):
        """The team's whole state, as a team object of the --fixture format."""
        return self.control("team/snapshot")["team"]

    def restore(self, team):
        """Replaces the team's state by a snapshot (this team's uuid and keys stay)."""
        self.control("team/restore", {"team": team})
        # The restored state brings its own default workspace (the server answers with it).
        self.default_workspace_uuid = team.get("defaultWorkspaceUuid", self.default_workspace_uuid)

    def create_envelope(self, title="Envelope", documents=None, **members):
        """A draft envelope (/_control/envelope/create); members: workspaceUuid, attachments, tags."""
        body = dict(members, title=title,
                    documents=documents or [{"title": "Document", "pageCount": 1}])
        return self.control("envelope/create", body)

    def create_template(self, title, recipient_labels, documents=None, **members):
        """A template (/_control/template/create); returns {templateUuid, documentUuids}."""
        body = dict(members, title=title, recipientLabels=list(recipient_labels),
                    documents=documents or [{"title": "Document", "pageCount": 1}])
        return self.control("template/create", body)

    def act(self, envelope_uuid, email, action, reason=None):
        """A recipient opens, approves, signs or declines; returns {envelopeStatus, recipientStatus}."""
        body = _members(envelopeUuid=envelope_uuid, email=email, action=action, reason=reason)
        return self.control("recipient/act", body)

    def cancel_envelope(self, envelope_uuid, reason=None):
        self.control("envelope/cancel", _members(envelopeUuid=envelope_uuid, reason=reason))


def _members(**members):
    """The members that are given (None means absent)."""
    return {k: v for k, v in members.items() if v is not None}


def _post(url, path, body, authorization, timeout):
    headers = {"Content-Type": "application/json"}
    if authorization:
        headers["Authorization"] = authorization
    return _send(url, "POST", path, json.dumps(body).encode("utf-8"), headers, timeout)


def _send(url, method, path, data, headers, timeout):
    parts = urllib.parse.urlsplit(url)
    connection_class = (http.client.HTTPSConnection if parts.scheme == "https"
                        else http.client.HTTPConnection)
    connection = connection_class(parts.hostname, parts.port, timeout=timeout)
    try:
        # A "drop" fault closes the connection unanswered: http.client raises
        # RemoteDisconnected (a ConnectionError), which is left to the caller.
        connection.request(method, parts.path.rstrip("/") + path, data, headers)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    text = raw.decode("utf-8", "replace")
    try:
        answer = json.loads(text) if text else {}
    except ValueError:
        answer = text
    if response.status != 200 or not isinstance(answer, dict):
        raise EsignError(response.status, answer, path)
    return answer
