// SPDX-License-Identifier: BSL-1.0
// Files of the repository, and the normative texts beside it (../shared/spec) that tests compare
// the code with rather than with itself; found from ESIGN_SOURCE_DIR, never from __FILE__.
#pragma once

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace esign::test {

// The text of PATH, relative to the repository's root; empty when the file is not there.
inline std::string source_text(const std::string& path) {
    std::ifstream in(std::string(ESIGN_SOURCE_DIR) + "/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The text of ../shared/spec/NAME; empty when the file is not there.
inline std::string spec_text(const std::string& name) { return source_text("../shared/spec/" + name); }

// Every "/public/<group>/<operation>" path a text names.
inline std::set<std::string> public_paths_in(const std::string& text) {
    std::set<std::string> paths;
    const auto is_path_char = [](char c) { return (c >= 'a' && c <= 'z') || c == '-' || c == '/'; };
    for (auto at = text.find("/public/"); at != std::string::npos; at = text.find("/public/", at + 1)) {
        auto end = at + 8;
        while (end < text.size() && is_path_char(text[end])) ++end;
        std::string path = text.substr(at, end - at);
        while (!path.empty() && path.back() == '/') path.pop_back();
        if (std::count(path.begin(), path.end(), '/') == 3) paths.insert(path);
    }
    return paths;
}

}  // namespace esign::test
