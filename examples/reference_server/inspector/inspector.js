// SPDX-License-Identifier: BSL-1.0
// The inspector (contract.md §7.2): what a test did, at a glance. It reads only through the
// operations the typed credentials allow, all POSTs of this server:
//   a team's key:  /_control/clock/now, /_control/team/snapshot (envelopes, recipients, logs and
//                  pending webhook jobs: one read that is not journaled, so watching a team never
//                  fills its journal), /_control/journal/list (new entries only, with `since`),
//                  /_control/outbox/list (signing links), /_control/webhook/deliveries;
//   the operator:  /_control/clock/now, /_control/outbox/list, /_control/webhook/deliveries
//                  without a team key (every team), with the control token when one is typed.
// The key and the token live in this tab's sessionStorage, never in the address or history.
// Polling at most once a second (the next poll starts when the last has answered); a refresh
// rebuilds only what changed and keeps filters, focus, open details and the chosen envelope.
// Everything that came from the server is shown as text (textContent), never parsed as HTML.
(function () {
  'use strict';

  var POLL_MS = 1000;
  var JOURNAL_KEEP = 1000; // as many as a journal holds by default (--journal-size)
  var KEY = 'esign-inspector.key';
  var TOKEN = 'esign-inspector.token';
  var OPERATOR = 'esign-inspector.operator';
  var LOADS = 'esign-inspector.loads';
  var SVG = 'http://www.w3.org/2000/svg';
  var store = window.sessionStorage;

  // How many times this tab loaded the page: a refresh must never be a reload (tests read it).
  var loads = Number(store.getItem(LOADS) || 0) + 1;
  store.setItem(LOADS, String(loads));
  document.body.setAttribute('data-loads', String(loads));

  var $ = function (id) { return document.getElementById(id); };
  var timer = null;
  var busy = false;
  var selected = null; // the envelope whose history is drawn
  var team = null; // the last team data: {now, envelopes, logs, jobs, emails, deliveries}
  var journal = { entries: [], last: 0, nextSeq: 0 };
  var webhookEvents = {}; // eventUuid -> {envelopeUuid, time}: what pending jobs told, kept

  // el('p', {class: 'x'}, 'text', child...): strings become text nodes, never markup.
  function el(tag, attributes) {
    var node = document.createElement(tag);
    setAttributes(node, attributes);
    append(node, arguments, 2);
    return node;
  }
  function svg(tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    setAttributes(node, attributes);
    append(node, arguments, 2);
    return node;
  }
  function setAttributes(node, attributes) {
    for (var name in attributes || {}) {
      var v = attributes[name];
      if (v === null || v === undefined || v === false) continue;
      if (name === 'class') node.setAttribute('class', v);
      else node.setAttribute(name, v === true ? '' : String(v));
    }
  }
  function append(node, children, from) {
    for (var i = from; i < children.length; i++) {
      var child = children[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
  }
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }
  function show(node, visible) {
    node.hidden = !visible;
  }

  function iso(ms) {
    var d = new Date(ms);
    return isNaN(d.getTime()) ? String(ms) : d.toISOString();
  }
  function shortUuid(uuid) {
    return typeof uuid === 'string' && uuid.length > 8 ? uuid.slice(0, 8) + '…' : String(uuid || '');
  }
  function masked(secret) {
    return secret.length > 10 ? secret.slice(0, 4) + '…' + secret.slice(-4) : '…';
  }
  function personName(r) {
    return [r.firstname, r.lastname].filter(Boolean).join(' ') || r.email || '';
  }
  // A problem's path as a client writes it: recipients[0].email; the whole body: (body).
  function problemPath(path) {
    if (!Array.isArray(path) || path.length === 0) return '(body)';
    var out = '';
    path.forEach(function (p) {
      if (typeof p === 'number') out += '[' + p + ']';
      else out += (out ? '.' : '') + String(p);
    });
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // Requests: POST, JSON, relative to this page (so a server behind a path prefix works).

  function call(path, body, credentials) {
    var headers = { 'Content-Type': 'application/json' };
    if (credentials) headers.Authorization = 'Bearer ' + credentials;
    return fetch(path, {
      method: 'POST', headers: headers, body: JSON.stringify(body || {}),
      credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer'
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { /* not JSON: the text is the message */ }
        if (response.ok && data && typeof data === 'object') return data;
        var error = (data && data.error) || {};
        throw { status: response.status, code: error.code || '', message: error.message || text || 'no answer' };
      });
    });
  }
  function describe(e) {
    if (e && e.status) return 'HTTP ' + e.status + (e.code ? ' ' + e.code : '') + ': ' + e.message;
    return 'the server did not answer (' + (e && e.message ? e.message : String(e)) + ')';
  }

  // ---------------------------------------------------------------------------------------
  // Rendering that keeps what the user is on: keyed children replaced only when their
  // signature changed, then the focused control found again by its data-fk.

  function sync(container, items) {
    var old = {};
    Array.prototype.forEach.call(container.children, function (c) { old[c.getAttribute('data-key')] = c; });
    var previous = null;
    items.forEach(function (item) {
      var node = old[item.key];
      if (!node || node.getAttribute('data-sig') !== item.sig) {
        var fresh = item.build();
        fresh.setAttribute('data-key', item.key);
        fresh.setAttribute('data-sig', item.sig);
        if (node) {
          keepOpen(node, fresh);
          container.replaceChild(fresh, node);
        }
        node = fresh;
      }
      delete old[item.key];
      var wanted = previous ? previous.nextSibling : container.firstChild;
      if (node !== wanted) container.insertBefore(node, wanted);
      previous = node;
    });
    Object.keys(old).forEach(function (k) { container.removeChild(old[k]); });
  }
  function keepOpen(from, to) {
    var open = from.querySelectorAll('details[open]');
    Array.prototype.forEach.call(open, function (d) {
      var again = d.getAttribute('data-fk') && to.querySelector('details[data-fk="' + d.getAttribute('data-fk') + '"]');
      if (again) again.open = true;
    });
  }
  function keepingFocus(render) {
    var active = document.activeElement;
    var holder = active && active.closest ? active.closest('[data-fk]') : null;
    var fk = holder ? holder.getAttribute('data-fk') : null;
    render();
    if (fk && (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected)) {
      var again = document.querySelector('[data-fk="' + CSS.escape(fk) + '"]');
      if (again) again.focus({ preventScroll: true });
    }
  }

  // ---------------------------------------------------------------------------------------
  // Credentials

  function credentials() {
    return { key: store.getItem(KEY) || '', token: store.getItem(TOKEN) || '', operator: store.getItem(OPERATOR) === '1' };
  }
  function showCredentials() {
    var c = credentials();
    var parts = [];
    if (c.key) parts.push('team key ' + masked(c.key));
    if (c.operator) parts.push('operator view' + (c.token ? ' with control token ' + masked(c.token) : ' without a control token'));
    setText($('credentials-state'), parts.length ? 'In use: ' + parts.join('; ') + '.' : 'No credentials yet.');
    show($('team'), !!c.key);
    show($('history'), !!c.key);
    show($('operator'), c.operator);
    show($('journal-section'), !!c.key);
    ['deliveries-section', 'outbox-section'].forEach(function (id) { show($(id), !!c.key || c.operator); });
  }
  $('team-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var key = $('key').value.trim();
    $('key').value = ''; // not left on screen
    if (!key) return;
    store.setItem(KEY, key);
    team = null;
    journal = { entries: [], last: 0, nextSeq: 0 };
    selected = null;
    $('journal').textContent = '';
    showCredentials();
    refresh();
  });
  $('operator-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var token = $('token').value.trim();
    $('token').value = '';
    if (token) store.setItem(TOKEN, token);
    else store.removeItem(TOKEN);
    store.setItem(OPERATOR, '1');
    showCredentials();
    refresh();
  });
  $('forget').addEventListener('click', function () {
    [KEY, TOKEN, OPERATOR].forEach(function (k) { store.removeItem(k); });
    team = null;
    journal = { entries: [], last: 0, nextSeq: 0 };
    selected = null;
    ['journal', 'envelopes', 'timeline'].forEach(function (id) { $(id).textContent = ''; });
    ['teams', 'deliveries', 'outbox'].forEach(function (id) { $(id).tBodies[0].textContent = ''; });
    showCredentials();
    setText($('status'), 'Keys forgotten.');
  });

  // ---------------------------------------------------------------------------------------
  // Polling

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if ($('live').checked) timer = setTimeout(refresh, POLL_MS);
  }
  $('live').addEventListener('change', schedule);
  $('refresh').addEventListener('click', refresh);

  function refresh() {
    if (busy) return;
    var c = credentials();
    var jobs = [];
    if (c.key) jobs.push(refreshTeam(c.key));
    if (c.operator) jobs.push(refreshOperator(c.token));
    if (!jobs.length) return schedule();
    busy = true;
    Promise.all(jobs).then(function () {
      setText($('status'), 'Updated ' + new Date().toLocaleTimeString() + ($('live').checked ? ' · live' : ' · paused'));
    }).finally(function () {
      busy = false;
      schedule();
    });
  }

  function refreshTeam(key) {
    return Promise.all([
      call('_control/clock/now', {}, key),
      call('_control/team/snapshot', {}, key),
      call('_control/outbox/list', {}, key),
      call('_control/webhook/deliveries', {}, key)
    ]).then(function (r) {
      var state = r[1].team.state || {};
      // A team reset or restore starts the team's sequence again: read the journal anew.
      if (typeof state.next_seq === 'number' && state.next_seq < journal.nextSeq) {
        journal = { entries: [], last: 0, nextSeq: 0 };
        $('journal').textContent = '';
      }
      journal.nextSeq = state.next_seq || 0;
      team = {
        name: r[1].team.name || '',
        uuid: r[1].team.uuid || '',
        now: r[0].now,
        envelopes: Object.keys(state.envelopes || {}).map(function (k) { return state.envelopes[k]; }),
        logs: state.logs || [],
        jobs: state.pending_deliveries || [],
        emails: r[2].emails || [],
        deliveries: r[3].deliveries || []
      };
      // From the last entry held, included: when it is no longer there, the journal was cleared.
      return call('_control/journal/list', journal.last ? { since: journal.last - 1, limit: 1000 } : { limit: 1000 }, key);
    }).then(function (j) {
      var fresh = j.entries || [];
      if (journal.last) {
        if (fresh.length && fresh[0].sequence === journal.last) {
          fresh = fresh.slice(1);
        } else {
          journal.entries = [];
          $('journal').textContent = '';
          if (!fresh.length) journal.last = 0;
        }
      }
      fresh.forEach(function (e) {
        journal.entries.push(e);
        journal.last = Math.max(journal.last, e.sequence);
      });
      if (journal.entries.length > JOURNAL_KEEP) journal.entries.splice(0, journal.entries.length - JOURNAL_KEEP);
      show($('team-error'), false);
      keepingFocus(renderTeam);
    }).catch(function (e) {
      setText($('team-error'), 'The team could not be read: ' + describe(e) +
        (e && e.status === 401 ? '. Check the key (a reset of the server makes new keys).' : ''));
      show($('team-error'), true);
    });
  }

  function refreshOperator(token) {
    return Promise.all([
      call('_control/clock/now', {}, token),
      call('_control/outbox/list', {}, token),
      call('_control/webhook/deliveries', {}, token)
    ]).then(function (r) {
      show($('operator-error'), false);
      keepingFocus(function () { renderOperator(r[0].now, r[1].emails || [], r[2].deliveries || []); });
    }).catch(function (e) {
      setText($('operator-error'), 'The operator\'s operations were refused: ' + describe(e) +
        (e && e.status === 401 ? '. This server has a control token: type it above.' : ''));
      show($('operator-error'), true);
      $('teams').tBodies[0].textContent = '';
      setText($('server-clock'), '');
    });
  }

  // ---------------------------------------------------------------------------------------
  // The operator's view

  function renderOperator(now, emails, deliveries) {
    setText($('server-clock'), 'Server clock: ' + iso(now) + ' (' + now + ' ms)');
    var teams = {};
    var order = [];
    emails.forEach(function (m) {
      if (!teams[m.teamUuid]) { teams[m.teamUuid] = { count: 0, last: m.timestamp }; order.push(m.teamUuid); }
      teams[m.teamUuid].count++;
      teams[m.teamUuid].last = Math.max(teams[m.teamUuid].last, m.timestamp);
    });
    sync($('teams').tBodies[0], order.map(function (uuid) {
      var t = teams[uuid];
      return { key: uuid, sig: JSON.stringify(t), build: function () {
        return el('tr', null, el('td', { class: 'mono' }, uuid), el('td', null, String(t.count)), el('td', null, iso(t.last)));
      } };
    }));
    if (!credentials().key) { // the team's view shows its own when a key is in use
      renderDeliveries(deliveries);
      renderOutbox(emails, true);
    }
  }

  // ---------------------------------------------------------------------------------------
  // The team's view

  // Whether recipient i may act now (lifecycle.hpp is_turn): pending, of the phase's role, and
  // with signature order the lowest order among the pending of that role.
  function isTurn(envelope, i) {
    var role = envelope.status === 'approving' ? 'approver' : envelope.status === 'signing' ? 'signer' : null;
    var all = (envelope.recipients || []).map(function (r) { return r.data || r; });
    var me = all[i];
    if (!role || !me || me.role !== role || me.status !== 'pending') return false;
    if (!envelope.signature_order) return true;
    return !all.some(function (o) { return o.role === role && o.status === 'pending' && o.order < me.order; });
  }

  // The last signing link the outbox holds for a recipient of an envelope.
  function signingLink(envelopeUuid, email) {
    var link = null;
    team.emails.forEach(function (m) {
      if (m.envelopeUuid === envelopeUuid && m.to === email && m.signingUrl) link = m.signingUrl;
    });
    return link;
  }

  function renderTeam() {
    setText($('h-team'), 'Team ' + team.name + ' ');
    $('h-team').appendChild(el('span', { class: 'badge mono' }, team.uuid));
    setText($('team-clock'), 'Team clock: ' + iso(team.now) + ' (' + team.now + ' ms)');
    var envelopes = team.envelopes.slice().sort(function (a, b) { return (a.seq || 0) - (b.seq || 0); });
    if (selected && !envelopes.some(function (e) { return e.uuid === selected; })) selected = null;
    if (!selected && envelopes.length) selected = envelopes[envelopes.length - 1].uuid;
    show($('no-envelopes'), envelopes.length === 0);
    sync($('envelopes'), envelopes.map(function (e) {
      var people = (e.recipients || []).map(function (r, i) {
        var d = r.data || r;
        return { name: personName(d), email: d.email, role: d.role, status: d.status, turn: isTurn(e, i), link: signingLink(e.uuid, d.email) };
      });
      var sig = JSON.stringify([e.title, e.status, e.creation_date, e.uuid === selected, people]);
      return { key: e.uuid, sig: sig, build: function () { return envelopeCard(e, people); } };
    }));
    renderTimeline();
    renderJournal();
    renderDeliveries(team.deliveries);
    renderOutbox(team.emails, false);
  }

  function envelopeCard(e, people) {
    var pick = el('button', { type: 'button', class: 'link', 'aria-pressed': e.uuid === selected ? 'true' : 'false', 'data-fk': 'env-' + e.uuid },
      e.title || '(untitled)');
    pick.addEventListener('click', function () {
      selected = e.uuid;
      keepingFocus(renderTeam);
    });
    var list = el('ul');
    people.forEach(function (p) {
      var item = el('li', null, p.name + ' <' + p.email + '> · ' + p.role + ' · ' + p.status);
      if (p.turn) item.appendChild(el('span', { class: 'turn' }, ' · ▶ their turn'));
      item.appendChild(document.createTextNode(' · '));
      if (p.link) {
        item.appendChild(el('a', { href: p.link, target: '_blank', rel: 'noopener noreferrer', 'data-fk': 'act-' + e.uuid + '-' + p.email },
          'Act as ' + p.name));
      } else {
        item.appendChild(el('span', { class: 'muted' }, 'no signing link (no e-mail sent)'));
      }
      list.appendChild(item);
    });
    var waiting = people.filter(function (p) { return p.turn; }).map(function (p) { return p.name; });
    return el('li', { 'data-envelope': e.uuid },
      pick, el('span', { class: 'badge', 'data-status': e.status }, e.status),
      el('p', { class: 'muted' }, 'Created ' + iso(e.creation_date) + ' · ' + e.uuid),
      el('p', null, waiting.length ? 'Whose turn: ' + waiting.join(', ') : 'Whose turn: nobody'),
      list);
  }

  // ---------------------------------------------------------------------------------------
  // One envelope's history on the team's clock

  var SHAPES = {
    ENVELOPE_CREATED: 'circle', ENVELOPE_SENT: 'circle', ENVELOPE_COMPLETED: 'circle', ENVELOPE_DECLINED: 'circle',
    ENVELOPE_CANCELED: 'circle', ENVELOPE_EXPIRED: 'circle', ENVELOPE_OPENED: 'diamond', RECIPIENT_VERIFIED: 'diamond',
    RECIPIENT_APPROVED: 'diamond', DOCUMENT_SIGNED: 'diamond'
  };

  function historyOf(uuid) {
    var events = [];
    team.logs.forEach(function (l) {
      var entry = l.entry || l;
      if (entry.category !== 'envelope' || entry.envelopeUuid !== uuid) return;
      var data = entry.eventData || {};
      var who = data.recipientEmail || data.email || data.signerEmail || '';
      events.push({ kind: entry.eventType, shape: SHAPES[entry.eventType] || 'circle', time: entry.timestamp,
        label: entry.eventType + (who ? ' · ' + who : ''), order: l.seq || 0 });
    });
    team.emails.forEach(function (m, i) {
      if (m.envelopeUuid !== uuid) return;
      events.push({ kind: 'EMAIL_' + m.kind, shape: 'square', time: m.timestamp, label: 'e-mail ' + m.kind + ' · ' + m.to, order: 1e12 + i });
    });
    // Webhook attempts: a pending job tells its event's envelope and time (kept once seen).
    team.jobs.forEach(function (j) {
      try {
        var p = JSON.parse(j.payload || '{}');
        var env = (p.data && (p.data.envelopeUuid || p.data.uuid)) || p.envelopeUuid;
        if (env) webhookEvents[j.event_uuid] = { envelopeUuid: env, time: p.eventTime };
      } catch (e) { /* not JSON: not placed */ }
    });
    team.deliveries.forEach(function (d, i) {
      var seen = webhookEvents[d.eventUuid];
      if (!seen || seen.envelopeUuid !== uuid) return;
      var failed = !d.delivered && (d.lastStatus !== null && d.lastStatus !== undefined || d.dropped);
      var state = d.delivered ? 'delivered' : failed ? 'failed' : 'pending';
      events.push({ kind: 'WEBHOOK_' + state, shape: state === 'delivered' ? 'triangle' : state === 'failed' ? 'cross' : 'triangle',
        status: state, time: typeof seen.time === 'number' ? seen.time : Date.parse(seen.time),
        label: 'webhook ' + d.eventType + ' · ' + (d.delivered ? '✓ delivered' : failed ? '✕ failed' : 'pending') +
          ' · ' + d.attempts + ' attempt' + (d.attempts === 1 ? '' : 's') + (d.lastStatus ? ' · last ' + d.lastStatus : ''),
        order: 2e12 + i });
    });
    events = events.filter(function (e) { return typeof e.time === 'number' && !isNaN(e.time); });
    events.sort(function (a, b) { return a.time - b.time || a.order - b.order; });
    return events;
  }

  function shape(kind, x, y) {
    var r = 6;
    if (kind === 'circle') return svg('circle', { class: 'shape', cx: x, cy: y, r: r });
    if (kind === 'square') return svg('rect', { class: 'shape', x: x - r, y: y - r, width: 2 * r, height: 2 * r });
    if (kind === 'diamond') return svg('path', { class: 'shape', d: 'M' + x + ' ' + (y - r - 1) + 'l' + (r + 1) + ' ' + (r + 1) + 'l-' + (r + 1) + ' ' + (r + 1) + 'l-' + (r + 1) + '-' + (r + 1) + 'z' });
    if (kind === 'cross') return svg('path', { class: 'shape', d: 'M' + (x - r) + ' ' + (y - r) + 'l' + 2 * r + ' ' + 2 * r + 'm0-' + 2 * r + 'l-' + 2 * r + ' ' + 2 * r });
    return svg('path', { class: 'shape', d: 'M' + x + ' ' + (y - r - 1) + 'l' + (r + 1) + ' ' + (2 * r + 1) + 'h-' + (2 * r + 2) + 'z' });
  }

  // A marker's words beside it: on its right in the left half, on its left in the right half;
  // fit() moves them inside the drawing once they can be measured.
  function label(text, px, y, width) {
    return px < width / 2 ? svg('text', { class: 'label', x: px + 10, y: y }, text)
      : svg('text', { class: 'label', x: px - 10, y: y, 'text-anchor': 'end' }, text);
  }
  function fit(drawing, width) {
    Array.prototype.forEach.call(drawing.querySelectorAll('text.label'), function (t) {
      var box = t.getBBox();
      if (box.x >= 0 && box.x + box.width <= width) return;
      t.setAttribute('text-anchor', 'start');
      t.setAttribute('x', String(Math.max(0, Math.min(box.x, width - box.width))));
    });
  }

  var lastTimelineSig = '';
  function renderTimeline() {
    var box = $('timeline');
    var envelope = team.envelopes.filter(function (e) { return e.uuid === selected; })[0];
    if (!envelope) {
      box.textContent = '';
      lastTimelineSig = '';
      return;
    }
    var events = historyOf(envelope.uuid);
    var width = Math.max(200, Math.round(box.clientWidth || 600)); // drawn at the box's size: text stays 12 px
    var sig = JSON.stringify([envelope.uuid, team.now, width, events]);
    if (sig === lastTimelineSig) return;
    lastTimelineSig = sig;
    var times = events.map(function (e) { return e.time; }).concat([team.now]);
    var t0 = Math.min.apply(null, times);
    var t1 = Math.max.apply(null, times);
    var span = Math.max(t1 - t0, 1);
    var left = 12;
    var right = width - 12;
    var x = function (t) { return Math.round((left + (right - left) * (t - t0) / span) * 10) / 10; };
    var rowHeight = 24;
    var top = 8;
    var height = top + events.length * rowHeight + 40;
    var drawing = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'list',
      'aria-label': 'History of ' + (envelope.title || envelope.uuid) + ', ' + events.length + ' events' });
    events.forEach(function (e, i) {
      var y = top + i * rowHeight + rowHeight / 2;
      var px = x(e.time);
      var exact = iso(e.time) + ' (' + e.time + ' ms)';
      var g = svg('g', { class: 'event ' + (e.status || ''), tabindex: 0, role: 'listitem', 'data-kind': e.kind,
        'data-time': e.time, 'data-fk': 'ev-' + envelope.uuid + '-' + e.kind + '-' + e.order,
        'aria-label': e.label + ', at ' + exact },
        svg('title', null, e.label + ' at ' + exact),
        svg('rect', { class: 'hit', x: 0, y: y - rowHeight / 2, width: width, height: rowHeight }), // the whole row answers hover
        svg('line', { class: 'row', x1: left, x2: right, y1: y, y2: y }),
        shape(e.shape, px, y),
        label(e.label, px, y + 4, width));
      var tell = function () { setText($('timeline-detail'), e.label + ' — ' + exact); };
      g.addEventListener('mouseenter', tell);
      g.addEventListener('focus', tell);
      drawing.appendChild(g);
    });
    var axisY = top + events.length * rowHeight + 8;
    drawing.appendChild(svg('line', { class: 'axis', x1: left, x2: right, y1: axisY, y2: axisY }));
    drawing.appendChild(svg('text', { x: left, y: axisY + 16 }, iso(t0)));
    if (t1 > t0) drawing.appendChild(svg('text', { x: right, y: axisY + 30, 'text-anchor': 'end' }, iso(t1)));
    var nx = x(team.now);
    drawing.appendChild(svg('g', { id: 'now-marker', 'data-now': team.now, 'data-x': nx },
      svg('title', null, 'now: ' + iso(team.now) + ' (' + team.now + ' ms)'),
      svg('line', { class: 'now', x1: nx, x2: nx, y1: 0, y2: axisY + 4 }),
      svg('text', { x: nx < width / 2 ? nx + 4 : nx - 4, y: axisY - 2, 'text-anchor': nx < width / 2 ? 'start' : 'end' }, 'now')));
    box.textContent = '';
    box.appendChild(drawing);
    fit(drawing, width);
  }
  window.addEventListener('resize', function () { if (team) keepingFocus(renderTimeline); });

  // ---------------------------------------------------------------------------------------
  // The request journal, with filters by path and status

  function failed(status) {
    return !(status >= 200 && status < 300);
  }

  function journalItem(e) {
    var bad = failed(e.status);
    var problems = null;
    var error = e.response && e.response.error;
    if (bad && error) {
      problems = el('ul', { class: 'problems' });
      problems.appendChild(el('li', null, (error.code || '') + ': ' + (error.message || '')));
      (error.details || []).forEach(function (d) {
        problems.appendChild(el('li', { 'data-problem': problemPath(d.path) }, el('code', null, problemPath(d.path)), ' ' + (d.message || '')));
      });
    }
    var details = el('details', { 'data-fk': 'j-' + e.sequence },
      el('summary', null, el('span', { class: 'mark' }, bad ? '✕ failed ' : '✓ '), iso(e.time) + ' · ',
        el('code', null, e.path), ' · ' + (e.status === 0 ? 'dropped (no answer)' : e.status) + ' · #' + e.sequence),
      el('p', null, 'Request'), el('pre', null, typeof e.request === 'string' ? e.request : JSON.stringify(e.request, null, 2)),
      el('p', null, 'Response'), el('pre', null, typeof e.response === 'string' ? e.response : JSON.stringify(e.response, null, 2)));
    return el('li', { class: bad ? 'fail' : 'ok', 'data-path': e.path, 'data-status': e.status }, details, problems);
  }

  function renderJournal() {
    var statuses = {};
    journal.entries.forEach(function (e) { statuses[e.status] = true; });
    var select = $('filter-status');
    Object.keys(statuses).forEach(function (s) {
      if (!select.querySelector('option[value="' + s + '"]')) select.appendChild(el('option', { value: s }, s === '0' ? '0 (dropped)' : s));
    });
    // Newest first: what a test did last is on top.
    var items = journal.entries.slice().reverse().map(function (e) {
      return { key: String(e.sequence), sig: '1', build: function () { return journalItem(e); } };
    });
    sync($('journal'), items);
    filterJournal();
  }

  function filterJournal() {
    var path = $('filter-path').value.trim();
    var status = $('filter-status').value;
    var shown = 0;
    var all = $('journal').children;
    Array.prototype.forEach.call(all, function (li) {
      var s = Number(li.getAttribute('data-status'));
      var keep = (!path || li.getAttribute('data-path').indexOf(path) >= 0) &&
        (!status || (status === 'fail' ? failed(s) : status === 'ok' ? !failed(s) : String(s) === status));
      li.hidden = !keep;
      if (keep) shown++;
    });
    setText($('journal-count'), 'Showing ' + shown + ' of ' + all.length + ' requests, newest first.');
  }
  $('filter-path').addEventListener('input', filterJournal);
  $('filter-status').addEventListener('change', filterJournal);

  // ---------------------------------------------------------------------------------------
  // Webhook deliveries and the outbox

  function renderDeliveries(deliveries) {
    sync($('deliveries').tBodies[0], deliveries.map(function (d, i) {
      return { key: d.eventUuid + '/' + d.webhookUuid + '/' + i, sig: JSON.stringify(d), build: function () {
        var status = d.delivered ? '✓ yes' : d.dropped ? '✕ dropped (queue full)' : d.lastStatus ? '✕ not yet (failing)' : '… pending';
        return el('tr', { 'data-delivered': d.delivered ? 'true' : 'false' },
          el('td', null, d.eventType), el('td', { class: 'mono' }, shortUuid(d.webhookUuid)),
          el('td', null, String(d.attempts)), el('td', null, status),
          el('td', null, d.lastStatus === null || d.lastStatus === undefined ? '—' : String(d.lastStatus)));
      } };
    }));
  }

  function renderOutbox(emails, withTeam) {
    var titles = {};
    if (team && !withTeam) team.envelopes.forEach(function (e) { titles[e.uuid] = e.title; });
    sync($('outbox').tBodies[0], emails.map(function (m, i) {
      return { key: String(i), sig: JSON.stringify([m, titles[m.envelopeUuid] || '', withTeam]), build: function () {
        return el('tr', null, el('td', null, iso(m.timestamp)), el('td', null, m.to), el('td', null, m.kind),
          el('td', null, titles[m.envelopeUuid] || shortUuid(m.envelopeUuid), withTeam ? el('span', { class: 'muted' }, ' (team ' + shortUuid(m.teamUuid) + ')') : null),
          el('td', null, m.signingUrl
            ? el('a', { href: m.signingUrl, target: '_blank', rel: 'noopener noreferrer', 'data-fk': 'mail-' + i }, 'Signing page for ' + m.to)
            : '—'));
      } };
    }));
  }

  showCredentials();
  refresh();
})();
