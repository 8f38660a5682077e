// SPDX-License-Identifier: BSL-1.0
// Tests of esign_reference.mjs against the real server (ESIGN_SERVER, else PATH).
// Run: node --test examples/clients/node/
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { EsignError, Team, attach, startServer } from './esign_reference.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY = 86_400_000;
const START = 1_700_000_000_000; // a fixed instant for teams with a frozen clock
const NO_SUCH_UUID = '0'.repeat(36);

const recipient = (email, role = 'signer') =>
  ({ type: 'manual', email, firstname: 'Ada', lastname: 'Lovelace', role });

/** Checks that promise rejects with an EsignError of this status and code. */
async function rejectsWith(promise, status, code) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof EsignError, `not an EsignError: ${error}`);
    assert.deepEqual([error.status, error.code], [status, code]);
    assert.match(error.requestId, UUID);
    return true;
  });
}

describe('server process', () => {
  it('starts, answers health, and stops cleanly', async () => {
    const server = await startServer();
    assert.deepEqual(await server.health(), { status: 'ok' });
    assert.match((await server.createTeam()).uuid, UUID);
    assert.equal(await server.stop(), 0); // SIGTERM is a clean stop: exit status 0
    await assert.rejects(server.health(), { code: 'ECONNREFUSED' });
  });

  it('reports the exit status and stderr of a failed start', async () => {
    await assert.rejects(startServer({ fixture: '/nonexistent/fixture.json' }),
      (error) => /exited with status 2/.test(error.message) && /--fixture/.test(error.message));
  });

  it('attaches to a running server and leaves it running', async () => {
    const server = await startServer();
    try {
      const attached = attach(server.url);
      const team = await attached.createTeam({ name: 'attached' });
      assert.equal((await team.call('/public/utils/whoami')).teamName, 'attached');
      assert.equal(await attached.stop(), null);
      assert.deepEqual(await server.health(), { status: 'ok' });
    } finally {
      await server.stop();
    }
  });

  it('needs the control token when the server has one', async () => {
    const server = await startServer({ controlToken: 's3cret' });
    try {
      // Handed over in the server's environment, never on its command line.
      const cmdline = `/proc/${server.process.pid}/cmdline`;
      if (existsSync(cmdline)) assert.ok(!readFileSync(cmdline, 'latin1').includes('s3cret'));
      const team = await server.createTeam(); // the client sends the token
      for (const controlToken of [undefined, 'wrong']) {
        await rejectsWith(attach(server.url, { controlToken }).createTeam(),
          401, 'AUTHENTICATION_ERROR');
      }
      // A team key never grants a server-wide operation, but does the team-scoped ones.
      await rejectsWith(team.call('/_control/team/create'), 401, 'AUTHENTICATION_ERROR');
      assert.equal(typeof await team.now(), 'number');
    } finally {
      await server.stop();
    }
  });
});

