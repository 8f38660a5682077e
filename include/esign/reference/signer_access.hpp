// SPDX-License-Identifier: BSL-1.0
#pragma once
// The signer's secrets (contract.md §7.1): iframe tokens (create-iframe-token), e-mail link tokens
// (signingUrl) and signer sessions (/embeds/session/start), kept in the team's store.
//
// Every secret is  <prefix><team key><32 random characters>  ("sit.", "slt." or "sss."; the team
// key has 11 URL-safe characters, 66 bits). The team key is drawn once per team shard from the
// operating system's secure source and never twice in a process (new_signer_team_key), so a
// secret names its team in O(1) (the backend's registry maps team keys to shards) and two teams
// never issue the same secret, even teams with the same seed; the 192 random bits are drawn from
// the secure source too, never from a team's seed. A secret is valid only while its team's store
// holds it: a team reset, a restore, a server-wide reset (a new registry) make it unknown.
//
// A secret is never written in clear to the journal: redact_signer_secrets replaces each by its
// prefix, "…" and a short hash of it (enough to tell two apart in a test, not to use one).
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <esign/model/auth.hpp>
#include <esign/model/embeds.hpp>
#include <esign/reference/store/ids.hpp>
#include <esign/reference/store/records.hpp>
#include <esign/reference/team/limits.hpp>
#include <esign/validation/problem.hpp>

namespace esign::reference {

inline constexpr std::size_t signer_team_key_chars = 11;
inline constexpr std::size_t signer_random_chars = 32;
inline constexpr std::size_t signer_secret_chars = 4 + signer_team_key_chars + signer_random_chars;
inline constexpr std::int64_t iframe_token_lifetime_ms = 3'600'000;  // one hour, on the team's clock

namespace detail {
// Characters from the secure source (an unseeded id_source draws secrets from getrandom(2) or
// std::random_device), taken from this thread's pool of them, filled secure_pool_chars at a time:
// a restore makes a link token for every e-mail of its outbox, and a system call for each was a
// tenth of its time. (Each character is used once; the pool is never shared between threads. A
// process forked from one that drew secrets holds the same pool until it refills: a test double
// has no need of secrets that differ across such a fork.)
inline constexpr std::size_t secure_pool_chars = 4096;
inline void append_secure_chars(std::string& out, std::size_t n) {
    thread_local id_source source;
    thread_local std::string pool;
    thread_local std::size_t used = 0;
    if (n > secure_pool_chars) {
        out += source.url_safe(n);
        return;
    }
    if (pool.size() - used < n) {
        pool = source.url_safe(secure_pool_chars);
        used = 0;
    }
    out.append(pool, used, n);
    used += n;
}
inline std::string secure_chars(std::size_t n) {
    std::string out;
    append_secure_chars(out, n);
    return out;
}

inline bool is_url_safe(std::string_view s) {
    for (char ch : s)
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
              ch == '_'))
            return false;
    return true;
}
}  // namespace detail

namespace detail {
// The team keys handed out or taken back in this process.
struct issued_team_keys {
    std::mutex mutex;
    std::unordered_set<std::string> keys;
};
inline issued_team_keys& issued() {
    static issued_team_keys instance;
    return instance;
}
}  // namespace detail

// A team key never handed out before in this process (a team shard's, for its whole life).
inline std::string new_signer_team_key() {
    auto& issued = detail::issued();
    for (;;) {
        std::string key = detail::secure_chars(signer_team_key_chars);
        std::lock_guard lock(issued.mutex);
        if (issued.keys.insert(key).second) return key;
    }
}

// Whether `key` has the shape of a team key (signer_team_key_chars URL-safe characters).
inline bool is_signer_team_key(std::string_view key) {
    return key.size() == signer_team_key_chars && detail::is_url_safe(key);
}

// Takes back a team's key from before a restart (the state file keeps it with the team's e-mail
// links, contract.md §7.3): it stays the team's, and new_signer_team_key never draws it again.
inline void claim_signer_team_key(const std::string& key) {
    auto& issued = detail::issued();
    std::lock_guard lock(issued.mutex);
    issued.keys.insert(key);
}

