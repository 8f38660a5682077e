// SPDX-License-Identifier: BSL-1.0
// The embedded signing page (contract.md §7.1). The token comes in the URL's fragment (#t={token}
// or #{token}); it is exchanged once for a signer session (POST session/start), the page opens the
// envelope (recipient/act "open"), shows it (envelope/get) and offers the actions it allows.
// Everything that came in a request is shown as text (textContent), never parsed as HTML.
(function () {
  'use strict';

  var PAGE_WIDTH = 595; // PDF points of an A4 page: blocks' x/y/width/height are in these
  var PAGE_HEIGHT = 842;
  var app = document.getElementById('app');
  var session = null;

  // Each failure of the token exchange is a state of its own, in words.
  var TOKEN_STATES = {
    SIGNING_TOKEN_UNKNOWN: ['unknown', 'Unknown signing link',
      'This signing link is unknown. Ask the sender for a new link.'],
    SIGNING_TOKEN_USED: ['used', 'Signing link already used',
      'This signing link has already been used. Each link opens the document once: ask the sender for a new link.'],
    SIGNING_TOKEN_EXPIRED: ['expired', 'Signing link expired',
      'This signing link has expired. Ask the sender for a new link.']
  };

  // el('p', {class: 'x'}, 'text', child...): strings become text nodes, never markup.
  function el(tag, attributes) {
    var node = document.createElement(tag);
    var name;
    for (name in attributes || {}) {
      if (attributes[name] === null || attributes[name] === undefined || attributes[name] === false) continue;
      if (name === 'class') node.className = attributes[name];
      else node.setAttribute(name, attributes[name] === true ? '' : String(attributes[name]));
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function tokenFromFragment(fragment) {
    var text = fragment.replace(/^#/, '');
    var match = /(?:^|&)t=([^&]*)/.exec(text);
    if (match) text = match[1];
    try {
      return decodeURIComponent(text);
    } catch (e) {
      return text;
    }
  }

  // POSTs to an /embeds/ operation (relative to this page); rejects with {status, code, message}.
  function call(operation, body) {
    return fetch(operation, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = null; }
        if (response.ok && data && typeof data === 'object') return data;
        var error = (data && data.error) || {};
        throw {
          status: response.status,
          code: error.code || 'HTTP_' + response.status,
          message: error.message || 'The server answered with HTTP status ' + response.status + '.'
        };
      });
    }, function () {
      throw { status: 0, code: 'NETWORK', message: 'The server could not be reached.' };
    });
  }

  function show(state, nodes, busy) {
    app.dataset.state = state;
    app.setAttribute('aria-busy', busy ? 'true' : 'false');
    app.replaceChildren.apply(app, nodes);
  }

  // A state with nothing to act on: a heading and a sentence.
  function message(state, title, text) {
    var heading = el('h1', { tabindex: '-1' }, title);
    show(state, [el('div', { class: 'panel banner stop', role: 'alert' }, heading, el('p', null, text))]);
  }

  function fullName(person) {
    var name = [person.firstname, person.lastname].filter(Boolean).join(' ');
    return name || person.email || '';
  }

  function describe(person) {
    var name = fullName(person);
    return name + (person.email && name !== person.email ? ' <' + person.email + '>' : '') +
      (person.role ? ' (' + person.role + ')' : '');
  }

  function documentView(doc) {
    var pages = Math.max(1, Number(doc.pageCount) || 1);
    var section = el('section', { class: 'document', 'aria-label': 'Document: ' + (doc.title || '') },
      el('h2', null, doc.title || 'Document'),
      el('p', { class: 'muted' }, pages === 1 ? '1 page' : pages + ' pages'));
    for (var page = 1; page <= pages; page++) {
      var box = el('div', { class: 'page', 'data-page': page });
      (doc.blocks || []).forEach(function (block) {
        if (Number(block.page) !== page) return;
        var node = el('div', { class: block.mine ? 'block mine' : 'block' },
          block.mine ? el('span', { class: 'who' }, 'For you') : null,
          block.type === 'text' ? String(block.text || '') : String(block.type || ''));
        node.style.left = (100 * Number(block.x) / PAGE_WIDTH) + '%';
        node.style.top = (100 * Number(block.y) / PAGE_HEIGHT) + '%';
        if (block.width) node.style.width = (100 * Number(block.width) / PAGE_WIDTH) + '%';
        if (block.height) node.style.height = (100 * Number(block.height) / PAGE_HEIGHT) + '%';
        box.appendChild(node);
      });
      section.appendChild(box);
      section.appendChild(el('p', { class: 'page-label muted' }, 'Page ' + page + ' of ' + pages));
    }
    return section;
  }

  // The actions the view allows, each a form with visible labels.
  function actionsView(view, error) {
    var actions = view.actions || {};
    var recipient = view.recipient || {};
    var box = el('section', { class: 'panel', 'aria-label': 'Actions' });
    var busy = function (form, on) {
      Array.prototype.forEach.call(form.querySelectorAll('button, input, textarea'), function (c) { c.disabled = on; });
    };
    var run = function (form, body, done) {
      error.textContent = '';
      busy(form, true);
      body.session = session;
      call('recipient/act', body).then(done, function (failure) {
        busy(form, false);
        error.textContent = failure.message; // why the action is not allowed, in the server's words
        error.focus();
      });
    };
    // A field that must not be blank: its trimmed text, or null once the page has said so.
    var filled = function (input, message) {
      var text = input.value.trim();
      if (!text) {
        error.textContent = message;
        input.focus();
        return null;
      }
      return text;
    };

    if (actions.sign) {
      var signForm = el('form', { 'aria-label': 'Sign' });
      var name = el('input', { type: 'text', id: 'sign-name', name: 'signatureName', autocomplete: 'name', required: true });
      signForm.append(el('label', { for: 'sign-name' }, 'Your name'), name,
        el('p', { class: 'muted' }, 'Type your name as you sign, then confirm.'),
        el('button', { type: 'submit' }, 'Sign'));
      signForm.addEventListener('submit', function (event) {
        event.preventDefault();
        var typed = filled(name, 'Type your name to sign.');
        if (typed === null) return;
        var confirm = el('form', { 'aria-label': 'Confirm signature' },
          el('p', null, 'Sign “' + (view.envelope.title || '') + '” as ' + typed + '?'),
          el('button', { type: 'submit' }, 'Confirm signature'),
          el('button', { type: 'button', class: 'secondary' }, 'Cancel'));
        confirm.lastChild.addEventListener('click', function () {
          confirm.replaceWith(signForm);
          name.focus();
        });
        confirm.addEventListener('submit', function (e) {
          e.preventDefault();
          run(confirm, { action: 'sign', signatureName: typed }, function (result) {
            window.parent.postMessage({
              type: 'subnoto:documentSigned',
              payload: { envelopeUuid: result.envelopeUuid, completed: result.completed, workspaceUuid: result.workspaceUuid }
            }, '*');
            refresh('signed', result.completed
              ? 'You signed “' + view.envelope.title + '”. Every signer has signed: the envelope is complete.'
              : 'You signed “' + view.envelope.title + '”. The envelope now waits for the other recipients.');
          });
        });
        signForm.replaceWith(confirm);
        confirm.querySelector('button').focus();
      });
      box.appendChild(signForm);
    }
    if (actions.approve) {
      var approveForm = el('form', { 'aria-label': 'Approve' },
        el('p', null, 'Approve the envelope so that it goes on to its signers.'),
        el('button', { type: 'submit' }, 'Approve'));
      approveForm.addEventListener('submit', function (event) {
        event.preventDefault();
        run(approveForm, { action: 'approve' }, function () {
          refresh('approved', 'You approved “' + view.envelope.title + '”.');
        });
      });
      box.appendChild(approveForm);
    }
    if (actions.decline) {
      var reason = el('textarea', { id: 'decline-reason', name: 'reason', rows: '3' });
      var declineForm = el('form', { 'aria-label': 'Decline' },
        el('label', { for: 'decline-reason' }, 'Reason'), reason,
        el('button', { type: 'submit', class: 'danger' }, 'Decline'));
      declineForm.addEventListener('submit', function (event) {
        event.preventDefault();
        var why = filled(reason, 'Give a reason to decline.');
        if (why === null) return;
        run(declineForm, { action: 'decline', reason: why }, function () {
          refresh('declined', 'You declined “' + view.envelope.title + '”. Reason: ' + why);
        });
      });
      box.appendChild(declineForm);
    }
    if (!actions.sign && !actions.approve && !actions.decline) {
      box.appendChild(el('p', null, recipient.role === 'viewer'
        ? 'You are a viewer of this envelope: you can read it, there is nothing for you to sign.'
        : 'There is nothing for you to do on this envelope now.'));
    }
    return box;
  }

  function render(view, state, banner) {
    var envelope = view.envelope || {};
    var recipient = view.recipient || {};
    var error = el('p', { class: 'error', role: 'alert', tabindex: '-1' });
    var nodes = [];
    if (banner) {
      nodes.push(el('div', { class: state === 'declined' ? 'panel banner stop' : 'panel banner ok', role: 'status' },
        el('p', null, banner)));
    }
    nodes.push(el('header', null,
      el('h1', { tabindex: '-1' }, envelope.title || 'Envelope'),
      el('p', { class: 'muted' }, 'From ' + (envelope.senderName || '') +
        (envelope.senderEmail ? ' <' + envelope.senderEmail + '>' : ''))));

    var turn;
    var waiting = (view.waitingFor || []).map(describe);
    if (recipient.yourTurn) turn = 'It is your turn.';
    else if (recipient.status === 'pending' && recipient.role !== 'viewer' &&
             envelope.status !== 'complete' && envelope.status !== 'declined' &&
             envelope.status !== 'canceled' && envelope.status !== 'expired') turn = 'It is not your turn yet.';
    var who = el('section', { class: 'panel', 'aria-label': 'Recipient' },
      el('dl', null,
        el('dt', null, 'You'), el('dd', null, describe({ firstname: recipient.firstname, lastname: recipient.lastname, email: recipient.email })),
        el('dt', null, 'Role'), el('dd', null, String(recipient.role || '')),
        el('dt', null, 'Status'), el('dd', null, String(recipient.status || '')),
        el('dt', null, 'Envelope'), el('dd', null, String(envelope.status || ''))),
      turn ? el('p', { class: 'turn' }, turn) : null,
      waiting.length && !recipient.yourTurn ? el('p', null, 'Waiting for: ' + waiting.join(', ') + '.') : null);
    nodes.push(who);
    if (view.notAllowedReason) {
      nodes.push(el('p', { class: 'panel notice', role: 'note' }, String(view.notAllowedReason)));
    }
    if (!banner) nodes.push(actionsView(view, error));
    nodes.push(error);
    if (!recipient.yourTurn && !banner) {
      var again = el('button', { type: 'button', class: 'secondary' }, 'Refresh');
      again.addEventListener('click', function () { refresh('ready'); });
      nodes.push(again);
    }
    (view.documents || []).forEach(function (doc) { nodes.push(documentView(doc)); });
    show(state, nodes);
  }

  // Shows the envelope as it is now; a banner says what just happened.
  function refresh(state, banner) {
    return call('envelope/get', { session: session }).then(function (view) {
      render(view, state, banner);
      if (banner) app.querySelector('[role="status"]').setAttribute('tabindex', '-1');
      app.querySelector(banner ? '[role="status"]' : 'h1').focus();
    }, function (failure) {
      if (banner) message(state, banner, failure.message);
      else message('error', 'The document could not be shown', failure.message);
    });
  }

  function start() {
    var token = tokenFromFragment(window.location.hash);
    if (!token) {
      message('unknown', 'No signing link', 'This address holds no signing token. Open the link the sender gave you.');
      return;
    }
    call('session/start', { token: token }).then(function (answer) {
      session = answer.session;
      // Opening is an action of its own; a final envelope refuses it, and is still shown.
      return call('recipient/act', { session: session, action: 'open' }).catch(function () { return null; })
        .then(function () { return refresh('ready'); });
    }, function (failure) {
      var known = TOKEN_STATES[failure.code];
      if (known) message(known[0], known[1], known[2]);
      else message('error', 'The signing link could not be used', failure.message);
    });
  }

  start();
}());
