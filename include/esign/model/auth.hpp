// SPDX-License-Identifier: BSL-1.0
#pragma once
// /public/authentication/create-iframe-token and /public/utils/whoami (contract.md §4).
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe/class.hpp>

#include <esign/types/bounded_string.hpp>
#include <esign/types/email.hpp>

namespace esign {

// ---------------------------------------------------------------------------------------------
// POST /public/authentication/create-iframe-token

inline constexpr std::string_view iframe_token_prefix = "sit.";

struct authentication_create_iframe_token_request {
    std::optional<uuid36> workspaceUuid;
    uuid36 envelopeUuid;
    email_address signerEmail;
};
BOOST_DESCRIBE_STRUCT(authentication_create_iframe_token_request, (), (workspaceUuid, envelopeUuid, signerEmail))

struct authentication_create_iframe_token_response {
    std::string iframeToken;  // "sit." followed by at least 32 URL-safe characters
};
BOOST_DESCRIBE_STRUCT(authentication_create_iframe_token_response, (), (iframeToken))

// ---------------------------------------------------------------------------------------------
// POST /public/utils/whoami

struct utils_whoami_request {};
BOOST_DESCRIBE_STRUCT(utils_whoami_request, (), ())

struct utils_whoami_response {
    std::string teamUuid;
    std::string teamName;
    std::string ownerEmail;
    std::string ownerUuid;
};
BOOST_DESCRIBE_STRUCT(utils_whoami_response, (), (teamUuid, teamName, ownerEmail, ownerUuid))

}  // namespace esign
