// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's whole state as one value (contract.md §6.6): what /_control/team/snapshot answers
// as the `state` of its team object, and what /_control/team/restore and a --fixture team with
// a `state` install. The records are written as the backend stores them (store/records.hpp; member
// names as in the code), each map keyed by its records' uuids, so that snapshot → restore →
// snapshot gives the same bytes.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/json/value.hpp>

#include <esign/json/codec.hpp>
#include <esign/reference/delivery/webhook_job.hpp>
#include <esign/reference/detail/backend_inline.hpp>
#include <esign/reference/signer_access.hpp>
#include <esign/reference/store/ids.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/validation/problem.hpp>

namespace esign::reference {

struct team_state {
    std::int64_t clock_offset = 0;
    std::uint64_t next_seq = 1;
    std::optional<std::string> stream;  // where the team's seeded identifier stream stands (null: unseeded)
    std::map<std::string, workspace_record> workspaces;
    std::map<std::string, envelope_record> envelopes;
    std::map<std::string, template_record> templates;
    std::vector<contact_record> contacts;
    std::map<std::string, webhook_record> webhooks;
    std::vector<log_record> logs;
    std::vector<outbox_record> outbox;
    std::vector<delivery_record> deliveries;
    std::map<std::string, iframe_token_record> iframe_tokens;  // always empty in a snapshot, ignored in a restore
    std::vector<webhook_job> pending_deliveries;               // queued, not yet attempted (due at once when installed)
};
BOOST_DESCRIBE_STRUCT(team_state, (),
                      (clock_offset, next_seq, stream, workspaces, envelopes, templates, contacts, webhooks, logs,
                       outbox, deliveries, iframe_tokens, pending_deliveries))

}  // namespace esign::reference

namespace esign::json {
namespace detail {
class direct_reader;
}  // namespace detail

// team_state's codec: the described struct's (json/described.hpp), compiled once where the
// backend's definitions are (detail/team_state_reader_definitions.hpp, _writer_definitions.hpp)
// rather than in every source file that reads or writes a team's state: it holds every record
// type, most of what reading a fixture, a restore body or the state file costs to compile.
template <>
struct codec<reference::team_state> {
    static void read_scalar(void* target, const scalar& s, decoder& d);
    static const detail::container_reader* read_container(void*& target, bool is_array, decoder& d);
    static bool read_direct(detail::direct_reader& in, reference::team_state& out);
    static void encode(const reference::team_state& in, boost::json::value& out);
    static void write(const reference::team_state& in, text_buffer& out);
};

}  // namespace esign::json

namespace esign::reference {

// The state of a team's store (its identifier stream and the deliveries queued for it given).
inline team_state capture_state(const state& st, const id_source& ids, std::vector<webhook_job> pending) {
    team_state out;
    out.clock_offset = st.clock_offset;
    out.next_seq = st.next_seq;
    out.stream = ids.save();
    out.workspaces = st.workspaces;
    out.envelopes.insert(st.envelopes.begin(), st.envelopes.end());  // in uuid order
    out.templates = st.templates;
    out.contacts = st.contacts;
    out.webhooks = st.webhooks;
    out.logs = st.logs;
    out.outbox.assign(st.outbox.begin(), st.outbox.end());
    out.deliveries.assign(st.deliveries.begin(), st.deliveries.end());
    // (Signer secrets are no part of a team's state: iframe_tokens stays empty, signer_access.hpp.)
    out.pending_deliveries = std::move(pending);
    return out;
}

// Whether `s` can be the state of a team whose default workspace is `default_workspace`: a state
// that the public API could have produced (contract.md §6.9). Every problem is at `at` + its
// member. (The rules: detail/team_state_definitions.hpp.)
ESIGN_DETAIL_BACKEND_INLINE problem_list check_state(const team_state& s, std::string_view default_workspace,
                                                     const problem_path& at);

// A webhook event of a restored team names that team (contract.md §6.9): its payload's teamUuid
// becomes `team`.
ESIGN_DETAIL_BACKEND_INLINE void name_team_in_payload(webhook_job& job, const std::string& team);

// Replaces the records of `st` by those of a checked state; they take the uuid of the team
// that `st` holds (a snapshot of one team can seed another). The stream goes to `ids`; the
// team's link tokens are `kept` (the state file's) and new ones (renew_signer_secrets).
ESIGN_DETAIL_BACKEND_INLINE void install_state(state& st, team_state s, id_source& ids,
                                               std::span<const signing_link> kept = {});

}  // namespace esign::reference

// The definitions: here, unless the program compiles them once in the source file that includes
// <esign/reference/src.hpp> (ESIGN_SEPARATE_COMPILATION), with the backend's members.
#ifndef ESIGN_SEPARATE_COMPILATION
#include <esign/reference/detail/team_state_definitions.hpp>
#include <esign/reference/detail/team_state_reader_definitions.hpp>
#include <esign/reference/detail/team_state_writer_definitions.hpp>
#endif
