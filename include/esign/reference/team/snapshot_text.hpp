// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's snapshot (contract.md §6.6) written straight from its live records: the same bytes as
// writing the team_state that capture_state copies (snapshot_state.hpp), without that copy. The
// answer then takes the text alone (about a third of what the copy and the text took together,
// the copy being the larger), and no time goes into copying every record first.
//
// team_state_text is team_state with each member borrowed from the store instead of held: the
// same names in the same order (a static_assert below compares them), so the JSON writer
// writes both alike; only the envelopes, hashed in the store, are put in key order.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <esign/json/codec.hpp>
#include <esign/json/codecs.hpp>
#include <esign/json/described.hpp>
#include <esign/reference/fixture/format.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/reference/team/snapshot_state.hpp>
#include <esign/validation/described_members.hpp>

namespace esign::reference {

namespace detail {
// A collection of the store, written as the collection itself (write only).
template <class Collection>
struct borrowed {
    const Collection* items = nullptr;
};
// The envelopes: hashed in the store, written as an object in key order (as the std::map of
// team_state is), `batch` at a time: each batch the smallest keys after the last one written,
// found by one pass over the map. So the memory it takes is bounded, whatever the team
// (contract.md §6.7): a team of N envelopes costs N/batch passes.
struct envelopes_in_key_order {
    const envelope_map* map = nullptr;
    std::size_t batch = 32768;  // 256 KiB of pointers
};
}  // namespace detail

struct team_state_text {
    template <class C>
    using borrowed = detail::borrowed<C>;

    std::int64_t clock_offset = 0;
    std::uint64_t next_seq = 1;
    std::optional<std::string> stream;
    borrowed<std::map<std::string, workspace_record>> workspaces;
    detail::envelopes_in_key_order envelopes;
    borrowed<std::map<std::string, template_record>> templates;
    borrowed<std::vector<contact_record>> contacts;
    borrowed<std::map<std::string, webhook_record>> webhooks;
    borrowed<std::vector<log_record>> logs;
    borrowed<std::deque<outbox_record>> outbox;
    borrowed<std::deque<delivery_record>> deliveries;
    borrowed<std::map<std::string, iframe_token_record>> iframe_tokens;  // none: signer secrets are not state
    borrowed<std::vector<webhook_job>> pending_deliveries;
};
BOOST_DESCRIBE_STRUCT(team_state_text, (),
                      (clock_offset, next_seq, stream, workspaces, envelopes, templates, contacts, webhooks, logs,
                       outbox, deliveries, iframe_tokens, pending_deliveries))

namespace detail {
template <class A, class B>
constexpr bool same_member_names() {
    using a = boost::describe::describe_members<A, boost::describe::mod_public>;
    using b = boost::describe::describe_members<B, boost::describe::mod_public>;
    if constexpr (boost::mp11::mp_size<a>::value != boost::mp11::mp_size<b>::value) {
        return false;
    } else {
        bool same = true;
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<boost::mp11::mp_size<a>::value>>([&](auto i) {
            same = same && std::string_view(boost::mp11::mp_at_c<a, i>::name) ==
                               std::string_view(boost::mp11::mp_at_c<b, i>::name);
        });
        return same;
    }
}
}  // namespace detail
static_assert(detail::same_member_names<team_state_text, team_state>(),
              "team_state_text lists team_state's members, by the same names, in the same order");

// The team object of a snapshot: the team's members (fixture_team_of, its `state` absent), then
// the state, as fixture_team writes them (`state` is its last member).
struct team_snapshot_text {
    flattened<fixture_team> team;
    team_state_text state;
};
BOOST_DESCRIBE_STRUCT(team_snapshot_text, (), (team, state))

// The state of a team's store, borrowed (valid while the store is, under its lock), with the
// deliveries queued for it.
inline team_state_text state_text_of(const state& st, const id_source& ids, const std::vector<webhook_job>& pending) {
    team_state_text out;
    out.clock_offset = st.clock_offset;
    out.next_seq = st.next_seq;
    out.stream = ids.save();
    out.workspaces.items = &st.workspaces;
    out.envelopes.map = &st.envelopes;
    out.templates.items = &st.templates;
    out.contacts.items = &st.contacts;
    out.webhooks.items = &st.webhooks;
    out.logs.items = &st.logs;
    out.outbox.items = &st.outbox;
    out.deliveries.items = &st.deliveries;
    static const std::map<std::string, iframe_token_record> no_tokens;
    out.iframe_tokens.items = &no_tokens;
    out.pending_deliveries.items = &pending;
    return out;
}

}  // namespace esign::reference

namespace esign::json {

template <class Collection>
struct codec<reference::detail::borrowed<Collection>> {
    static void write(const reference::detail::borrowed<Collection>& in, text_buffer& out) {
        write_value(*in.items, out);
    }
};

// The store's deques (outbox, deliveries), written as the vectors of team_state are (by their
// writer: it only iterates).
template <class T>
struct codec<reference::detail::borrowed<std::deque<T>>> {
    static void write(const reference::detail::borrowed<std::deque<T>>& in, text_buffer& out) {
        detail::vector_codec<std::deque<T>>::write(*in.items, out);
    }
};

template <>
struct codec<reference::detail::envelopes_in_key_order> {
    using entry = reference::envelope_map::value_type;

    // (A template, so that the records' writers are compiled where a snapshot is written, not
    // wherever this header is read.)
    template <class Buffer>
    static void write(const reference::detail::envelopes_in_key_order& in, Buffer& out) {
        const std::size_t batch = std::max<std::size_t>(in.batch, 1);
        std::vector<const entry*> next;  // a max-heap by key while it fills, then in key order
        next.reserve(std::min(in.map->size(), batch));
        const auto by_key = [](const entry* a, const entry* b) { return a->first < b->first; };
        const std::string* after = nullptr;  // the last key written
        out.put('{');
        bool first = true;
        for (;;) {
            next.clear();
            for (const entry& e : *in.map) {
                if (after && !(*after < e.first)) continue;
                if (next.size() < batch) {
                    next.push_back(&e);
                    if (next.size() == batch) std::make_heap(next.begin(), next.end(), by_key);
                } else if (e.first < next.front()->first) {
                    std::pop_heap(next.begin(), next.end(), by_key);
                    next.back() = &e;
                    std::push_heap(next.begin(), next.end(), by_key);
                }
            }
            if (next.size() == batch)
                std::sort_heap(next.begin(), next.end(), by_key);
            else
                std::sort(next.begin(), next.end(), by_key);
            for (const entry* e : next) {
                if (!std::exchange(first, false)) out.put(',');
                write_string(e->first, out);
                out.put(':');
                write_value(e->second, out);
            }
            if (next.size() < batch) break;
            after = &next.back()->first;
        }
        out.put('}');
    }
};

}  // namespace esign::json
