#pragma once
// The extension point of the JSON layer: codec<T> says how one C++ type is read from a
// boost::json::value (adding every problem it finds, at its path) and written back.
// Specialize esign::json::codec for your own types, as you would fmt::formatter.
#include <map>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

#include <esign/validation/problem.hpp>

namespace esign::json {

struct decode_options {
    // Report members the type does not have as problems (the reference server's --strict).
    bool strict = false;
};

// What a decode is doing: where it is in the document, and what it has found wrong.
class decoder {
public:
    explicit decoder(decode_options options = {}) : options_(options) {}

    const decode_options& options() const noexcept { return options_; }
    const problem_path& path() const noexcept { return path_; }
    problem_list& problems() noexcept { return problems_; }
    std::size_t problem_count() const noexcept { return problems_.size(); }

    void add(problem_kind kind, std::string message, std::optional<std::int64_t> limit = std::nullopt) {
        problems_.push_back(problem{path_, kind, limit, std::move(message)});
    }
    // A problem at a member below the current value (e.g. a missing member).
    void add_at(std::string_view member, problem_kind kind, std::string message) {
        path_.emplace_back(member);
        add(kind, std::move(message));
        path_.pop_back();
    }
    problem_sink sink() noexcept { return problem_sink(problems_, path_); }

    // The text of the number at the current path as written in the body, when decoding bytes.
    const std::string* number_text() const {
        if (!number_texts_) return nullptr;
        auto it = number_texts_->find(path_);
        return it == number_texts_->end() ? nullptr : &it->second;
    }
    void set_number_texts(const std::map<problem_path, std::string>* texts) noexcept { number_texts_ = texts; }

    // Runs f with `part` appended to the path.
    template <class F>
    void at(std::string_view part, F&& f) {
        path_.emplace_back(part);
        f();
        path_.pop_back();
    }
    template <class F>
    void at_index(std::size_t index, F&& f) {
        path_.push_back(std::to_string(index));
        f();
        path_.pop_back();
    }

private:
    decode_options options_;
    problem_path path_;
    problem_list problems_;
    const std::map<problem_path, std::string>* number_texts_ = nullptr;
};

// Primary template: a type without a codec is a compile error naming it.
//   static void decode(const boost::json::value&, T&, decoder&);  // adds problems, never throws
//   static void encode(const T&, boost::json::value&);
template <class T, class Enable = void>
struct codec;

template <class T>
concept codable = requires { sizeof(codec<T>); };

template <class T>
void decode_value(const boost::json::value& v, T& out, decoder& d) {
    codec<T>::decode(v, out, d);
}

template <class T>
void encode_value(const T& in, boost::json::value& out) {
    codec<T>::encode(in, out);
}

} // namespace esign::json
