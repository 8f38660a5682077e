// SPDX-License-Identifier: BSL-1.0
#pragma once
// The decoder: reads one JSON document into a typed value as its events arrive (a value
// begins, a member's name, a scalar, a container ends), from the parser while it reads
// bytes or from a boost::json::value. It keeps the containers that are open, so it knows
// the path of every problem without building one until a problem needs it, and it collects
// the problems (readers add them with `add`; nothing throws).
//
// Bounds (contract.md §6.7): it keeps at most max_reported_problems problems and counts the
// others (dropped_problems); once it holds that many, the body is refused whatever follows, so
// the values that follow are no longer read, only parsed (well-formedness, depth) and walked
// for member names. A member name in a problem path is cut to max_path_name_bytes (fewer deep
// in a path: path_name).
//
// Which reader a value gets is decided by its C++ type (reader_for in json/codec.hpp); this file
// only drives them. json::read first tries the direct reader (json/detail/direct_reader.hpp),
// which reads bodies without a problem faster, and comes here for the others.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include <boost/container/small_vector.hpp>

#include <esign/json/detail/dom_builder.hpp>
#include <esign/json/detail/messages.hpp>
#include <esign/json/scalar.hpp>
#include <esign/validation/problem.hpp>

namespace esign::json {

struct decode_options {
    // Report members the type does not have as problems (the reference server's --strict).
    bool strict = false;
};

class decoder;

namespace detail {
struct frame;
struct container_reader;

// How one C++ type reads a JSON value: the type-erased face of its codec.
struct value_reader {
    void (*scalar)(void* target, const json::scalar&, decoder&);
    // A container begins. Returns the reader of its contents (and may move `target` to an
    // inner value, e.g. into an optional), or nullptr when the type takes no such container:
    // it has added a problem, and the container is skipped.
    const container_reader* (*begin)(void*& target, bool is_array, decoder&);
};

// Where the next value goes; no reader means the value is skipped.
struct slot {
    void* target = nullptr;
    const value_reader* reader = nullptr;
};

// What a container does with its contents.
struct container_reader {
    slot (*key)(frame&, std::string_view key, decoder&);  // objects: a member's name
    slot (*item)(frame&, decoder&);                       // arrays: the next item
    void (*end)(frame&, decoder&);
};

// An open container.
struct frame {
    // Provided, so that a new frame is not first zero-filled whole (value-initialization does
    // that for a class whose constructor is implicit): each member is set once, below.
    frame() noexcept {}

    void* target = nullptr;
    const container_reader* reader = nullptr;
    bool is_array = false;
    std::size_t first_problem = 0;  // problems found before it began
    std::uint64_t seen = 0;         // struct members present, by index
    std::size_t items = 0;          // array items begun
    slot pending;                   // object: where the current member's value goes

    // The member or item being read, the container's part of the path.
    bool in_child = false;
    bool key_is_static = false;
    std::string_view static_name;  // a member name with static storage (when key_is_static)

    std::string_view child_name() const noexcept { return key_is_static ? static_name : std::string_view(names->key); }
    void enter_member(std::string_view name) noexcept {
        in_child = true;
        key_is_static = true;
        static_name = name;
    }
    void enter_key(std::string_view name) {
        in_child = true;
        key_is_static = false;
        other().key.assign(name);
    }
    // Member names that `seen` does not track, to find duplicates among them.
    bool first_time(std::string_view name) { return other().keys.emplace(name).second; }

private:
    // Kept apart, and made only for an object with such names: most frames never need them.
    struct other_names {
        std::string key;                       // the current member's name
        std::unordered_set<std::string> keys;  // every such name so far
    };
    other_names& other() {
        if (!names) names = std::make_unique<other_names>();
        return *names;
    }
    std::unique_ptr<other_names> names;
};
}  // namespace detail

class decoder {
public:
    explicit decoder(decode_options options = {}) : options_(options) {}

    const decode_options& options() const noexcept { return options_; }
    problem_list& problems() noexcept { return problems_; }
    // The problems kept; problems were found if and only if it is not 0.
    std::size_t problem_count() const noexcept { return problems_.size(); }
    // Problems found but not kept: the decoder held max_reported_problems already. (Values
    // are no longer read then, so the problems they have are not found, nor counted.)
    std::size_t dropped_problems() const noexcept { return dropped_; }

    // The path of the value being read, e.g. ["recipients", "3", "email"] (names cut by path_name).
    problem_path path() const {
        problem_path p;
        p.reserve(frames_.size() + 1);
        for (const detail::frame& f : frames_) {
            if (!f.in_child) break;
            if (f.is_array)
                p.push_back(std::to_string(f.items - 1));
            else
                p.emplace_back(path_name(f.child_name(), p.size()));
        }
        return p;
    }

