// SPDX-License-Identifier: BSL-1.0
#pragma once
// Builds a boost::json::value from the events of a document (see json/parse.hpp), like
// boost::json::parse does, and notes every member name that appears twice in one object,
// with its path (parsers disagree on which copy wins, so esign refuses to guess: the first
// copy is kept and the second is a problem). Like the decoder, it keeps at most
// max_reported_problems of them (and counts the others), with names cut by path_name.
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include <esign/json/detail/messages.hpp>
#include <esign/json/scalar.hpp>
#include <esign/validation/problem.hpp>

namespace esign::json::detail {

class dom_builder {
public:
    boost::json::value root;
    problem_list duplicates;  // paths relative to the root
    std::size_t dropped = 0;  // duplicates not kept: `duplicates` was full

    void on_begin(bool is_array) {
        frames_.push_back(
            frame{is_array ? boost::json::value(boost::json::array()) : boost::json::value(boost::json::object()), {}});
    }
    void on_key(std::string_view key) { frames_.back().key.assign(key); }
    void on_scalar(const scalar& s) { add(s.to_value()); }
    void on_end() {
        boost::json::value done = std::move(frames_.back().container);
        frames_.pop_back();
        add(std::move(done));
    }

private:
    struct frame {
        boost::json::value container;
        std::string key;  // the pending member name, when the container is an object
    };

    void add(boost::json::value v) {
        if (frames_.empty()) {
            root = std::move(v);
            return;
        }
        frame& parent = frames_.back();
        if (parent.container.is_array()) {
            parent.container.get_array().push_back(std::move(v));
            return;
        }
        auto& object = parent.container.get_object();
        if (object.contains(parent.key)) {
            if (problems_full(duplicates))
                ++dropped;
            else
                duplicates.push_back(problem{
                    path_to(parent.key), problem_kind::duplicate_member, {}, std::string(duplicate_member_message)});
        } else
            object.emplace(parent.key, std::move(v));
    }

    // The path of a member `key` of the innermost open object.
    problem_path path_to(const std::string& key) const {
        problem_path path;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
            const frame& f = frames_[i];
            if (f.container.is_array())
                path.push_back(std::to_string(f.container.get_array().size()));
            else
                path.emplace_back(path_name(f.key, path.size()));
        }
        path.emplace_back(path_name(key, path.size()));
        return path;
    }

    std::vector<frame> frames_;
};

}  // namespace esign::json::detail
