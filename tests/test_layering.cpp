// SPDX-License-Identifier: BSL-1.0
// The headers' arrows run one way (issue: one source of truth per fact): each folder of
// include/esign/ includes only itself and the folders below it, in this order:
//   regex → validation → types → model → rules → json → client → schema → reference
// (client/: a caller of the service, with its webhook receiver; it needs only the model, the
// rules and the codecs).
// (esign.hpp and version.hpp, at the top, may include any). A new include that points upwards
// fails here with the file and the line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace test_layering {

namespace {

const std::vector<std::string> layers{"regex", "validation", "types",  "model",    "rules",
                                      "json",  "client",     "schema", "reference"};

int rank_of(const std::string& layer) {
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (layers[i] == layer) return static_cast<int>(i);
    return -1;
}

}  // namespace

TEST_CASE("layering: every header includes only its own folder and the folders below it", "[layering]") {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(ESIGN_SOURCE_DIR) / "include" / "esign";
    REQUIRE(fs::is_directory(root));
    const std::regex include_line(R"(^\s*#\s*include\s*<esign/([a-z_]+)/)");
    std::size_t headers = 0, includes = 0;
    std::vector<std::string> upwards;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".hpp") continue;
        const auto relative = fs::relative(entry.path(), root);
        if (relative.begin() == relative.end() || std::next(relative.begin()) == relative.end()) continue;  // top level
        const std::string layer = relative.begin()->string();
        const int own = rank_of(layer);
        INFO(relative.string());
        REQUIRE(own >= 0);  // a new folder takes its place in `layers` above
        ++headers;
        std::ifstream in(entry.path());
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            std::smatch m;
            if (!std::regex_search(line, m, include_line)) continue;
            ++includes;
            if (rank_of(m[1]) < 0 || rank_of(m[1]) > own)
                upwards.push_back(relative.string() + ":" + std::to_string(number) + ": " + line);
        }
    }
    CHECK(headers > 90);
    CHECK(includes > 200);
    for (const auto& u : upwards) UNSCOPED_INFO(u);
    CHECK(upwards.empty());
}

}  // namespace test_layering
