// SPDX-License-Identifier: BSL-1.0
// The signing page (contract.md §7.1) in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (tests/browser/package.json, pinned by its lock, installed outside the repository
// by tests/schema/install_npm_tools.sh). It starts the reference server, makes teams and envelopes
// through the API and /_control/, frames the page from a host page on another loopback port (as
// an integrator's front end does, host.html), and plays the signer's part.
//
//   node tests/browser/run.mjs                          every case; exit status 1 on a failure
//   node tests/browser/run.mjs --only decline           the cases whose name contains "decline"
//   node tests/browser/run.mjs --screenshot docs/signing-page.png   only writes the README's picture
//
// Environment: ESIGN_SERVER (the server program; else esign-reference-server on PATH),
// ESIGN_CHROMIUM (else /usr/lib/chromium/chromium, else chromium on PATH), ESIGN_NPM_CACHE (where
// the npm packages were installed, as install_npm_tools.sh; its browser/ subdirectory).
// It prints the page's weight and the median time from navigation to a usable page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../examples/clients/node/esign_reference.mjs';
import { eventually, launchBrowser, option, pageWeight, person, runCases, sentEnvelope } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors *";
const WEIGHT_LIMIT = 50 * 1024;
const HOUR = 3_600_000;

// ---------------------------------------------------------------------------------------------
// Arguments and tools

const only = option('--only');
const screenshot = option('--screenshot');
const loads = Number(option('--loads') ?? 10);

// ---------------------------------------------------------------------------------------------
// The integrator's side: the host page and a webhook receiver, on a loopback port of their own.