// The team key of a secret of that kind, or nullopt when it does not have the shape of one.
inline std::optional<std::string_view> signer_team_key(std::string_view secret, std::string_view prefix) {
    if (secret.size() != signer_secret_chars || !secret.starts_with(prefix)) return std::nullopt;
    if (!detail::is_url_safe(secret.substr(prefix.size()))) return std::nullopt;
    return secret.substr(prefix.size(), signer_team_key_chars);
}

inline std::string new_signer_secret(const state& st, std::string_view prefix) {
    std::string s;
    s.reserve(prefix.size() + st.signer.team_key.size() + signer_random_chars);
    s += prefix;
    s += st.signer.team_key;
    detail::append_secure_chars(s, signer_random_chars);
    return s;
}

// ---------------------------------------------------------------------------------------------
// iframe tokens (single use, one hour)

// Drops the iframe tokens expired for a lifetime already (until then they answer "expired"
// rather than "unknown"), and the oldest beyond the bound less `room`: O(1) amortized.
inline void drop_old_iframe_tokens(state& st, std::int64_t now, std::size_t room = 0) {
    auto& order = st.signer.iframe_expiries;
    while (!order.empty() && (order.front().first + iframe_token_lifetime_ms <= now ||
                              order.size() + room > max_iframe_tokens_per_team)) {
        st.iframe_tokens.erase(order.front().second);
        st.signer.used_iframe_tokens.erase(order.front().second);
        order.pop_front();
    }
}

inline std::string issue_iframe_token(state& st, std::int64_t now, std::string envelope, std::string email) {
    drop_old_iframe_tokens(st, now, 1);
    std::string token = new_signer_secret(st, iframe_token_prefix);
    const std::int64_t expires = now + iframe_token_lifetime_ms;
    st.iframe_tokens[token] = iframe_token_record{std::move(envelope), std::move(email), expires};
    st.signer.iframe_expiries.emplace_back(expires, token);
    return token;
}

// ---------------------------------------------------------------------------------------------
// E-mail link tokens (one per envelope and recipient, not single-use)

inline const std::string* find_link_token(const state& st, std::string_view envelope, std::string_view email) {
    return st.signer.links.token_of(envelope, email);
}

// The recipient's link token, made when it is first e-mailed.
inline const std::string& link_token_for(state& st, const std::string& envelope, const std::string& email) {
    auto& links = st.signer.links;
    if (const std::string* token = links.token_of(envelope, email)) return *token;
    while (links.size() >= max_link_tokens_per_team) links.drop_oldest();
    return links.add(new_signer_secret(st, signer_link_token_prefix), signer_grant{envelope, email});
}

// The URL of the signing page with a link token: {base}/embeds/sign#t={token}.
inline std::string signing_url(std::string_view base, std::string_view token) {
    std::string url(base);
    while (!url.empty() && url.back() == '/') url.pop_back();
    url += "/embeds/sign#t=";
    url += token;
    return url;
}

// ---------------------------------------------------------------------------------------------
// Signer sessions

inline std::string start_signer_session(state& st, signer_grant grant) {
    auto& s = st.signer;
    while (s.session_order.size() >= max_signer_sessions_per_team) {
        s.sessions.erase(s.session_order.front());
        s.session_order.pop_front();
    }
    std::string session = new_signer_secret(st, signer_session_prefix);
    s.sessions.emplace(session, std::move(grant));
    s.session_order.push_back(session);
    return session;
}

