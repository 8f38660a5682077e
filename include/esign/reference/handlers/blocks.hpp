#pragma once
// Blocks of a draft envelope's documents: /public/envelope/add-blocks, delete-blocks.
#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include <esign/reference/context.hpp>
#include <esign/reference/envelope_factory.hpp>
#include <esign/rules/envelope_rules.hpp>
#include <esign/rules/status_rules.hpp>

namespace esign::reference::handlers {

// ---------------------------------------------------------------------------------------------
// /public/envelope/add-blocks (all or nothing)

namespace envelope_detail {
// Every item whose page is not a page of the document, each at ["blocks", i, "page"].
inline problem_list page_problems(const envelope_add_blocks_request& r, const document& doc) {
    problem_list problems;
    for (std::size_t i = 0; i < r.blocks.size(); ++i)
        if (!rules::page_in_document(r.blocks[i].page.str(), doc.pageCount))
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
} // namespace envelope_detail

inline outcome<envelope_add_blocks_response> handle(context& c, const envelope_add_blocks_request& r) {
    auto found = factory::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    document_record* target = factory::find_document(env, r.documentUuid);
    if (!target) return failure{error_code::DOCUMENT_NOT_FOUND};
    if (auto code = rules::check_draft(env.status)) return failure{*code};
    if (auto problems = envelope_detail::page_problems(r, target->doc); !problems.empty())
        return failure{error_code::INVALID_REQUEST_FORMAT, std::move(problems), {}};
    for (const auto& item : r.blocks)
        if (item.recipientEmail && !env.find_recipient(item.recipientEmail->str()))
            return failure{error_code::INVALID_RECIPIENT_EMAIL};

    for (const auto& item : r.blocks) {
        const recipient_record* recipient =
            item.recipientEmail ? env.find_recipient(item.recipientEmail->str()) : nullptr;
        // The key is the page's number in decimal: "01" is stored under "1".
        const auto page = rules::page_in_document(item.page.str(), target->doc.pageCount).value_or(1);
        target->doc.blocks[std::to_string(page)].push_back(envelope_detail::stored_block(c, item, recipient));
    }
    target->doc.snapshotDate = c.now;
    env.update_date = c.now;
    return envelope_add_blocks_response{c.now};
}

// ---------------------------------------------------------------------------------------------
// /public/envelope/delete-blocks (unknown block uuids are ignored)

inline outcome<envelope_delete_blocks_response> handle(context& c, const envelope_delete_blocks_request& r) {
    auto found = factory::find_envelope(c, r.workspaceUuid, r.envelopeUuid);
    if (found.error) return *found.error;
    envelope_record& env = *found.envelope;
    document_record* target = factory::find_document(env, r.documentUuid);
    if (!target) return failure{error_code::DOCUMENT_NOT_FOUND};
    if (auto code = rules::check_draft(env.status)) return failure{*code};

    const std::set<std::string_view> listed(r.blockUuids.begin(), r.blockUuids.end());
    auto is_listed = [&](const block& b) { return listed.contains(b.uuid); };
    auto& pages = target->doc.blocks;
    for (auto& [page, blocks] : pages) std::erase_if(blocks, is_listed);
    std::erase_if(pages, [](const auto& entry) { return entry.second.empty(); });  // no empty pages left behind
    target->doc.snapshotDate = c.now;
    env.update_date = c.now;
    return envelope_delete_blocks_response{c.now};
}

} // namespace esign::reference::handlers
