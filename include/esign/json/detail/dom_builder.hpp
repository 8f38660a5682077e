#pragma once
// A basic_parser handler that builds a boost::json::value like boost::json::parse does,
// and also notes every member name that appears twice in one object, with its path
// (parsers disagree on which copy wins, so esign refuses to guess).
#include <map>
#include <string>
#include <vector>

#include <boost/json/basic_parser.hpp>
#include <boost/json/value.hpp>

#include <esign/validation/problem.hpp>

namespace esign::json::detail {

class dom_builder {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    boost::json::value root;
    problem_list duplicates;
    // The text of every number as written, by path: a member kept as text (add-blocks
    // defaultValue) stores "2.50" as "2.50", not as the double's shortest form.
    std::map<problem_path, std::string> number_texts;

    bool on_document_begin(boost::json::error_code&) { return true; }
    bool on_document_end(boost::json::error_code&) { return true; }

    bool on_object_begin(boost::json::error_code&) {
        frames_.push_back(frame{boost::json::object(), {}});
        return true;
    }
    bool on_object_end(std::size_t, boost::json::error_code&) { return close_frame(); }
    bool on_array_begin(boost::json::error_code&) {
        frames_.push_back(frame{boost::json::array(), {}});
        return true;
    }
    bool on_array_end(std::size_t, boost::json::error_code&) { return close_frame(); }

    bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        frames_.back().key.append(s.data(), s.size());
        return true;
    }
    bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        frames_.back().key.append(s.data(), s.size());
        return true;
    }
    bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        boost::json::value v;
        v.emplace_string().assign(text_.data(), text_.size());
        text_.clear();
        return add(std::move(v));
    }
    bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
        text_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t i, boost::json::string_view s, boost::json::error_code&) { return add_number(i, s); }
    bool on_uint64(std::uint64_t u, boost::json::string_view s, boost::json::error_code&) { return add_number(u, s); }
    bool on_double(double d, boost::json::string_view s, boost::json::error_code&) { return add_number(d, s); }
    bool on_bool(bool b, boost::json::error_code&) { return add(b); }
    bool on_null(boost::json::error_code&) { return add(nullptr); }
    bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

private:
    struct frame {
        boost::json::value container;
        std::string key;  // the pending member name, when the container is an object
    };

    bool add_number(boost::json::value v, boost::json::string_view last_part) {
        text_.append(last_part.data(), last_part.size());
        if (!frames_.empty()) {
            const frame& parent = frames_.back();
            problem_path path = parent.container.is_array()
                                    ? path_to(std::to_string(parent.container.get_array().size()))
                                    : path_to(parent.key);
            number_texts.emplace(std::move(path), text_);
        }
        text_.clear();
        return add(std::move(v));
    }

    bool close_frame() {
        boost::json::value done = std::move(frames_.back().container);
        frames_.pop_back();
        return add(std::move(done));
    }

    bool add(boost::json::value v) {
        if (frames_.empty()) {
            root = std::move(v);
            return true;
        }
        frame& parent = frames_.back();
        if (parent.container.is_array()) {
            parent.container.get_array().push_back(std::move(v));
            return true;
        }
        auto& object = parent.container.get_object();
        if (object.contains(parent.key)) duplicates.push_back(problem{path_to(parent.key), problem_kind::duplicate_member, {}, "appears more than once"});
        else object.emplace(parent.key, std::move(v));
        parent.key.clear();
        return true;
    }

    // The path of a member `key` of the innermost open object.
    problem_path path_to(const std::string& key) const {
        problem_path path;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
            const frame& f = frames_[i];
            if (f.container.is_array()) path.push_back(std::to_string(f.container.get_array().size()));
            else path.push_back(f.key);
        }
        path.push_back(key);
        return path;
    }

    std::vector<frame> frames_;
    std::string text_;
};

} // namespace esign::json::detail
