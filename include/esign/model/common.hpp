// SPDX-License-Identifier: BSL-1.0
#pragma once
// What resource groups share: the empty response `{}`, and the optional details of a person that
// contacts and recipients both carry.
#include <optional>
#include <string>

#include <boost/describe/class.hpp>

#include <esign/validation/described_members.hpp>

namespace esign {

// The response `{}` of every operation that answers an empty object
// (each such operation names it with an alias, e.g. `envelope_send_response`).
struct empty_response {};
BOOST_DESCRIBE_STRUCT(empty_response, (), ())

// jobTitle … country: optional strings of a contact, a recipient and their create and update
// forms (interface.md "Contact", "Recipient", contact/update, update-recipient). Each of those
// declares a `flattened<person_details> details`: in JSON the seven are its own members.
struct person_details {
    std::optional<std::string> jobTitle;
    std::optional<std::string> company;
    std::optional<std::string> addressLine1;
    std::optional<std::string> addressLine2;
    std::optional<std::string> zipCode;
    std::optional<std::string> city;
    std::optional<std::string> country;
};
BOOST_DESCRIBE_STRUCT(person_details, (), (jobTitle, company, addressLine1, addressLine2, zipCode, city, country))

}  // namespace esign