function startHost() {
  const hostPage = readFileSync(join(here, 'host.html'));
  const hooks = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://host');
    if (request.method === 'GET' && url.pathname === '/host.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(hostPage);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/hook') {
      const chunks = [];
      request.on('data', (c) => chunks.push(c));
      request.on('end', () => {
        hooks.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { Connection: 'close' }).end();
      });
      return;
    }
    response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}`, hooks, close: () => {
      server.closeAllConnections?.();
      return new Promise((r) => server.close(r));
    } });
  }));
}

// ---------------------------------------------------------------------------------------------
// Envelopes, through the API

// The token of an embed URL.
const tokenOf = (url) => new URL(url).hash.replace(/^#(t=)?/, '');

// The page's address in a recipient's e-mails (signingUrl): the way an approver or a viewer
// reaches the page, as iframe tokens are for signers only.
async function emailLink(team, envelopeUuid, email) {
  const link = await team.signingLink(envelopeUuid, email);
  assert.ok(link, `no e-mail with a signingUrl for ${email}: ${JSON.stringify(await team.outbox())}`);
  return link;
}

async function envelopeStatus(team, envelopeUuid) {
  return (await team.call('/public/envelope/get', { envelopeUuid })).status;
}

// ---------------------------------------------------------------------------------------------
// The browser side

class Session {
  constructor(ctx) {
    this.ctx = ctx;
    this.requests = [];
  }

  // Opens the host page framing the signing page at this address (an embed URL or an e-mail's
  // signingUrl), or for this token; resolves once the page has left its loading state. width: the frame's width in
  // CSS pixels; direct: the page itself, not framed.
  async open(token, { width, direct = false, viewport = { width: 1000, height: 1200 } } = {}) {
    const { browser, server, host } = this.ctx;
    this.context = await browser.createBrowserContext();
    this.page = await this.context.newPage();
    this.page.setDefaultTimeout(20000);
    await this.page.setViewport(viewport);
    this.page.on('request', (r) => this.requests.push({ url: r.url(), frame: r.frame()?.url() ?? '' }));
    this.embedUrl = token.startsWith('http') ? token : `${server.url}/embeds/sign#t=${encodeURIComponent(token)}`;
    assert.ok(this.embedUrl.startsWith(`${server.url}/embeds/sign#`), this.embedUrl);
    if (direct) {
      this.response = await this.page.goto(this.embedUrl);
      this.frame = this.page.mainFrame();
    } else {
      const src = new URLSearchParams({ src: this.embedUrl, ...(width ? { width: String(width) } : {}) });
      const framed = this.page.waitForFrame((f) => f.url().startsWith(`${server.url}/embeds/sign`));
      await this.page.goto(`${host.url}/host.html?${src}`);
      this.frame = await framed;
    }
    await this.frame.waitForSelector('#app:not([data-state="loading"])');
    return this;
  }

  state() {
    return this.frame.$eval('#app', (e) => e.dataset.state);
  }

  text() {
    return this.frame.$eval('#app', (e) => e.innerText);
  }

  // The control of this accessible role and name (as a test of an integrator finds it), or null.
  control(role, name) {
    return this.frame.$(`aria/${name}[role="${role}"]`);
  }

  async mustHave(role, name) {
    const handle = await this.frame.waitForSelector(`aria/${name}[role="${role}"]`);
    assert.ok(handle, `${role} "${name}" not found`);
    return handle;
  }

  // The page refused what was typed: it says `message` and focuses the field `id`.
  async mustRefuse(message, id) {
    await this.frame.waitForFunction((m) => document.querySelector('.error')?.textContent === m, {}, message);
    assert.equal(await this.frame.evaluate(() => document.activeElement?.id), id);
  }

  async waitState(state) {
    await this.frame.waitForSelector(`#app[data-state="${state}"]`);
  }

  // The messages the host page received from the frame.
  received() {
    return this.page.evaluate(() => window.received);
  }

  async sign(name) {
    await (await this.mustHave('textbox', 'Your name')).type(name);
    await (await this.mustHave('button', 'Sign')).click();
    await (await this.mustHave('button', 'Confirm signature')).click();
    await this.waitState('signed');
  }

  async close() {
    await this.context?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The cases

const cases = [];
const test = (name, fn) => cases.push({ name, fn });

test('a signer signs: the host gets subnoto:documentSigned, the envelope completes, webhook and e-mails', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Signs' });
  await team.call('/public/webhook/create', {
    url: `${ctx.host.url}/hook`, contentType: 'application/json', sslVerify: false, active: true,
    events: ['ENVELOPE_COMPLETED'],
  });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, {
    title: 'Service agreement <b>2026</b>',
    recipients: [alice],
    blocks: [
      { page: 1, x: 60, y: 700, width: 200, height: 40, text: 'Signature of Alice', recipientEmail: alice.email },
      { page: 1, x: 60, y: 80, width: 300, height: 30, text: '<img src="http://127.0.0.2:9/x.png"> not markup' },
      { page: 2, x: 300, y: 400, text: 'Initials' },
    ],
  });
  const s = new Session(ctx);
  try {
    await s.open(await team.embedUrl(envelopeUuid, alice.email));
    assert.equal(await s.state(), 'ready');
    const text = await s.text();
    assert.match(text, /Service agreement <b>2026<\/b>/); // the title as text, not markup
    assert.match(text, /Alice Martin/);
    assert.match(text, /It is your turn/);
    assert.match(text, /<img src="http:\/\/127\.0\.0\.2:9\/x\.png"> not markup/);
    assert.equal(await s.frame.$$eval('.page', (p) => p.length), 2); // a box per page
    assert.equal(await s.frame.$$eval('img, b', (n) => n.length), 0); // nothing came as markup
    assert.equal(await s.frame.$$eval('.block.mine', (n) => n.length), 1);
    // The page box keeps A4's aspect ratio; a block sits at its x/y, scaled.
    const geometry = await s.frame.$eval('.page', (page) => {
      const box = page.getBoundingClientRect();
      const block = page.querySelector('.block.mine').getBoundingClientRect();
      return { ratio: box.height / box.width, x: (block.left - box.left - page.clientLeft) / page.clientWidth };
    });
    assert.ok(Math.abs(geometry.ratio - 842 / 595) < 0.02, `page ratio ${geometry.ratio}`);
    assert.ok(Math.abs(geometry.x - 60 / 595) < 0.01, `block x ${geometry.x}`);
    await s.sign('Alice Martin');
    const messages = await eventually('the host to receive the message', async () => {
      const m = await s.received();
      return m.length ? m : null;
    });
    assert.deepEqual(messages.map((m) => m.data), [{
      type: 'subnoto:documentSigned',
      payload: { envelopeUuid, completed: true, workspaceUuid: team.defaultWorkspaceUuid },
    }]);
    assert.equal(messages[0].origin, ctx.server.url);
    assert.match(await s.text(), /You signed/);
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'complete');
  await eventually('the ENVELOPE_COMPLETED webhook delivered', async () =>
    (await team.webhookDeliveries()).some((d) => d.eventType === 'ENVELOPE_COMPLETED' && d.delivered));
  assert.ok(ctx.host.hooks.some((h) => h.includes(envelopeUuid)));
  const emails = await team.outbox();
  assert.ok(emails.some((e) => e.to === alice.email && e.kind === 'invitation' && e.envelopeUuid === envelopeUuid),
    JSON.stringify(emails));
});

