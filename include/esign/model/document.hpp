// SPDX-License-Identifier: BSL-1.0
#pragma once
// Documents and their blocks (interface.md "Document", "Block"), and the block operations:
// /public/envelope/add-blocks and /public/envelope/delete-blocks.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/enums.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/bounded_vector.hpp>
#include <esign/types/email.hpp>
#include <esign/types/nullable.hpp>
#include <esign/types/pattern_string.hpp>
#include <esign/types/ranged.hpp>
#include <esign/types/scalar_text.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// Resources (response side)

// A block placed on a page (text is the only type). A stored block (contract.md §3): label = text,
// labelIcon text-t, exportable false, color = its recipient's colour (else primary), defaultValue
// stored as text, value null, the other members as given in add-blocks (absent stays absent).
struct block {
    std::string uuid;
    std::string label;
    std::optional<label_icon> labelIcon;
    double x{};
    double y{};
    std::optional<double> height;
    std::optional<double> width;
    bool exportable{};
    std::optional<std::string> recipientEmail;
    std::optional<bool> exported;
    std::optional<block_color> color;
    std::optional<std::string> recipientLabel;
    std::optional<bool> required;  // interface.md states no requiredness; add-blocks makes it optional
    std::optional<std::string> placeholder;
    tri_state<std::string> defaultValue;  // string or null, optional
    tri_state<std::string> value;         // string or null, optional
    block_type type{block_type::text};
    std::string text;
    std::optional<std::int64_t> maxLength;
    std::optional<templated_text> templatedText;
    std::optional<bool> editable;
};
BOOST_DESCRIBE_STRUCT(block, (),
                      (uuid, label, labelIcon, x, y, height, width, exportable, recipientEmail, exported, color,
                       recipientLabel, required, placeholder, defaultValue, value, type, text, maxLength, templatedText,
                       editable))

// Keys of `document.blocks` are page numbers written in decimal ("1", "2", ...).
using blocks_by_page = std::map<std::string, std::vector<block>>;

struct document {
    std::string uuid;
    std::string title;  // at most 255 code points
    blocks_by_page blocks;
    std::optional<std::int64_t> snapshotDate;
    bool signaturesOnSeparatePage{};
    bool initialsOnAllPages{};
    std::int64_t initialsVerticalMargin{};
    bool mustReadAllPages{};
    std::int64_t pageCount{};
};
BOOST_DESCRIBE_STRUCT(document, (),
                      (uuid, title, blocks, snapshotDate, signaturesOnSeparatePage, initialsOnAllPages,
                       initialsVerticalMargin, mustReadAllPages, pageCount))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/add-blocks

struct add_blocks_item {
    page_key page;  // decimal digits; 1..pageCount is checked once the document is found
    double x{};
    double y{};
    std::optional<double> height;
    std::optional<double> width;
    std::optional<email_address> recipientEmail;  // must be a recipient (INVALID_RECIPIENT_EMAIL)
    std::optional<bool> required;
    std::optional<std::string> placeholder;
    std::optional<scalar_text> defaultValue;  // string, number or boolean, kept as text
    block_type type{block_type::text};
    std::string text;
    std::optional<positive_int> maxLength;
    std::optional<templated_text> templatedText;
};
BOOST_DESCRIBE_STRUCT(add_blocks_item, (),
                      (page, x, y, height, width, recipientEmail, required, placeholder, defaultValue, type, text,
                       maxLength, templatedText))

struct envelope_add_blocks_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    uuid36 documentUuid;
    bounded_vector<add_blocks_item, 1> blocks;
};
BOOST_DESCRIBE_STRUCT(envelope_add_blocks_request, (), (workspaceUuid, envelopeUuid, documentUuid, blocks))

struct envelope_add_blocks_response {
    std::int64_t snapshotDate{};
};
BOOST_DESCRIBE_STRUCT(envelope_add_blocks_response, (), (snapshotDate))

// ---------------------------------------------------------------------------------------------
// POST /public/envelope/delete-blocks (unknown block uuids are ignored)

struct envelope_delete_blocks_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    uuid36 documentUuid;
    bounded_vector<uuid36, 1> blockUuids;
};
BOOST_DESCRIBE_STRUCT(envelope_delete_blocks_request, (), (workspaceUuid, envelopeUuid, documentUuid, blockUuids))

struct envelope_delete_blocks_response {
    std::int64_t snapshotDate{};
};
BOOST_DESCRIBE_STRUCT(envelope_delete_blocks_response, (), (snapshotDate))

}  // namespace esign
