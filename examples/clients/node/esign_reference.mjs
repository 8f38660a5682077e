// SPDX-License-Identifier: BSL-1.0
// Client for esign-reference-server, for other projects' test suites (Node 18+, no dependencies).
//
//   const server = await startServer();
//   const team = await server.createTeam({ name: 'My suite' });
//   const { envelopeUuid } = await team.createEnvelope({ title: 'Contract' });
//   await team.call('/public/envelope/get', { envelopeUuid });
//   await server.stop();
//
// See contract.md §5 and §6 for the control operations.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';

const EXECUTABLE = 'esign-reference-server';
const DEFAULT_DOCUMENTS = [{ title: 'Document', pageCount: 1 }];

/** An error answer: HTTP status and the error body's code, message, details, requestId. */
export class EsignError extends Error {
  constructor(status, body, path) {
    const error = (body !== null && typeof body === 'object' && body.error) || {};
    const message = error.message ?? (typeof body === 'string' ? body : '');
    super(message);
    this.name = 'EsignError';
    this.status = status;
    this.code = error.code ?? null;
    this.details = error.details ?? [];
    this.requestId = body?.requestId ?? null;
    this.body = body;
    this.path = path;
  }

  toString() {
    return `EsignError: ${this.path}: HTTP ${this.status} ${this.code}: ${this.message}`;
  }
}

/** The server executable: the argument, else $ESIGN_SERVER, else PATH. */
export function findServer(executable) {
  if (executable) return executable;
  if (process.env.ESIGN_SERVER) return process.env.ESIGN_SERVER;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir || '.', EXECUTABLE);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error(`${EXECUTABLE} not found: pass its path, set ESIGN_SERVER or put it on PATH`);
}

// Servers still running when Node exits are stopped, so a crashed suite leaves no orphan.
const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** A reference server: one started by startServer (a child process) or attached by URL. */
export class Server {
  constructor(url, { controlToken, child, closed, timeoutMs = 60000 } = {}) {
    this.url = url.replace(/\/+$/, '');
    this.controlToken = controlToken;
    this.timeoutMs = timeoutMs; // per request; a "delay" fault may hold a request up to 30 s
    this.process = child ?? null;
    this.closed = closed;
    if (child) running.add(child);
  }

  /** Stops a server started here (SIGTERM, then SIGKILL); resolves to its exit status. */
  async stop(timeoutMs = 10000) {
    if (!this.process) return null;
    running.delete(this.process);
    this.process.kill('SIGTERM'); // does nothing when it has already exited
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeoutMs);
    await this.closed;
    clearTimeout(timer);
    return this.process.exitCode;
  }

  /** POSTs body as JSON; resolves to the decoded answer, or rejects with an EsignError. */
  request(path, body = {}, authorization = undefined) {
    return send(this.url, 'POST', path, body, authorization, this.timeoutMs);
  }

  /** A server-wide /_control/ operation, with the control token when there is one. */
  control(operation, body = {}) {
    const token = this.controlToken ? `Bearer ${this.controlToken}` : undefined;
    return this.request(`/_control/${operation}`, body, token);
  }

  /** GET /_control/health: {status: 'ok'} once the server accepts requests. */
  health() {
    return send(this.url, 'GET', '/_control/health', undefined, undefined, this.timeoutMs);
  }

  /** /_control/reset: every team and the clock back to the state at start. */
  async reset() {
    await this.control('reset');
  }

  /**
   * A signer's /embeds/ operation (the signing page's: session/start, envelope/get,
   * recipient/act); no API key, the body's token or session says who signs.
   */
  embeds(operation, body = {}) {
    return this.request(`/embeds/${operation}`, body);
  }

  /** /_control/team/create; members are other wire members (apiCredits, features...). */
  async createTeam(members = {}) {
    return new Team(this, await this.control('team/create', members));
  }
}

/** Starts the server on a free loopback port; args are further command-line options. */
export async function startServer({
  executable, args = [], controlToken, fixture, seed, strict = false, timeoutMs = 20000,
} = {}) {
  const command = findServer(executable);
  const argv = ['--listen', '127.0.0.1:0'];
  if (fixture) argv.push('--fixture', String(fixture));
  if (seed !== undefined) argv.push('--seed', String(seed));
  if (strict) argv.push('--strict');
  argv.push(...args);

  // The token goes in the child's environment, not on its command line (which other local users
  // can read); one inherited from ours is not passed on (the server takes one source).
  const env = { ...process.env };
  delete env.ESIGN_CONTROL_TOKEN;
  if (controlToken) env.ESIGN_CONTROL_TOKEN = controlToken;
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-65536); });
  const closed = new Promise((resolve) => child.once('close', resolve));
  // readline keeps reading stdout after the first line, so the server never blocks on the pipe.
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    const done = (line) => { clearTimeout(timer); resolve(line); };
    lines.once('line', done);
    lines.once('close', () => done(''));
    child.once('error', (error) => { clearTimeout(timer); reject(error); });
  });
  const match = /^listening on (http:\/\/\S+)/.exec(first ?? '');
  if (match) return new Server(match[1], { controlToken, child, closed });

  // No address: the process is gone (or about to be), or it is stuck and is killed.
  const timer = setTimeout(() => child.kill('SIGKILL'), first === null ? 0 : 5000);
  await closed;
  clearTimeout(timer);
  const problem = child.exitCode !== null
    ? `exited with status ${child.exitCode}`
    : `printed no 'listening on' line within ${timeoutMs} ms`;
  throw new Error(`${command} ${problem}; stdout: ${JSON.stringify(first)}; stderr: ${stderr.trim()}`);
}

/** A server already running at url (stop() leaves it running). */
export function attach(url, { controlToken } = {}) {
  return new Server(url, { controlToken });
}