test('two signers in order: the second sees "not your turn" until the first signs', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Order' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const bob = person('bob@example.com', 'Bob', 'Durand');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice, bob], signatureOrder: true });
  const second = new Session(ctx);
  const first = new Session(ctx);
  try {
    await second.open(await team.embedUrl(envelopeUuid, bob.email));
    assert.match(await second.text(), /not your turn/i);
    assert.match(await second.text(), /Waiting for: Alice Martin/);
    assert.equal(await second.control('button', 'Sign'), null);
    await first.open(await team.embedUrl(envelopeUuid, alice.email));
    await first.sign('Alice Martin');
    assert.deepEqual((await first.received()).map((m) => m.data.payload.completed), [false]);
    await (await second.mustHave('button', 'Refresh')).click();
    await second.mustHave('button', 'Sign');
    assert.match(await second.text(), /It is your turn/);
    await second.sign('Bob Durand');
    assert.deepEqual((await second.received()).map((m) => m.data.payload.completed), [true]);
  } finally {
    await first.close();
    await second.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'complete');
});

test('a signer declines with a reason', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Decline' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const s = new Session(ctx);
  try {
    await s.open(await team.embedUrl(envelopeUuid, alice.email));
    // Without a reason (blanks are none): the page says so and focuses the field; nothing is sent.
    await (await s.mustHave('textbox', 'Reason')).type('   ');
    await (await s.mustHave('button', 'Decline')).click();
    await s.mustRefuse('Give a reason to decline.', 'decline-reason');
    assert.equal(await envelopeStatus(team, envelopeUuid), 'signing');
    await (await s.mustHave('textbox', 'Reason')).type('The address is wrong');
    await (await s.mustHave('button', 'Decline')).click();
    await s.waitState('declined');
    assert.match(await s.text(), /You declined[\s\S]*The address is wrong/);
    assert.deepEqual(await s.received(), []); // no documentSigned
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'declined');
});

test('a name of blanks is no signature: the page asks for one and keeps the form', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Blank name' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const s = new Session(ctx);
  try {
    await s.open(await team.embedUrl(envelopeUuid, alice.email));
    await (await s.mustHave('textbox', 'Your name')).type('   ');
    await (await s.mustHave('button', 'Sign')).click();
    await s.mustRefuse('Type your name to sign.', 'sign-name');
    assert.equal(await s.control('button', 'Confirm signature'), null);
    await s.sign('Alice Martin'); // the same form still signs
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'complete');
});

test('an approver approves', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Approve' });
  const carol = person('carol@example.com', 'Carol', 'Petit', 'approver');
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [carol, alice] });
  assert.equal(await envelopeStatus(team, envelopeUuid), 'approving');
  const s = new Session(ctx);
  try {
    await s.open(await emailLink(team, envelopeUuid, carol.email));
    assert.equal(await s.control('button', 'Sign'), null);
    await (await s.mustHave('button', 'Approve')).click();
    await s.waitState('approved');
    assert.match(await s.text(), /You approved/);
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'signing');
});

