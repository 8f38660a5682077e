// SPDX-License-Identifier: BSL-1.0
#pragma once
// Bodies shaped to make a decoder take memory out of proportion to their size (contract.md
// §6.7), at any size: the memory bound test (decode_memory_bound.cpp) decodes them up to
// 1 MiB, and writes them, small, as seeds of fuzz/corpus/decode/ (bounds_*.bin).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <esign/esign.hpp>

namespace esign_hostile {

inline const std::string uuid = "0b5c2a1e-9a7e-4c5b-8a3d-2f6e1d4c3b2a";

// Repeats `item` (joined by commas) after `head` until the body is about `size` bytes, then
// closes it with `tail`.
inline std::string fill(std::string head, std::string_view item, std::string_view tail, std::size_t size) {
    bool first = true;
    while (head.size() + item.size() + tail.size() < size) {
        if (!first) head += ',';
        head += item;
        first = false;
    }
    return head + std::string(tail);
}

struct body {
    std::string name;          // a file name (no extension)
    std::string_view op_path;  // the operation whose request it is
    bool strict;
    std::string bytes;
};

// Every shape at about `size` bytes (at least a few KiB).
inline std::vector<body> hostile_bodies(std::size_t size) {
    std::vector<body> out;
    constexpr std::string_view get = "/public/envelope/get";
    // An ignored member with a long name (4/7 of the body: 32 KiB in 56 KiB) whose value
    // repeats one member: each repetition is a duplicate whose path holds the name.
    {
        const std::string name(size * 4 / 7, 'n');
        for (bool strict : {false, true})
            out.push_back({strict ? "long_name_duplicates_strict" : "long_name_duplicates", get, strict,
                           fill(R"({"envelopeUuid":")" + uuid + R"(",")" + name + R"(":{)", R"("a":0)", "}}", size)});
    }
    // recipients far beyond their maximum of 50: valid items, empty items, items with a
    // duplicate each, numbers.
    for (auto [name, item] :
         {std::pair<const char*, const char*>{
              "recipients_valid", R"({"type":"manual","email":"a@example.com","firstname":"A","lastname":"B"})"},
          {"recipients_empty", "{}"},
          {"recipients_duplicates", R"({"email":0,"email":0})"},
          {"recipients_numbers", "0"}})
        out.push_back({name, "/public/envelope/add-recipients", false,
                       fill(R"({"envelopeUuid":")" + uuid + R"(","recipients":[)", item, "]}", size)});
    // Unknown members nested 63 deep, each named with 300 bytes, around many duplicates: every
    // duplicate's path holds the 63 names.
    {
        const std::string name(300, 'd');
        std::string head = "{", tail = "}";
        for (int depth = 1; depth < 64; ++depth) {
            head += '"' + name + "\":{";
            tail += "}";
        }
        for (bool strict : {false, true})
            out.push_back(
                {strict ? "deep_unknown_strict" : "deep_unknown", get, strict, fill(head, R"("a":0)", tail, size)});
    }
    // Nested arrays in an unknown member, then many of them.
    out.push_back(
        {"deep_arrays", get, false,
         fill(R"({"envelopeUuid":")" + uuid + R"(","x":[)", std::string(62, '[') + std::string(62, ']'), "]}", size)});
    // The same known member again and again; many distinct unknown names.
    out.push_back({"duplicate_members", get, false, fill("{", R"("envelopeUuid":")" + uuid + '"', "}", size)});
    {
        std::string b = R"({"envelopeUuid":")" + uuid + '"';
        for (std::size_t i = 0; b.size() + 16 < size; ++i) b += ",\"" + std::to_string(i) + "\":0";
        for (bool strict : {false, true})
            out.push_back({strict ? "distinct_unknown_strict" : "distinct_unknown", get, strict, b + "}"});
    }
    // Arrays without a maximum: empty block items (each misses its required members) and
    // empty strings (a valid body: every one is stored).
    out.push_back(
        {"blocks_empty", "/public/envelope/add-blocks", false,
         fill(R"({"envelopeUuid":")" + uuid + R"(","documentUuid":")" + uuid + R"(","blocks":[)", "{}", "]}", size)});
    out.push_back({"tags_empty", "/public/envelope/list", false, fill(R"({"tags":[)", R"("")", "]}", size)});
    // Type problems in an array of strings, without a maximum.
    out.push_back({"tags_numbers", "/public/envelope/list", false, fill(R"({"tags":[)", "0", "]}", size)});
    return out;
}

}  // namespace esign_hostile