/** One team of the server: its uuid, credentials and default workspace. */
export class Team {
  constructor(server, info) {
    this.server = server;
    this.info = info; // the whole team/create answer
    this.uuid = info.teamUuid;
    this.apiKey = info.apiKey;
    this.defaultWorkspaceUuid = info.defaultWorkspaceUuid;
    this.ownerUuid = info.ownerUuid;
    this.ownerEmail = info.ownerEmail;
    this.accessKey = info.accessKey;
    this.secretKey = info.secretKey;
  }

  /** POSTs body to path (a /public/ or /_control/ path) with the team's key. */
  call(path, body = {}) {
    return this.server.request(path, body, `Bearer ${this.apiKey}`);
  }

  /** A team-scoped /_control/ operation. */
  control(operation, body = {}) {
    return this.call(`/_control/${operation}`, body);
  }

  /** /_control/team/update: apiCredits, emailQuota, subscription, features. */
  async update(members) {
    await this.control('team/update', members);
  }

  /** /_control/team/reset: back to the state right after creation. */
  async reset() {
    await this.control('team/reset');
  }

  /** The team's clock, in ms. */
  async now() {
    return (await this.control('clock/now')).now;
  }

  /** Moves the team's clock forward, applying due expiries and reminders; resolves to now. */
  async advanceClock(milliseconds) {
    return (await this.control('clock/advance', { milliseconds })).now;
  }

  /** E-mails the server would have sent for the team, oldest first. */
  async outbox() {
    return (await this.control('outbox/list')).emails;
  }
  /** The signingUrl of the last e-mail to that recipient of the envelope (undefined if none). */
  async signingLink(envelopeUuid, email) {
    const mails = (await this.outbox()).filter((m) => m.envelopeUuid === envelopeUuid && m.to === email);
    return mails.length ? mails[mails.length - 1].signingUrl : undefined;
  }

  /**
   * A signer's embed URL, {server}/embeds/sign#t={iframeToken}, as an integrator's front end
   * loads it in an iframe: a new iframe token (single use, one hour on the team's clock).
   */
  async embedUrl(envelopeUuid, signerEmail, workspaceUuid = undefined) {
    const { iframeToken } = await this.call('/public/authentication/create-iframe-token',
      { workspaceUuid, envelopeUuid, signerEmail });
    return `${this.server.url}/embeds/sign#t=${iframeToken}`;
  }


  /** Webhook delivery records, of one webhook or all. */
  async webhookDeliveries(webhookUuid = undefined) {
    return (await this.control('webhook/deliveries', { webhookUuid })).deliveries;
  }

  /** The team's last public requests, oldest first; filter: {path, status, since, limit}. */
  async journal(filter = {}) {
    return (await this.control('journal/list', filter)).entries;
  }

  async clearJournal() {
    await this.control('journal/clear');
  }

  /** Adds a fault rule ({operation | webhookUuid, action, error, times, ...}); resolves to its faultUuid. */
  async addFault(rule) {
    return (await this.control('faults/add', { action: 'error', ...rule })).faultUuid;
  }

  /** The fault rules left, in the order added. */
  async faults() {
    return (await this.control('faults/list')).faults;
  }

  async clearFaults() {
    await this.control('faults/clear');
  }

  /** The team's whole state, as a team object of the --fixture format. */
  async snapshot() {
    return (await this.control('team/snapshot')).team;
  }

  /** Replaces the team's state by a snapshot (this team's uuid and keys stay). */
  async restore(team) {
    await this.control('team/restore', { team });
    // The restored state brings its own default workspace (the server answers with it).
    this.defaultWorkspaceUuid = team.defaultWorkspaceUuid ?? this.defaultWorkspaceUuid;
  }

  /** A draft envelope (/_control/envelope/create); other members: workspaceUuid, attachments, tags. */
  createEnvelope({ title = 'Envelope', documents = DEFAULT_DOCUMENTS, ...members } = {}) {
    return this.control('envelope/create', { ...members, title, documents });
  }

  /** A template (/_control/template/create); resolves to {templateUuid, documentUuids}. */
  createTemplate({ title, recipientLabels, documents = DEFAULT_DOCUMENTS, ...members }) {
    return this.control('template/create', { ...members, title, recipientLabels, documents });
  }

  /** A recipient opens, approves, signs or declines; resolves to {envelopeStatus, recipientStatus}. */
  act(envelopeUuid, email, action, reason = undefined) {
    return this.control('recipient/act', { envelopeUuid, email, action, reason });
  }

  async cancelEnvelope(envelopeUuid, reason = undefined) {
    await this.control('envelope/cancel', { envelopeUuid, reason });
  }
}

// One request on its own connection (no agent: nothing pooled keeps Node alive).
// JSON.stringify leaves out undefined members, which is how optional ones are omitted.
// A "drop" fault closes the connection unanswered: the promise rejects with ECONNRESET.
function send(baseUrl, method, path, body, authorization, timeoutMs) {
  const base = new URL(baseUrl);
  const target = new URL(base.pathname.replace(/\/+$/, '') + path, base);
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers = {};
  if (data) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = data.length;
  }
  if (authorization) headers.Authorization = authorization;
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(target, { method, headers, agent: false }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let answer = text;
        try {
          answer = text ? JSON.parse(text) : {};
        } catch {
          // not JSON: reported as the error's message
        }
        const isObject = answer !== null && typeof answer === 'object' && !Array.isArray(answer);
        if (response.statusCode === 200 && isObject) resolve(answer);
        else reject(new EsignError(response.statusCode, answer, path));
      });
    });
    request.setTimeout(timeoutMs, () => {
      request.destroy(new Error(`${path}: no answer within ${timeoutMs} ms`));
    });
    request.on('error', reject);
    request.end(data);
  });
}
