// SPDX-License-Identifier: BSL-1.0
#pragma once
// The files esign-reference-server serves by GET beside its JSON operations: the embedded
// signing page of contract.md §7.1 (GET /embeds/sign, examples/reference_server/embeds/) and the
// inspector of §7.2 (GET /_inspector, examples/reference_server/inspector/), each with its script
// and style. They are compiled into the server by cmake/embed_assets.py (the generated
// embedded_assets.hpp): nothing is read from disk at run time.
//
// The inspector is a control-plane page: with --no-control it does not exist (404, as any
// unknown path). It reads only through the operations (§7.2), so serving it grants nothing.
//
// Every answer carries:
//   - a strong ETag (a hash of the bytes) and `Cache-Control: no-cache`: a browser keeps its
//     copy but asks each time, so a reload costs one 304 (If-None-Match) per file;
//   - the Content-Security-Policy below: scripts, styles, fetches and images from the server's
//     own origin only, nothing inline; any page may frame the signing page (it is meant to be
//     framed), no page may frame the inspector (it holds a key: no clickjacking);
//   - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.
// GET and HEAD only (other methods: 405, `Allow: GET, HEAD`, in http_session.hpp). A path under
// /embeds/ that is neither an asset nor an operation is 404, as any unknown path.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "embedded_assets.hpp"

namespace esign::server::static_assets {

inline constexpr std::string_view content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors *";
inline constexpr std::string_view inspector_content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

inline constexpr std::string_view allowed_methods = "GET, HEAD";

// The inspector's files (contract.md §7.2): /_inspector, /_inspector.js, /_inspector.css.
inline constexpr bool is_inspector(std::string_view path) noexcept { return path.starts_with("/_inspector"); }

// The asset served at this path, or null; the inspector's only while the control plane exists.
inline const embedded::asset* find(std::string_view path, bool control_enabled) noexcept {
    if (is_inspector(path) && !control_enabled) return nullptr;
    for (const auto& a : embedded::assets)
        if (a.path == path) return &a;
    return nullptr;
}

// Whether an If-None-Match value names this entity tag: "*", or a comma-separated list of tags
// compared weakly (RFC 9110 §13.1.2: W/"x" matches "x").
inline bool none_match_hits(std::string_view if_none_match, std::string_view etag) {
    constexpr std::string_view blanks = " \t";
    while (!if_none_match.empty()) {
        const auto comma = if_none_match.find(',');
        std::string_view tag = if_none_match.substr(0, comma);
        if_none_match = comma == std::string_view::npos ? std::string_view{} : if_none_match.substr(comma + 1);
        const auto first = tag.find_first_not_of(blanks);
        if (first == std::string_view::npos) continue;
        tag = tag.substr(first, tag.find_last_not_of(blanks) + 1 - first);
        if (tag == "*") return true;
        if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
        if (tag == etag) return true;
    }
    return false;
}

// An answer to GET or HEAD of an asset: 200 with its bytes, or 304 without a body when the
// client's copy is current.
struct answer {
    unsigned status = 200;
    std::string body;
    std::vector<std::pair<std::string_view, std::string_view>> headers;  // Content-Type included
};

inline answer respond(const embedded::asset& a, std::string_view if_none_match) {
    answer r;
    const bool current = none_match_hits(if_none_match, a.etag);
    r.status = current ? 304 : 200;
    if (!current) r.body = std::string(a.bytes);
    r.headers = {
        {"Content-Type", a.content_type},
        {"ETag", a.etag},
        {"Cache-Control", "no-cache"},
        {"Content-Security-Policy", is_inspector(a.path) ? inspector_content_security_policy : content_security_policy},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"}};
    return r;
}

}  // namespace esign::server::static_assets