describe('team operations', () => {
  let server;
  before(async () => { server = await startServer(); });
  after(() => server?.stop());

  it('returns the team record', async () => {
    const team = await server.createTeam({ name: 'record' });
    const whoami = await team.call('/public/utils/whoami', {});
    assert.equal(whoami.teamUuid, team.uuid);
    assert.equal(whoami.ownerEmail, team.ownerEmail);
    const { workspace } = await team.call('/public/workspace/get',
      { workspaceUuid: team.defaultWorkspaceUuid });
    assert.equal(workspace.isDefault, true);
  });

  it('gives seeded teams the same identifiers', async () => {
    const first = await server.createTeam({ seed: 42, startTime: START });
    const second = await server.createTeam({ seed: 42, startTime: START });
    assert.equal(first.uuid, second.uuid); // §6.3: even the team's own uuid
    assert.notEqual(first.apiKey, second.apiKey); // keys never come from a seed
    assert.deepEqual(await first.createEnvelope({ title: 'E' }),
      await second.createEnvelope({ title: 'E' }));
  });

  it('isolates teams from each other', async () => {
    const team = await server.createTeam();
    const other = await server.createTeam();
    const { envelopeUuid } = await team.createEnvelope({ title: 'Mine' });
    assert.equal((await team.call('/public/envelope/get', { envelopeUuid })).title, 'Mine');
    await rejectsWith(other.call('/public/envelope/get', { envelopeUuid }),
      400, 'ENVELOPE_NOT_FOUND');
    await rejectsWith(other.act(envelopeUuid, 'a@example.com', 'open'),
      400, 'ENVELOPE_NOT_FOUND');
    await rejectsWith(other.call('/public/workspace/get',
      { workspaceUuid: team.defaultWorkspaceUuid }), 400, 'WORKSPACE_NOT_FOUND');
    assert.deepEqual((await other.call('/public/envelope/list')).envelopes, []);
  });

  it('rejects with status, code, details and requestId', async () => {
    const team = await server.createTeam();
    await rejectsWith(team.call('/public/envelope/get', { envelopeUuid: 36 }),
      400, 'INVALID_REQUEST_FORMAT');
    const error = await team.call('/public/envelope/get', { envelopeUuid: 36 })
      .catch((e) => e);
    assert.deepEqual(error.details.map((d) => d.path), [['envelopeUuid']]);
    assert.ok(error.message);
    assert.equal(error.body.path, '/public/envelope/get');
    await rejectsWith(new Team(server, { apiKey: 'not-a-key' }).call('/public/envelope/list'),
      401, 'AUTHENTICATION_ERROR');
    await assert.rejects(team.call('/public/no/such/operation'), { status: 404 });
  });

  it('advances the clock of this team only', async () => {
    const frozen = await server.createTeam({ startTime: START }); // frozen clocks: exact values
    const other = await server.createTeam({ startTime: START });
    assert.equal(await frozen.now(), START);
    const first = (await frozen.createEnvelope({ title: 'Before' })).envelopeUuid;
    assert.equal(await frozen.advanceClock(DAY), START + DAY);
    const second = (await frozen.createEnvelope({ title: 'After' })).envelopeUuid;
    const dates = [];
    for (const envelopeUuid of [first, second]) {
      dates.push((await frozen.call('/public/envelope/get', { envelopeUuid })).creationDate);
    }
    assert.deepEqual(dates, [START, START + DAY]);
    assert.equal(await frozen.now(), START + DAY);
    assert.equal(await other.now(), START);
  });

  it('empties the team on reset', async () => {
    const team = await server.createTeam();
    await team.createEnvelope({ title: 'Gone soon' });
    await team.call('/public/envelope/list');
    await team.addFault({ operation: '/public/envelope/get', error: 'INTERNAL_SERVER_ERROR' });
    await team.reset();
    assert.deepEqual((await team.call('/public/envelope/list')).envelopes, []);
    assert.equal((await team.journal()).length, 1); // only the list just made
    assert.deepEqual(await team.faults(), []);
    assert.equal((await team.call('/public/utils/whoami')).teamUuid, team.uuid);
  });

  it('fails the next matching call with an injected fault', async () => {
    const team = await server.createTeam();
    const fault = await team.addFault({
      operation: '/public/envelope/list', error: 'FEATURE_NOT_IN_CURRENT_PLAN' });
    assert.deepEqual((await team.faults()).map((f) => [f.faultUuid, f.times]), [[fault, 1]]);
    await team.call('/public/utils/whoami'); // another operation is not affected
    await rejectsWith(team.call('/public/envelope/list'), 403, 'FEATURE_NOT_IN_CURRENT_PLAN');
    assert.deepEqual(await team.faults(), []);
    await team.call('/public/envelope/list'); // the rule is used up

    await team.addFault({ operation: '/public/envelope/list', error: 'INTERNAL_SERVER_ERROR', times: 5 });
    await team.clearFaults();
    await team.call('/public/envelope/list');
  });

  it('closes the connection for a drop fault', async () => {
    const team = await server.createTeam();
    await team.addFault({ operation: '/public/envelope/list', action: 'drop' });
    await assert.rejects(team.call('/public/envelope/list'), { code: 'ECONNRESET' });
  });

  it('lists the calls in the journal', async () => {
    const team = await server.createTeam();
    await team.call('/public/envelope/list', { page: 1 });
    await assert.rejects(team.call('/public/envelope/get', { envelopeUuid: NO_SUCH_UUID }));
    const entries = await team.journal();
    assert.deepEqual(entries.map((e) => [e.path, e.status]),
      [['/public/envelope/list', 200], ['/public/envelope/get', 400]]);
    assert.deepEqual(entries[0].request, { page: 1 });
    assert.equal(entries[1].response.error.code, 'ENVELOPE_NOT_FOUND');
    assert.deepEqual((await team.journal({ status: 400 })).map((e) => e.path),
      ['/public/envelope/get']);
    await team.clearJournal();
    assert.deepEqual(await team.journal(), []);
  });

  it('restores a snapshot into a new team', async () => {
    const source = await server.createTeam();
    await source.createEnvelope({ title: 'One', tags: ['a'] });
    const { envelopeUuid } = await source.createEnvelope({ title: 'Two' });
    await source.call('/public/envelope/add-recipients',
      { envelopeUuid, recipients: [recipient('s@example.com')] });
    const target = await server.createTeam();
    await target.restore(await source.snapshot());
    const listing = async (t) => (await t.call('/public/envelope/list')).envelopes
      .map((e) => [e.uuid, e.title, e.status, e.creationDate, e.tags]);
    assert.equal((await listing(source)).length, 2);
    assert.deepEqual(await listing(target), await listing(source));
    assert.equal((await target.call('/public/utils/whoami')).teamUuid, target.uuid);
    await target.reset(); // the copy is the target's own: resetting it leaves the source alone
    assert.equal((await listing(source)).length, 2);
  });

  it('sends, fills the outbox, and lets a recipient act', async () => {
    const team = await server.createTeam();
    const { envelopeUuid } = await team.createEnvelope({ title: 'To sign' });
    await team.call('/public/envelope/add-recipients',
      { envelopeUuid, recipients: [recipient('signer@example.com')] });
    await team.call('/public/envelope/send', { envelopeUuid });
    assert.deepEqual((await team.outbox()).map((m) => [m.to, m.kind, m.envelopeUuid]),
      [['signer@example.com', 'invitation', envelopeUuid]]);
    assert.deepEqual(await team.act(envelopeUuid, 'signer@example.com', 'sign'),
      { envelopeStatus: 'complete', recipientStatus: 'signed' });
    await rejectsWith(team.act(envelopeUuid, 'signer@example.com', 'sign'),
      400, 'ACTION_NOT_ALLOWED');
  });

  it('gives embed URLs and signing links that the signing page operations accept', async () => {
    const team = await server.createTeam();
    const { envelopeUuid } = await team.createEnvelope({ title: 'To sign' });
    await team.call('/public/envelope/add-recipients', {
      envelopeUuid, recipients: [{ ...recipient('signer@example.com'), verificationType: 'email' }],
    });
    await team.call('/public/envelope/send', { envelopeUuid });
    const link = await team.signingLink(envelopeUuid, 'signer@example.com');
    assert.ok(link.startsWith(`${server.url}/embeds/sign#t=slt.`), link);
    assert.equal((await team.outbox())[0].signingUrl, link);
    const url = await team.embedUrl(envelopeUuid, 'signer@example.com');
    assert.ok(url.startsWith(`${server.url}/embeds/sign#t=sit.`), url);
    const token = url.split('#t=')[1];
    const { session } = await server.embeds('session/start', { token });
    await rejectsWith(server.embeds('session/start', { token }), 409, 'SIGNING_TOKEN_USED');
    const page = await server.embeds('envelope/get', { session });
    assert.equal(page.recipient.email, 'signer@example.com');
    assert.equal(page.actions.sign, true);
    const done = await server.embeds('recipient/act',
      { session, action: 'sign', signatureName: 'Ada Lovelace' });
    assert.equal(done.envelopeStatus, 'complete');
    assert.equal(done.completed, true);
  });

  it('creates from a control template and cancels', async () => {
    const team = await server.createTeam();
    const { templateUuid } = await team.createTemplate({ title: 'Lease', recipientLabels: ['Tenant'] });
    const { envelopeUuid } = await team.call('/public/envelope/create-from-template', {
      templateUuid, recipients: [{ ...recipient('t@example.com'), label: 'Tenant' }] });
    await team.cancelEnvelope(envelopeUuid);
    const got = await team.call('/public/envelope/get', { envelopeUuid });
    assert.equal(got.status, 'canceled');
    assert.deepEqual(got.recipients.map((r) => r.email), ['t@example.com']);
  });

  it('changes the plan with team update', async () => {
    const team = await server.createTeam();
    await team.update({ features: ['sms', 'timestamp'] });
    await rejectsWith(team.call('/public/webhook/create', {
      url: 'http://127.0.0.1:9/', contentType: 'application/json', sslVerify: false, active: true,
    }), 403, 'FEATURE_NOT_IN_CURRENT_PLAN');
  });

  it('records webhook deliveries', async () => {
    const team = await server.createTeam();
    let delivered;
    const received = new Promise((resolve) => { delivered = resolve; });
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { Connection: 'close' }).end();
        delivered();
      });
    });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { webhook } = await team.call('/public/webhook/create', {
        url: `http://127.0.0.1:${receiver.address().port}/hook`,
        contentType: 'application/json', sslVerify: false, active: true,
        events: ['ENVELOPE_CREATED'],
      });
      await team.createEnvelope({ title: 'Announced' });
      await Promise.race([received, new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error('no delivery within 30 s')), 30000).unref();
      })]);
      // The record is written once the answer is read: poll for it, bounded.
      const deadline = Date.now() + 30000;
      let deliveries;
      for (;;) {
        deliveries = await team.webhookDeliveries(webhook.uuid);
        if (deliveries.some((d) => d.delivered) || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(deliveries.map((d) => [d.eventType, d.delivered, d.lastStatus]),
        [['ENVELOPE_CREATED', true, 200]]);
      assert.deepEqual(await team.webhookDeliveries(NO_SUCH_UUID), []);
    } finally {
      receiver.closeAllConnections?.();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
