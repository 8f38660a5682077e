// SPDX-License-Identifier: BSL-1.0
#pragma once
// Blocks of a draft envelope's documents: /public/envelope/add-blocks, delete-blocks.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <esign/reference/context.hpp>
#include <esign/reference/store/envelope_store.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/status_rules.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/envelope/add-blocks (all or nothing)

namespace detail {

// The document of an add-blocks or delete-blocks request, in a draft envelope:
// WORKSPACE_NOT_FOUND, ENVELOPE_NOT_FOUND, DOCUMENT_NOT_FOUND, then the draft check.
struct draft_document {
    envelope_record* env = nullptr;
    document_record* target = nullptr;
    std::optional<failure> error;
};

template <class Request>
draft_document find_draft_document(context& c, const Request& r) {
    auto found = envelope_store::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return {nullptr, nullptr, found.error};
    document_record* target = envelope_store::find_document(*found.envelope, r.documentUuid);
    if (!target) return {nullptr, nullptr, failure{error_code::DOCUMENT_NOT_FOUND}};
    if (auto code = rules::check_draft(found.envelope->status)) return {nullptr, nullptr, failure{*code}};
    return {found.envelope, target, std::nullopt};
}

// The blocks of `target` changed: its snapshot and the envelope's update date are now.
inline void blocks_changed(context& c, draft_document& d) {
    d.target->doc.snapshotDate = c.now;
    c.touch(d.env->update_date);
}

// Where each item of an add-blocks request goes: its page (none when not a page of the
// document) and its recipient (none when it names no recipient, or one the envelope lacks).
struct block_place {
    std::optional<std::int64_t> page;
    const recipient_record* recipient = nullptr;
    bool unknown_recipient = false;
};

inline std::vector<block_place> place_blocks(const envelope_add_blocks_request& r, envelope_record& env,
                                             const document& doc) {
    std::vector<block_place> places;
    for (const auto& item : r.blocks) {
        block_place p;
        p.page = rules::page_in_document(item.page.str(), doc.pageCount);
        if (item.recipientEmail) {
            p.recipient = env.find_recipient(item.recipientEmail->str());
            p.unknown_recipient = !p.recipient;
        }
        places.push_back(p);
    }
    return places;
}

// Every item whose page is not a page of the document, each at ["blocks", i, "page"].
inline problem_list page_problems(const std::vector<block_place>& places, const document& doc) {
    problem_list problems;
    for (std::size_t i = 0; i < places.size(); ++i)
        if (!places[i].page)
            problems.push_back(problem{{"blocks", std::to_string(i), "page"},
                                       problem_kind::range,
                                       std::nullopt,
                                       "must name a page from 1 to " + std::to_string(doc.pageCount)});
    return problems;
}

// A stored block (contract.md §3): label = text, icon text-t, not exportable, the colour of its
// recipient (else primary), defaultValue as text, value null, the rest as given.
inline block stored_block(context& c, const add_blocks_item& item, const recipient_record* recipient) {
    block b;
    b.uuid = c.ids.uuid();
    b.label = item.text;
    b.labelIcon = label_icon::text_t;
    b.x = item.x;
    b.y = item.y;
    b.height = item.height;
    b.width = item.width;
    b.exportable = false;
    if (item.recipientEmail) b.recipientEmail = item.recipientEmail->str();
    b.color = recipient ? recipient->color : block_color::primary;
    b.required = item.required;
    b.placeholder = item.placeholder;
    if (item.defaultValue) b.defaultValue = nullable<std::string>(item.defaultValue->str());
    b.value = nullable<std::string>();
    b.type = item.type;
    b.text = item.text;
    if (item.maxLength) b.maxLength = item.maxLength->value;
    b.templatedText = item.templatedText;
    return b;
}
}  // namespace detail

inline outcome<envelope_add_blocks_response> handle(context& c, const envelope_add_blocks_request& r) {
    auto d = detail::find_draft_document(c, r);
    if (d.error) return *d.error;
    const auto places = detail::place_blocks(r, *d.env, d.target->doc);
    if (auto problems = detail::page_problems(places, d.target->doc); !problems.empty())
        return failure{error_code::INVALID_REQUEST_FORMAT, std::move(problems), {}};
    if (std::any_of(places.begin(), places.end(), [](const auto& p) { return p.unknown_recipient; }))
        return failure{error_code::INVALID_RECIPIENT_EMAIL};
    std::size_t held = 0;  // (no empty page is kept: a walk no longer than the blocks)
    for (const auto& [page, blocks] : d.target->doc.blocks) held += blocks.size();
    if (!has_room(held, r.blocks.size(), max_blocks_per_document))
        return failure{error_code::INVALID_REQUEST_FORMAT,
                       {collection_full({"blocks"}, "blocks", max_blocks_per_document, "document")}};

    for (std::size_t i = 0; i < r.blocks.size(); ++i) {
        // The key is the page's number in decimal: "01" is stored under "1".
        d.target->doc.blocks[std::to_string(*places[i].page)].push_back(
            detail::stored_block(c, r.blocks[i], places[i].recipient));
    }
    detail::blocks_changed(c, d);
    return envelope_add_blocks_response{c.now};
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-blocks (unknown block uuids are ignored)

inline outcome<envelope_delete_blocks_response> handle(context& c, const envelope_delete_blocks_request& r) {
    auto d = detail::find_draft_document(c, r);
    if (d.error) return *d.error;

    const std::set<std::string_view> listed(r.blockUuids.begin(), r.blockUuids.end());
    auto is_listed = [&](const block& b) { return listed.contains(b.uuid); };
    auto& pages = d.target->doc.blocks;
    for (auto& [page, blocks] : pages) std::erase_if(blocks, is_listed);
    std::erase_if(pages, [](const auto& entry) { return entry.second.empty(); });  // no empty pages left behind
    detail::blocks_changed(c, d);
    return envelope_delete_blocks_response{c.now};
}

}  // namespace esign::reference::handlers
