// SPDX-License-Identifier: BSL-1.0
// What the browser tests share (run.mjs: the signing page; inspector.mjs: the inspector): the
// command line, where chromium and puppeteer-core are, the browser's launch, envelopes made
// through the API, waiting with a bound, and running the cases.
//
// Environment: ESIGN_SERVER (the server program; else esign-reference-server on PATH),
// ESIGN_CHROMIUM (else /usr/lib/chromium/chromium, else chromium on PATH), ESIGN_NPM_CACHE (where
// the npm packages were installed, as install_npm_tools.sh; its browser/ subdirectory).
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

// ---------------------------------------------------------------------------------------------
// Arguments and tools

const args = process.argv.slice(2);
export const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

function npmDirectory() {
  const base = process.env.ESIGN_NPM_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'esign-npm');
  return join(base, 'browser');
}

export function chromiumPath() {
  if (process.env.ESIGN_CHROMIUM) return process.env.ESIGN_CHROMIUM;
  // Debian's /usr/bin/chromium is a shell wrapper; the program itself starts faster and quieter.
  const candidates = ['/usr/lib/chromium/chromium',
    ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d || '.', 'chromium'))];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error('chromium not found: install it (Debian: apt-get install chromium) or set ESIGN_CHROMIUM');
}

export const puppeteer = createRequire(join(npmDirectory(), 'package.json'))('puppeteer-core');

export function launchBrowser() {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // No sandbox: CI runs as root in a container, where chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
  });
}

// ---------------------------------------------------------------------------------------------
// Envelopes, through the API

export const person = (email, firstname, lastname, role = 'signer') => ({ email, firstname, lastname, role });

// A sent envelope of two pages; blocks: [{page, x, y, text, recipientEmail?, width?, height?}].
export async function sentEnvelope(team, { title = 'Service agreement', recipients, signatureOrder = false, blocks = [] }) {
  const { envelopeUuid, documentUuids } = await team.createEnvelope({
    title, documents: [{ title: 'Agreement', pageCount: 2 }],
  });
  await team.call('/public/envelope/add-recipients', {
    envelopeUuid,
    // An iframe token needs a verified recipient (else RECIPIENT_VERIFICATION_DISABLED).
    recipients: recipients.map((r) => ({
      type: 'manual', email: r.email, firstname: r.firstname, lastname: r.lastname, verificationType: 'email',
    })),
  });
  for (const [i, r] of recipients.entries()) {
    const updates = {};
    if (r.role !== 'signer') updates.role = r.role;
    if (signatureOrder) updates.order = i + 1;
    if (Object.keys(updates).length) {
      await team.call('/public/envelope/update-recipient', { envelopeUuid, email: r.email, role: 'signer', updates });
    }
  }
  if (signatureOrder) await team.call('/public/envelope/update', { envelopeUuid, update: { signatureOrder: true } });
  if (blocks.length) {
    await team.call('/public/envelope/add-blocks', {
      envelopeUuid, documentUuid: documentUuids[0],
      blocks: blocks.map((b) => ({ type: 'text', ...b, page: String(b.page ?? 1) })),
    });
  }
  await team.call('/public/envelope/send', { envelopeUuid });
  return envelopeUuid;
}

// Waits for a condition checked through the API, polling (bounded).
export async function eventually(what, check, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------------------------------------
// Cases: {name, fn(ctx)}, run one after the other; prints TAP-like lines, resolves to the number
// that failed.
export async function runCases(chosen, ctx) {
  let failures = 0;
  for (const c of chosen) {
    const t0 = Date.now();
    try {
      await c.fn(ctx);
      console.log(`ok - ${c.name} (${Date.now() - t0} ms)`);
    } catch (error) {
      failures++;
      console.log(`not ok - ${c.name} (${Date.now() - t0} ms)\n${String(error?.stack ?? error).replace(/^/gm, '#   ')}`);
    }
  }
  return failures;
}

// A page's weight: the bytes of its files as served (each must answer 200), at most `limit`.
export async function pageWeight(server, paths, limit) {
  let weight = 0;
  for (const path of paths) {
    const r = await fetch(server.url + path);
    if (r.status !== 200) throw new Error(`${path}: status ${r.status}`);
    weight += (await r.arrayBuffer()).byteLength;
  }
  if (weight > limit) throw new Error(`${paths[0]} weighs ${weight} bytes, over ${limit}`);
  return weight;
}
