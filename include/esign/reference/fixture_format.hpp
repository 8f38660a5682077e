// SPDX-License-Identifier: BSL-1.0
#pragma once
// The --fixture format: teams with fixed API keys, and their workspaces, contacts, templates,
// envelopes and webhooks, loaded at start and again on /_control/reset. examples/fixture.json is an
// example. The document is decoded by the same engine as the requests (always strictly: an
// unknown member in a file is a typo), then built through the same code as the operations, so
// a fixture makes exactly what the matching operations would make:
//
//   { "teams": [ {
//       "apiKey": "esk_...",              required; A-Z a-z 0-9 - . _ ~ + / = (a bearer token)
//       "uuid": "...",                    optional fixed identifiers (36 characters) of the
//       "defaultWorkspaceUuid": "...",      team and its default workspace
//       "name", "ownerEmail", "ownerFirstname", "ownerLastname", "apiCredits", "emailQuota",
//       "subscription", "features":       as /_control/team/create, same defaults
//       "contacts":  [ contact ],         each as an item of /public/contact/create
//       "templates": [ { "uuid"?, "title", "recipientLabels": [...], "documents": [{"title", "pageCount"}] } ],
//       "envelopes": [ { "uuid"?, "title", "documents": [{"title", "pageCount"}], "attachments"?: [{"title"}],
//                        "tags"?: [...], "recipients"?: [ item of /public/envelope/add-recipients ] } ],
//       "workspaces": [ { "uuid"?, "name", "colorHex"?, "sandbox"?, "contacts"?, "templates"?, "envelopes"? } ],
//       "webhooks":  [ { "uuid"?, and the body of /public/webhook/create: "url", "contentType",
//                        "sslVerify", "active", "secret"?, "events"?, "workspaceUuids"?, "title"? } ],
//       "state": { ... }                  instead of the five above: the team's records exactly, as
//                                         /_control/team/snapshot gives them (team_state.hpp)
//   } ] }
//
// A team object with a "state" is what /_control/team/snapshot answers (less the "apiKey", which
// a fixture adds): its records (envelopes in any status, logs, outbox, deliveries, clock offset,
// identifier stream) are installed as they are, after checks (a state the API could have
// produced: team_state.hpp's check_state); its queued deliveries are not queued again when it is
// loaded from a file. Signer secrets (contract.md §7.1) are no part of it: "iframe_tokens" is
// checked but never installed (a snapshot writes it empty), and every invitation or reminder of
// its outbox gets a new link token for its signingUrl (signer_access.hpp).
//
// Contacts, templates and envelopes at team level go to the team's default workspace (named
// "Default"); those of an entry of "workspaces" go to that workspace. Envelopes are drafts
// (with their recipients, in order). Webhooks belong to the team, as in the API: their
// "workspaceUuids" may name the team's workspaces (the default one and those of "workspaces",
// by their fixed uuids). Everything is created at load time, in document order, except the
// webhooks: they come last in their team, once its workspaces exist (so loading the fixture
// makes no deliveries). A webhook is refused exactly as /public/webhook/create would refuse it
// (WEBHOOK_URL_REFUSED, also under --public-webhooks-only; FEATURE_NOT_IN_CURRENT_PLAN without
// the "webhooks" feature; WEBHOOK_LIMIT_REACHED; WORKSPACE_NOT_FOUND).
//
// Identifiers that the fixture does not fix are drawn from a source seeded by the fixture's
// text, so every load of the same fixture (at start, at each reset) gives the same uuids.
//
// Problems (invalid JSON, a member of the wrong type, an API key or a fixed uuid used twice,
// anything the operations would refuse, such as a contact e-mail given twice) come back with
// their paths in the fixture, and then nothing is loaded.
//
// This header declares the document as described structs; fixture_loader.hpp builds it and
// fixture.hpp loads it.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/model.hpp>
#include <esign/reference/team_state.hpp>
#include <esign/types/pattern_string.hpp>