test('a viewer views and has nothing to act on', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'View' });
  const vera = person('vera@example.com', 'Vera', 'Blanc', 'viewer');
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice, vera] });
  const s = new Session(ctx);
  try {
    await s.open(await emailLink(team, envelopeUuid, vera.email));
    assert.equal(await s.state(), 'ready');
    assert.match(await s.text(), /viewer/);
    for (const name of ['Sign', 'Approve', 'Decline']) assert.equal(await s.control('button', name), null, name);
    assert.equal(await s.frame.$$eval('.page', (p) => p.length), 2);
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'signing');
});

test('the same token twice: "already used", nothing changes', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Twice' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const token = tokenOf(await team.embedUrl(envelopeUuid, alice.email));
  const first = new Session(ctx);
  const again = new Session(ctx);
  try {
    await first.open(token);
    assert.equal(await first.state(), 'ready');
    const before = await team.call('/public/envelope/get', { envelopeUuid });
    await again.open(`${ctx.server.url}/embeds/sign#${token}`); // the other form of the address
    assert.equal(await again.state(), 'used');
    assert.match(await again.text(), /already been used/);
    assert.equal(await again.control('button', 'Sign'), null);
    assert.deepEqual(await team.call('/public/envelope/get', { envelopeUuid }), before);
  } finally {
    await first.close();
    await again.close();
  }
});

test('a token after one hour on the team clock: "expired"', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Expired' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const token = tokenOf(await team.embedUrl(envelopeUuid, alice.email));
  await team.advanceClock(HOUR);
  const s = new Session(ctx);
  try {
    await s.open(token);
    assert.equal(await s.state(), 'expired');
    assert.match(await s.text(), /expired/);
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'signing');
});

test('an unknown token: "unknown"', async (ctx) => {
  const s = new Session(ctx);
  try {
    await s.open(`sit.${'A'.repeat(43)}`);
    assert.equal(await s.state(), 'unknown');
    assert.match(await s.text(), /unknown/);
  } finally {
    await s.close();
  }
});