inline const signer_grant* find_signer_session(const state& st, std::string_view session) {
    auto it = st.signer.sessions.find(std::string(session));
    return it == st.signer.sessions.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------------------------------------
// A store put in place whole (a fixture's team, a restored snapshot): secrets are not part of a
// team's state, so it keeps none of those it came with or had (they become unknown), and every
// invitation or reminder of its outbox gets its recipient's link token, as if just e-mailed.
// Except `kept`: the team's own link tokens from before a restart (the state file's, checked by
// check_signing_links), taken back oldest first, so that its e-mail links go on working.

inline void renew_signer_secrets(state& st, std::span<const signing_link> kept = {}) {
    std::string key = std::move(st.signer.team_key);
    st.signer = signer_store{};
    st.signer.team_key = std::move(key);
    st.iframe_tokens.clear();
    auto& s = st.signer;
    // (At most one link per e-mail: room for all, made once, rather than rehashed as they come.)
    s.links.reserve(std::min(st.outbox.size() + kept.size(), max_link_tokens_per_team));
    for (const auto& link : kept) s.links.add(link.token, signer_grant{link.envelope_uuid, link.email});
    for (const auto& mail : st.outbox) link_token_for(st, mail.envelope_uuid, mail.to);
}

// The team's e-mail link tokens, oldest first: what the state file keeps of its signer secrets.
inline std::vector<signing_link> signing_links_of(const state& st) {
    std::vector<signing_link> out;
    out.reserve(st.signer.links.size());
    for (const auto& link : st.signer.links.in_order())
        out.push_back(signing_link{link.token, link.grant.envelope_uuid, link.grant.email});
    return out;
}

// The problems of link tokens to take back for the team whose key is `key` (at `where`, one
// list): each a link token of that key, at most max_link_tokens_per_team, no token and no
// envelope and e-mail twice, an e-mail of at most 255 bytes (the model's longest address).
inline problem_list check_signing_links(std::span<const signing_link> links, std::string_view key,
                                        const problem_path& where) {
    problem_list out;
    auto add = [&](std::size_t i, std::string_view member, problem_kind kind, std::string message) {
        if (out.size() >= max_reported_problems) return;
        problem_path path = where;
        path.emplace_back(std::to_string(i));
        path.emplace_back(member);
        out.push_back(problem{std::move(path), kind, std::nullopt, std::move(message)});
    };
    if (links.size() > max_link_tokens_per_team) {
        out.push_back(problem{where, problem_kind::size, std::nullopt,
                              "must have at most " + std::to_string(max_link_tokens_per_team) + " items"});
        return out;
    }
    std::unordered_set<std::string_view> tokens;
    std::set<std::pair<std::string_view, std::string_view>> pairs;  // envelope, e-mail
    for (std::size_t i = 0; i < links.size(); ++i) {
        const signing_link& link = links[i];
        if (signer_team_key(link.token, signer_link_token_prefix) != key)
            add(i, "token", problem_kind::rule, "is not a link token of the team's signer key");
        else if (!tokens.insert(link.token).second)
            add(i, "token", problem_kind::rule, "is the token of another link");
        if (link.email.empty() || link.email.size() > 255)
            add(i, "email", problem_kind::range, "must be 1 to 255 bytes");
        else if (!pairs.emplace(link.envelope_uuid.str(), link.email).second)
            add(i, "email", problem_kind::rule, "has a link for this envelope already");
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// The journal: secrets redacted

// The operations whose bodies may carry a signer secret (the journal redacts them).
inline bool may_carry_signer_secret(std::string_view path) {
    return path == "/public/authentication/create-iframe-token" || path.starts_with("/embeds/");
}

// "sit.…" and 8 hex digits of the secret's FNV-1a hash.
inline std::string redacted_secret(std::string_view secret) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char ch : secret) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x100000001b3ull;
    }
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(secret.substr(0, 4));
    out += "\xE2\x80\xA6";  // …
    for (int shift = 60; shift >= 32; shift -= 4) out += hex[(h >> shift) & 0xF];
    return out;
}

namespace detail {
inline bool looks_like_secret(std::string_view s) {
    return s.size() >= 4 &&
           (s.starts_with(iframe_token_prefix) || s.starts_with(signer_link_token_prefix) ||
            s.starts_with(signer_session_prefix)) &&
           s.size() <= 4 + 256;
}
inline void redact(boost::json::value& v) {
    if (auto* s = v.if_string()) {
        const std::string_view text(s->data(), s->size());
        if (looks_like_secret(text)) *s = redacted_secret(text);
    } else if (auto* o = v.if_object()) {
        for (auto& member : *o) redact(member.value());
    } else if (auto* a = v.if_array()) {
        for (auto& item : *a) redact(item);
    }
}
}  // namespace detail

// `body` with every string that begins like a signer secret redacted; a body that is not JSON is
// kept as the length of its text only (it might be a secret cut short).
inline std::string redact_signer_secrets(std::string_view body) {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(body, ec);
    if (ec) return "[not JSON: " + std::to_string(body.size()) + " bytes, not kept: it may hold a signing token]";
    detail::redact(v);
    return boost::json::serialize(v);
}

}  // namespace esign::reference