    void add(problem_kind kind, std::string message, std::optional<std::int64_t> limit = std::nullopt) {
        if (full()) return;
        problems_.push_back(problem{path(), kind, limit, std::move(message)});
    }
    // A problem at a member below the current value (e.g. a missing member).
    void add_at(std::string_view member, problem_kind kind, std::string message) {
        if (full()) return;
        problem p{path(), kind, std::nullopt, std::move(message)};
        p.path.emplace_back(member);
        problems_.push_back(std::move(p));
    }
    // Where rules across members add problems, below the current value, whose own problems
    // begin at `first_problem`.
    problem_sink sink(std::size_t first_problem = 0) noexcept {
        return problem_sink(
            problems_, [](const void* self) { return static_cast<const decoder*>(self)->path(); }, this, first_problem,
            &dropped_);
    }

    // ---- The events of one document, in order. `start` names where its root value goes.
    void start(detail::slot root) {
        frames_.clear();
        capture_.reset();
        root_ = root;
    }
    // Inline in the parser: a call per value was 1 to 1.6 % of decoding's instructions.
    [[gnu::always_inline]] void on_scalar(const scalar& s) {
        if (capture_) return capture_->builder.on_scalar(s);
        detail::slot next = next_slot();
        if (next.reader) next.reader->scalar(next.target, s, *this);
    }
    void on_begin(bool is_array) {
        if (capture_) {
            capture_->builder.on_begin(is_array);
            ++capture_->depth;
            return;
        }
        detail::slot next = next_slot();
        const detail::container_reader* contents =
            next.reader ? next.reader->begin(next.target, is_array, *this) : nullptr;
        if (capture_) return;  // the reader takes the container whole (begin_capture)
        detail::frame& f = frames_.emplace_back();
        f.target = next.target;
        f.reader = contents ? contents : &skip_reader;
        f.is_array = is_array;
        f.first_problem = problems_.size();
    }
    void on_key(std::string_view key) {
        if (capture_) return capture_->builder.on_key(key);
        detail::frame& f = frames_.back();
        f.pending = f.reader->key(f, key, *this);
    }
    void on_end() {
        if (capture_) {
            capture_->builder.on_end();
            if (--capture_->depth == 0) finish_capture();
            return;
        }
        detail::frame& f = frames_.back();
        f.in_child = false;
        f.reader->end(f, *this);
        frames_.pop_back();
    }

    // For readers that want a container as a boost::json::value (codecs with `decode`): the
    // container's events build one, then `finish` reads it.
    using capture_finish = void (*)(void* target, const boost::json::value&, decoder&);
    void begin_capture(void* target, capture_finish finish, bool is_array) {
        capture_.emplace(capture{{}, 1, target, finish});
        capture_->builder.on_begin(is_array);
    }

    // A member name seen twice in one object (the first copy is kept).
    void add_duplicate() { add(problem_kind::duplicate_member, std::string(detail::duplicate_member_message)); }

private:
    struct capture {
        detail::dom_builder builder;
        std::size_t depth;
        void* target;
        capture_finish finish;
    };

    // Where the value that begins goes; nowhere (skipped) once the problems are full.
    detail::slot next_slot() {
        if (frames_.empty()) return std::exchange(root_, detail::slot{});
        detail::frame& f = frames_.back();
        if (f.is_array) {
            ++f.items;
            f.in_child = true;
            if (problems_full(problems_)) return {};
            return f.reader->item(f, *this);
        }
        detail::slot next = std::exchange(f.pending, detail::slot{});
        return problems_full(problems_) ? detail::slot{} : next;
    }

    // Whether a problem found now is dropped (and counted) rather than kept.
    bool full() noexcept {
        if (!problems_full(problems_)) return false;
        ++dropped_;
        return true;
    }

    void finish_capture() {
        capture done = std::move(*capture_);
        capture_.reset();
        dropped_ += done.builder.dropped;
        if (!done.builder.duplicates.empty()) {
            const problem_path here = path();
            for (problem& p : done.builder.duplicates) {
                if (full()) continue;
                p.path.insert(p.path.begin(), here.begin(), here.end());
                for (std::size_t i = here.size(); i < p.path.size(); ++i)  // now deeper: maybe cut more
                    p.path[i].resize(path_name(p.path[i], i).size());
                problems_.push_back(std::move(p));
            }
        }
        done.finish(done.target, done.builder.root, *this);
    }

    // Contents nobody reads (an unknown member's value, a value of the wrong type): only
    // duplicate member names are reported in them.
    static detail::slot skip_key(detail::frame& f, std::string_view key, decoder& d) {
        f.enter_key(key);
        if (!f.first_time(key)) d.add_duplicate();
        return {};
    }
    static detail::slot skip_item(detail::frame&, decoder&) { return {}; }
    static void skip_end(detail::frame&, decoder&) {}
    static constexpr detail::container_reader skip_reader{&skip_key, &skip_item, &skip_end};

    decode_options options_;
    problem_list problems_;
    std::size_t dropped_ = 0;
    // Room for the open containers of most bodies in the decoder itself: a decoder that finds no
    // problem allocates nothing of its own.
    boost::container::small_vector<detail::frame, 8> frames_;
    detail::slot root_;
    std::optional<capture> capture_;
};

}  // namespace esign::json