test("team A's token cannot act on team B's envelope through the page's own requests", async (ctx) => {
  const a = await ctx.server.createTeam({ name: 'A' });
  const b = await ctx.server.createTeam({ name: 'B' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeA = await sentEnvelope(a, { recipients: [alice] });
  const envelopeB = await sentEnvelope(b, { recipients: [alice] });
  const tokenA = tokenOf(await a.embedUrl(envelopeA, alice.email));
  const beforeB = await b.call('/public/envelope/get', { envelopeUuid: envelopeB });
  const s = new Session(ctx);
  try {
    // The page's own origin and fetch, as a script injected into it would do.
    await s.open(await a.embedUrl(envelopeA, alice.email));
    const answers = await s.frame.evaluate(async (token, envelopeUuid, teamUuid, workspaceUuid) => {
      const post = async (path, body, headers = {}) => {
        const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
        return { status: r.status, body: await r.json().catch(() => null) };
      };
      const started = await post('/embeds/session/start', { token });
      const session = started.body?.session;
      return {
        started,
        // Naming B's envelope, team or workspace next to A's session.
        act: await post('/embeds/recipient/act', { session, action: 'sign', signatureName: 'Alice', envelopeUuid, teamUuid, workspaceUuid }),
        get: await post('/embeds/envelope/get', { session, envelopeUuid }),
        // A's session or token as B's credentials.
        asKey: await post('/public/envelope/get', { envelopeUuid }, { Authorization: `Bearer ${session}` }),
        tokenAsKey: await post('/public/envelope/get', { envelopeUuid }, { Authorization: `Bearer ${token}` }),
        tokenAsSession: await post('/embeds/envelope/get', { session: token }),
      };
    }, tokenA, envelopeB, b.uuid, b.defaultWorkspaceUuid);
    assert.equal(answers.started.status, 200, JSON.stringify(answers.started));
    for (const name of ['act', 'get']) {
      // Refused, or (extra members ignored) about A's envelope only.
      const r = answers[name];
      if (r.status === 200) {
        assert.notEqual(r.body.envelopeUuid ?? r.body.envelope?.uuid, envelopeB, name);
      } else {
        assert.ok(r.status >= 400 && r.body?.error?.code, `${name}: ${JSON.stringify(r)}`);
      }
    }
    for (const name of ['asKey', 'tokenAsKey']) assert.equal(answers[name].status, 401, `${name}: ${JSON.stringify(answers[name])}`);
    assert.ok(answers.tokenAsSession.status >= 400, JSON.stringify(answers.tokenAsSession));
  } finally {
    await s.close();
  }
  assert.deepEqual(await b.call('/public/envelope/get', { envelopeUuid: envelopeB }), beforeB);
});

test('keyboard only (Tab, typing, Enter) completes a signature', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Keyboard' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const s = new Session(ctx);
  try {
    await s.open(await team.embedUrl(envelopeUuid, alice.email));
    await s.mustHave('textbox', 'Your name');
    const focused = () => s.frame.evaluate(() => {
      const e = document.activeElement;
      return e && e !== document.body ? (e.labels?.[0]?.textContent ?? e.textContent).trim() : '';
    });
    let tabs = 0;
    while ((await focused()) !== 'Your name') {
      assert.ok(++tabs <= 12, 'Tab never reached the "Your name" textbox');
      await s.page.keyboard.press('Tab');
    }
    await s.page.keyboard.type('Alice Martin');
    await s.page.keyboard.press('Enter'); // submits: the confirmation comes, focused
    await s.mustHave('button', 'Confirm signature');
    assert.equal(await focused(), 'Confirm signature');
    await s.page.keyboard.press('Enter');
    await s.waitState('signed');
    assert.deepEqual((await s.received()).map((m) => m.data.type), ['subnoto:documentSigned']);
  } finally {
    await s.close();
  }
  assert.equal(await envelopeStatus(team, envelopeUuid), 'complete');
});

test('at 320 px wide there is no horizontal scroll and every control fits', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Narrow' });
  const alice = person(`a.very.long.address.${'x'.repeat(40)}@example.com`, 'Alexandrine-Marguerite', 'de La Tour-Martin');
  const carol = person('carol@example.com', 'Carol', 'Petit');
  const envelopeUuid = await sentEnvelope(team, {
    title: `A title without spaces ${'Averyveryverylongword'.repeat(6)}`,
    recipients: [carol, alice],
    blocks: [{ page: 1, x: 500, y: 800, width: 300, height: 100, text: 'Near the corner', recipientEmail: alice.email }],
  });
  for (const direct of [true, false]) {
    const s = new Session(ctx);
    try {
      if (direct) await s.open(await team.embedUrl(envelopeUuid, alice.email), { direct, viewport: { width: 320, height: 640 } });
      else await s.open(await team.embedUrl(envelopeUuid, carol.email), { width: 320 });
      const sizes = await s.frame.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        controls: [...document.querySelectorAll('button, input, textarea')].map((c) => c.getBoundingClientRect().right),
      }));
      // 320 px, less a vertical scroll bar where the browser draws one.
      assert.ok(sizes.client <= 320 && sizes.client >= 300, `clientWidth ${sizes.client}`);
      assert.ok(sizes.scroll <= sizes.client, `scrollWidth ${sizes.scroll} > ${sizes.client}`);
      assert.ok(sizes.controls.length >= 3);
      for (const right of sizes.controls) assert.ok(right <= sizes.client, `a control ends at ${right}`);
    } finally {
      await s.close();
    }
  }
});

