// SPDX-License-Identifier: BSL-1.0
#pragma once
// Workspaces (interface.md "Workspace") and /public/workspace/list, get, create, update.
// The members returned differ per operation, so each form is its own struct:
//   list   -> workspace_list_item: uuid, name, creationDate, updateDate, sandbox, membersCount
//   get    -> workspace:           ... + isDefault, colorHex, membersCount (every member)
//   create -> workspace_created:   ... + isDefault, colorHex (no membersCount)
//   update -> workspace            (contract.md §4: "full form")
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/class.hpp>

#include <esign/model/pagination.hpp>
#include <esign/types/bounded_string.hpp>
#include <esign/types/pattern_string.hpp>

namespace esign {

inline constexpr std::string_view default_workspace_name = "Default";
inline constexpr std::string_view default_workspace_color = "#228be6";

// What every form of a workspace begins with (a described base's members come first, in JSON too).
struct workspace_identity {
    std::string uuid;
    std::string name;
    std::int64_t creationDate{};
    std::int64_t updateDate{};
};
BOOST_DESCRIBE_STRUCT(workspace_identity, (), (uuid, name, creationDate, updateDate))

// workspace/create result.
struct workspace_created : workspace_identity {
    bool isDefault{};
    std::string colorHex;
    bool sandbox{};
};
BOOST_DESCRIBE_STRUCT(workspace_created, (workspace_identity), (isDefault, colorHex, sandbox))

// Full form (workspace/get, workspace/update): what workspace/create answers and the number of
// members.
struct workspace : workspace_created {
    std::int64_t membersCount{1};
};
BOOST_DESCRIBE_STRUCT(workspace, (workspace_created), (membersCount))

// workspace/list item.
struct workspace_list_item : workspace_identity {
    bool sandbox{};
    std::int64_t membersCount{1};
};
BOOST_DESCRIBE_STRUCT(workspace_list_item, (workspace_identity), (sandbox, membersCount))

// ---------------------------------------------------------------------------------------------
// POST /public/workspace/list

struct workspace_list_request {
    std::optional<page_number> page;
    std::optional<page_limit> limit;
};
BOOST_DESCRIBE_STRUCT(workspace_list_request, (), (page, limit))

struct workspace_list_response {
    std::vector<workspace_list_item> workspaces;
    esign::pagination pagination;
};
BOOST_DESCRIBE_STRUCT(workspace_list_response, (), (workspaces, pagination))

// ---------------------------------------------------------------------------------------------
// POST /public/workspace/get

struct workspace_get_request {
    uuid36 workspaceUuid;
};
BOOST_DESCRIBE_STRUCT(workspace_get_request, (), (workspaceUuid))

struct workspace_get_response {
    esign::workspace workspace;
};
BOOST_DESCRIBE_STRUCT(workspace_get_response, (), (workspace))

// ---------------------------------------------------------------------------------------------
// POST /public/workspace/create

struct workspace_create_request {
    bounded_string<1, 100> name;
    std::optional<hex_color> colorHex;  // default_workspace_color when absent
};
BOOST_DESCRIBE_STRUCT(workspace_create_request, (), (name, colorHex))

struct workspace_create_response {
    workspace_created workspace;
};
BOOST_DESCRIBE_STRUCT(workspace_create_response, (), (workspace))

// ---------------------------------------------------------------------------------------------
// POST /public/workspace/update (contract.md §4: the one public way to set the sandbox flag)

struct workspace_update_request {
    uuid36 workspaceUuid;
    bool sandbox{};
};
BOOST_DESCRIBE_STRUCT(workspace_update_request, (), (workspaceUuid, sandbox))

struct workspace_update_response {
    esign::workspace workspace;
};
BOOST_DESCRIBE_STRUCT(workspace_update_response, (), (workspace))

}  // namespace esign