namespace esign::reference {

// An API key as it travels in "Authorization: Bearer <key>" (RFC 6750 b64token characters).
using fixture_api_key = pattern_string<"^[A-Za-z0-9._~+/=-]+$">;

// A template: an optional fixed uuid, then the members of /_control/template/create but its
// workspaceUuid (the same type, so the same rules: labels are distinct).
struct fixture_template {
    std::optional<uuid36> uuid;
    flattened<control_template_content> content;
};
BOOST_DESCRIBE_STRUCT(fixture_template, (), (uuid, content))

// An envelope: an optional fixed uuid, the members of /_control/envelope/create but its
// workspaceUuid, and the recipients to add.
struct fixture_envelope {
    std::optional<uuid36> uuid;
    flattened<control_envelope_content> content;
    std::optional<std::vector<add_recipients_item>> recipients;
};
BOOST_DESCRIBE_STRUCT(fixture_envelope, (), (uuid, content, recipients))

struct fixture_workspace {
    std::optional<uuid36> uuid;
    bounded_string<1, 100> name;
    std::optional<hex_color> colorHex;
    std::optional<bool> sandbox;
    std::optional<std::vector<contact_create_item>> contacts;
    std::optional<std::vector<fixture_template>> templates;
    std::optional<std::vector<fixture_envelope>> envelopes;
};
BOOST_DESCRIBE_STRUCT(fixture_workspace, (), (uuid, name, colorHex, sandbox, contacts, templates, envelopes))

// A webhook of the team: an optional fixed uuid, then the members of /public/webhook/create
// (the same type, so the same decoding rules; the operation itself checks the rest).
struct fixture_webhook {
    std::optional<uuid36> uuid;
    flattened<webhook_create_request> request;
};
BOOST_DESCRIBE_STRUCT(fixture_webhook, (), (uuid, request))

// A team object but its API key: what /_control/team/snapshot answers (no credentials,
// contract.md §6.9), and the rest of a --fixture team.
struct fixture_team {
    std::optional<uuid36> uuid;
    std::optional<uuid36> defaultWorkspaceUuid;
    flattened<control_team_profile> profile;  // name … features: the members of /_control/team/create
    std::optional<std::vector<contact_create_item>> contacts;
    std::optional<std::vector<fixture_template>> templates;
    std::optional<std::vector<fixture_envelope>> envelopes;
    std::optional<std::vector<fixture_workspace>> workspaces;
    std::optional<std::vector<fixture_webhook>> webhooks;
    std::optional<team_state> state;  // instead of the five above: the records exactly (a snapshot)
};
BOOST_DESCRIBE_STRUCT(fixture_team, (),
                      (uuid, defaultWorkspaceUuid, profile, contacts, templates, envelopes, workspaces, webhooks,
                       state))

// A team of a --fixture file: its fixed API key, and the team object.
struct fixture_file_team {
    fixture_api_key apiKey;
    flattened<fixture_team> team;
};
BOOST_DESCRIBE_STRUCT(fixture_file_team, (), (apiKey, team))

struct fixture_document {
    std::vector<fixture_file_team> teams;
};
BOOST_DESCRIBE_STRUCT(fixture_document, (), (teams))

// The team object of /_control/team/restore: a snapshot's, and an API key if one is given (a
// fixture's team, or a snapshot of an older server), which is ignored: the restoring team keeps
// its credentials (contract.md §6.6).
struct restore_team_object {
    std::optional<fixture_api_key> apiKey;
    flattened<fixture_team> team;

    operator fixture_team() && { return std::move(team); }
};
BOOST_DESCRIBE_STRUCT(restore_team_object, (), (apiKey, team))

// The body of /_control/team/restore as the backend reads it: control_team_restore_request with
// its team object typed.
struct restore_document {
    restore_team_object team;
};
BOOST_DESCRIBE_STRUCT(restore_document, (), (team))

}  // namespace esign::reference