test('CSP, ETag and 304 on reload; no request to another origin', async (ctx) => {
  const team = await ctx.server.createTeam({ name: 'Headers' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, {
    recipients: [alice],
    blocks: [{ page: 1, x: 10, y: 10, text: '<img src="http://127.0.0.2:9/tracker.png"><link rel=stylesheet href="http://127.0.0.2:9/x.css">' }],
  });
  const s = new Session(ctx);
  try {
    const responses = [];
    await s.open(await team.embedUrl(envelopeUuid, alice.email), { direct: true });
    const headers = s.response.headers();
    assert.equal(headers['content-security-policy'], CSP);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['cache-control'], 'no-cache');
    assert.match(headers.etag, /^"[0-9a-f]{32}"$/);
    assert.match(headers['content-type'], /^text\/html/);
    // Every request the page made went to the server's own origin.
    const origin = new URL(ctx.server.url).origin;
    const foreign = s.requests.filter((r) => new URL(r.url).origin !== origin);
    assert.deepEqual(foreign, []);
    // A reload asks again and gets 304 for the page, its script and its style.
    s.page.on('response', (r) => responses.push([new URL(r.url()).pathname, r.status()]));
    await s.page.reload();
    await s.frame.waitForSelector('#app:not([data-state="loading"])');
    const assets = responses.filter(([p]) => /^\/embeds\/sign(\.js|\.css)?$/.test(p));
    assert.deepEqual(assets.map(([, status]) => status), [304, 304, 304], JSON.stringify(responses));
    assert.equal(await s.state(), 'used'); // the token was single-use: the reload shows it
  } finally {
    await s.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Measurements: the page's weight, and navigation to a usable page (median of `loads` loads).

async function measure(ctx) {
  const weight = await pageWeight(ctx.server, ['/embeds/sign', '/embeds/sign.js', '/embeds/sign.css'], WEIGHT_LIMIT);
  const team = await ctx.server.createTeam({ name: 'Measure' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, { recipients: [alice] });
  const times = [];
  for (let i = 0; i < loads; i++) {
    const token = await team.embedUrl(envelopeUuid, alice.email);
    const s = new Session(ctx);
    try {
      await s.open(token, { direct: true });
      await s.mustHave('button', 'Sign');
      times.push(await s.page.evaluate(() => performance.now())); // ms since the navigation began
    } finally {
      await s.close();
    }
  }
  times.sort((x, y) => x - y);
  const median = times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
  console.log(`# page weight: ${weight} bytes (limit ${WEIGHT_LIMIT}): sign.html + sign.js + sign.css, uncompressed`);
  console.log(`# navigation to usable (the Sign button shown): median ${median.toFixed(1)} ms of ${times.length} loads ` +
    `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
}

// The README's picture: the page framed by the host page, a signer's turn, a document with blocks.
async function writeScreenshot(ctx, file) {
  const team = await ctx.server.createTeam({ name: 'Acme Rentals' });
  const alice = person('alice@example.com', 'Alice', 'Martin');
  const envelopeUuid = await sentEnvelope(team, {
    title: 'Lease agreement, 12 Rue des Lilas',
    recipients: [alice],
    blocks: [
      { page: 1, x: 60, y: 60, width: 280, height: 24, text: 'Tenant: Alice Martin' },
      { page: 1, x: 60, y: 96, width: 280, height: 24, text: 'Rent: 950 EUR a month' },
      { page: 1, x: 330, y: 150, width: 200, height: 50, text: 'Signature', recipientEmail: alice.email },
    ],
  });
  const s = new Session(ctx);
  try {
    await s.open(await team.embedUrl(envelopeUuid, alice.email), { viewport: { width: 900, height: 1034 } }); // the host's header and the frame
    await (await s.mustHave('textbox', 'Your name')).type('Alice Martin');
    await s.page.screenshot({ path: file });
    console.log(`# screenshot written: ${file}`);
  } finally {
    await s.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const server = await startServer();
  const host = await startHost();
  const browser = await launchBrowser();
  const ctx = { server, host, browser };
  let failures = 0;
  try {
    if (screenshot) {
      await writeScreenshot(ctx, screenshot);
      return 0;
    }
    const chosen = cases.filter((c) => !only || c.name.includes(only));
    if (chosen.length === 0 && !(only && 'measure'.includes(only))) throw new Error(`no case matches --only ${only}`);
    failures += await runCases(chosen, ctx);
    if (!only || 'measure'.includes(only)) {
      try {
        await measure(ctx);
        console.log('ok - measure: page weight and navigation to usable');
      } catch (error) {
        failures++;
        console.log(`not ok - measure\n${String(error?.stack ?? error).replace(/^/gm, '#   ')}`);
      }
    }
  } finally {
    await browser.close();
    await host.close();
    await server.stop();
  }
  console.log(`# ${failures ? `${failures} failed` : 'all passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failures ? 1 : 0;
}

process.exitCode = await main();
