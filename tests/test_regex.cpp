// SPDX-License-Identifier: BSL-1.0
// Tests of the compile-time regex -> DFA facility and of the two e-mail forms.
//
// std::regex (ECMAScript, the same pattern text) is the reference: every
// generated input must get the same verdict from both.
#include <esign/regex/detail/equivalence.hpp>
#include <esign/regex/email.hpp>
#include <esign/regex/regex.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace test_regex {

namespace {

namespace rx = esign::regex;
using namespace std::string_view_literals;

// ---------------------------------------------------------------------------
// Known e-mail verdicts, checked at compile time, at run time and against
// std::regex. The two forms agree on every one (they are equivalent).

struct email_case {
    std::string_view input;
    bool valid;
};

constexpr std::array email_cases{
    // accepted
    email_case{"a@b.co", true},
    email_case{"john.doe@example.com", true},
    email_case{"first.last+tag@mail.example.com", true},
    email_case{"o'neil_1@example.co", true},
    email_case{"o'neil@example.com", true},  // apostrophe inside
    email_case{"'a@example.com", true},      // apostrophe first
    email_case{"a.'b@example.com", true},    // apostrophe after a dot
    email_case{"_@example.com", true},
    email_case{"+@example.com", true},
    email_case{"-@example.com", true},
    email_case{"a-b_c+d@example.com", true},
    email_case{"A@B.CO", true},
    email_case{"x@1.example.com", true},  // label starting with a digit
    email_case{"x@a-.co", true},          // label may end with '-'
    email_case{"x@a--b.co", true},
    email_case{"x@example.museum", true},
    email_case{"1.2.3@4.5.co", true},
    // refused: local part
    email_case{".a@example.com", false},    // leading dot
    email_case{"a.@example.com", false},    // trailing dot
    email_case{"a..b@example.com", false},  // double dot
    email_case{"first..last@example.com", false},
    email_case{".first@example.com", false},
    email_case{"user'@example.com", false},
    email_case{"..@example.com", false},
    email_case{".@example.com", false},
    email_case{"a'@example.com", false},  // apostrophe last
    email_case{"'@example.com", false},
    email_case{"a b@example.com", false},
    email_case{"a\"b@example.com", false},
    email_case{"@example.com", false},  // empty local part
    // refused: domain
    email_case{"a@b.c", false},  // one-letter TLD
    email_case{"user@example.c", false},
    email_case{"a@b.12", false},  // digits-only TLD
    email_case{"a@b.c0", false},
    email_case{"a@b.c-o", false},
    email_case{"a@-b.co", false},  // hyphen-led label
    email_case{"a@_b.co", false},
    email_case{"a@localhost", false},  // no dot
    email_case{"a@.co", false},
    email_case{"a@b..co", false},
    email_case{"a@b.co.", false},  // trailing dot
    email_case{"a@b@c.co", false},
    email_case{"a@", false},
    // refused: everything else
    email_case{"", false},
    email_case{"@", false},
    email_case{"a", false},
    email_case{"a@b.co\n", false},  // '$' does not match before "\n"
    email_case{"a@b.co\r\n", false},
    email_case{"\na@b.co", false},
    email_case{" a@b.co", false},  // no trimming
    email_case{"a@b.co ", false},
    email_case{"a@b.co\0"sv, false},  // embedded NUL
    email_case{"a\0@b.co"sv, false},
    email_case{"\xc3\xa9@b.co", false},  // non-ASCII (UTF-8 e-acute)
    email_case{"a@b.c\xc3\xb6", false},
    email_case{"a@\x80.co", false},
};

constexpr bool all_email_cases_hold() {
    for (const auto& c : email_cases) {
        if (rx::is_general_email(c.input) != c.valid) return false;
        if (rx::is_update_recipient_email(c.input) != c.valid) return false;
    }
    return true;
}
static_assert(all_email_cases_hold());

static_assert(rx::is_general_email("john.doe@example.com"));
static_assert(rx::is_update_recipient_email("john.doe@example.com"));
static_assert(!rx::is_general_email("a..b@example.com"));
static_assert(!rx::is_update_recipient_email("a..b@example.com"));
static_assert(!rx::is_general_email("a@b.co\n"));
static_assert(!rx::is_update_recipient_email("a@b.co\n"));

static_assert(rx::general_email_pattern ==
              R"(^([A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$)");
static_assert(rx::update_recipient_email_pattern ==
              R"(^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$)");

// The spec's claim, proved: a breadth-first search of the product of the two
// DFAs finds no input that one accepts and the other refuses.
constexpr auto email_forms_difference =
    rx::detail::first_difference(rx::general_email::automaton(), rx::update_recipient_email::automaton());
static_assert(!email_forms_difference.found, "the two e-mail forms accept different strings");

// ---------------------------------------------------------------------------
// The facility on other patterns, at compile time.

static_assert(rx::compiled<"^a{2,3}$">::match("aa"));
static_assert(rx::compiled<"^a{2,3}$">::match("aaa"));
static_assert(!rx::compiled<"^a{2,3}$">::match("a"));
static_assert(!rx::compiled<"^a{2,3}$">::match("aaaa"));
static_assert(rx::compiled<"a{2}">::match("aa"));  // anchors are optional: always whole input
static_assert(!rx::compiled<"a{2}">::match("aaa"));
static_assert(rx::compiled<"a{0}">::match(""));
static_assert(rx::compiled<"^(cat|dog)s?$">::match("dogs"));
static_assert(!rx::compiled<"^(cat|dog)s?$">::match("cats!"));
static_assert(rx::compiled<"[^a-c]">::match("d"));
static_assert(!rx::compiled<"[^a-c]">::match("b"));
static_assert(rx::compiled<".">::match("\x80"));
static_assert(rx::compiled<".">::match("\0"sv));
static_assert(!rx::compiled<".">::match("\n"));
static_assert(!rx::compiled<".">::match("\r"));
static_assert(rx::compiled<"[]a|[^]b">::match("\nb"));  // ECMAScript: [] nothing, [^] anything
static_assert(!rx::compiled<"[]a|[^]b">::match("a"));
static_assert(rx::compiled<R"(\d+\.\d*)">::match("12."));
static_assert(rx::compiled<R"(\x41\t[\b])">::match("A\t\b"));
static_assert(rx::compiled<"a\0b">::match("a\0b"sv));         // a NUL in the pattern is a literal byte
static_assert(rx::compiled<"^(?!)a$">::match("a") == false);  // (?!) refuses everything
static_assert(rx::compiled<"">::match(""));
static_assert(!rx::compiled<"">::match("x"));
static_assert(rx::matches<"^[0-9]+$">("2024"));
static_assert(!rx::matches<"^[0-9]+$">("20x4"));
static_assert(rx::compiled<"^x+$">::pattern() == "^x+$");

static_assert(rx::compiled<"^[a-z]{1,64}$">::match(
    std::string_view("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl")));
static_assert(!rx::compiled<"^[a-z]{1,64}$">::match(
    std::string_view("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm")));
static_assert(rx::compiled<"^[a-z]{1,64}$">::automaton().state_count == 66);  // dead + start + 64

// "The 8th byte from the end is an a" needs 2^8 live states, more than
// default_max_states allows: the bound is raised explicitly.
using eighth_from_end = rx::compiled<"^[ab]*a[ab]{7}$", 512>;
static_assert(eighth_from_end::automaton().state_count == 258);  // + start + dead (not minimized)
static_assert(eighth_from_end::match("abbbbbbb"));
static_assert(eighth_from_end::match("babbbbbbb"));
static_assert(!eighth_from_end::match("abbbbbbbb"));

// Small tables: the byte classes keep the columns few.
static_assert(rx::general_email::automaton().class_count <= 10);
static_assert(rx::general_email::automaton().state_count <= 16);
static_assert(rx::update_recipient_email::automaton().state_count <= 16);

// ---------------------------------------------------------------------------
// Input generation (deterministic: splitmix64 with fixed seeds).

class random_source {
public:
    explicit random_source(std::uint64_t seed) noexcept : state_(seed) {}

    std::uint64_t next() noexcept {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15U);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9U;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebU;
        return z ^ (z >> 31);
    }

    std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }
    bool percent(unsigned p) noexcept { return below(100) < p; }
    char pick(std::string_view alphabet) noexcept { return alphabet[below(alphabet.size())]; }

    std::string text(std::string_view alphabet, std::size_t max_length) {
        std::string s(below(max_length + 1), '\0');
        for (auto& c : s) c = pick(alphabet);
        return s;
    }

private:
    std::uint64_t state_;
};

// Repeated letters weigh the draw.
constexpr auto email_alphabet = "aaaZZ00_'+-...@@\n"sv;
constexpr auto local_chars = "aabZ09_'+-"sv;
constexpr auto label_chars = "aabZ09--"sv;
constexpr auto noise_chars = "aZ0_'+-.@\n\r \x80\xff\0"sv;

std::string random_address(random_source& r) {
    std::string s;
    const std::size_t atoms = 1 + r.below(3);
    for (std::size_t i = 0; i < atoms; ++i) {
        if (i != 0) s += '.';
        // Rarely empty: a double or an edge dot.
        s += r.percent(92) ? r.text(local_chars, 4) + r.pick(local_chars) : std::string();
    }
    s += '@';
    const std::size_t labels = 1 + r.below(3);
    for (std::size_t i = 0; i < labels; ++i) {
        s += r.pick("abcdZ0-"sv);  // sometimes a hyphen-led label
        s += r.text(label_chars, 4);
        s += '.';
    }
    // The TLD: usually 2-4 letters, sometimes too short or with a digit.
    s += r.percent(85) ? std::string{r.pick("abZ"sv), r.pick("abZ"sv)} + r.text("abcZ"sv, 2) : r.text("aZ0"sv, 3);
    return s;
}

void mutate(random_source& r, std::string& s) {
    const std::size_t at = r.below(s.size() + 1);
    switch (r.below(7)) {
        case 0:
            s.insert(at, 1, r.pick(noise_chars));
            break;
        case 1:
            if (at < s.size()) s.erase(at, 1);
            break;
        case 2:
            if (at < s.size()) s[at] = r.pick(noise_chars);
            break;
        case 3:
            s.insert(at, "..");
            break;
        case 4:
            s.insert(0, ".");
            break;
        case 5:
            s += r.percent(50) ? "\n" : "'";
            break;
        default:
            if (at < s.size()) s.insert(at, 1, s[at]);
            break;  // doubles a character
    }
}

std::vector<std::string> email_inputs(std::size_t count) {
    constexpr std::array seeds{
        "john.doe@example.com"sv,
        "o'neil+news@mail.example.co"sv,
        "a@b.co"sv,
        "x_y-z@sub-domain.example.org"sv,
        "1@2.io"sv,
    };
    random_source r(20240601);
    std::vector<std::string> inputs;
    inputs.reserve(count);
    while (inputs.size() < count) {
        const std::size_t kind = r.below(10);
        std::string s;
        if (kind < 3) {
            s = r.text(email_alphabet, 16);
        } else if (kind < 7) {
            s = random_address(r);
            if (r.percent(30)) mutate(r, s);
        } else {
            s = std::string(seeds[r.below(seeds.size())]);
            for (std::size_t m = 1 + r.below(3); m != 0; --m) mutate(r, s);
        }
        inputs.push_back(std::move(s));
    }
    return inputs;
}

// "a\n" -> "a\x0a", for failure messages.
std::string printable(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7f && c != '\\' && c != '"') {
            out += c;
        } else {
            constexpr auto hex = "0123456789abcdef"sv;
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 15];
        }
    }
    return out + "\"";
}

std::regex reference(std::string_view pattern) {
    return std::regex(pattern.begin(), pattern.end(), std::regex::ECMAScript);
}

bool reference_match(std::string_view s, const std::regex& re) { return std::regex_match(s.begin(), s.end(), re); }

// Runs compiled<Pattern> and std::regex on 20000 random strings over
// `alphabet` of up to `max_length` bytes: they must agree on every one, and
// the strings must include both matches and non-matches.
template <rx::fixed_string Pattern>
void check_against_std_regex(std::string_view alphabet, std::size_t max_length, std::uint64_t seed) {
    constexpr std::size_t count = 20000;
    const std::regex re = reference(Pattern.view());
    random_source r(seed);
    std::size_t accepted = 0;
    std::vector<std::string> bad;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string s = r.text(alphabet, max_length);
        const bool ours = rx::compiled<Pattern>::match(s);
        accepted += ours ? 1 : 0;
        if (ours != reference_match(s, re)) bad.push_back(printable(s));
    }
    INFO("pattern " << Pattern.view() << ", accepted " << accepted << " of " << count);
    INFO("disagreements " << bad.size() << ", first: " << (bad.empty() ? "-" : bad.front()));
    CHECK(bad.empty());
    CHECK(accepted > 0);
    CHECK(accepted < count);
}

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("regex: e-mail edge cases at run time and in std regex", "[regex][email]") {
    const std::regex general = reference(rx::general_email_pattern);
    const std::regex update = reference(rx::update_recipient_email_pattern);
    for (const auto& c : email_cases) {
        INFO("input " << printable(c.input));
        CHECK(rx::is_general_email(c.input) == c.valid);
        CHECK(rx::is_update_recipient_email(c.input) == c.valid);
        CHECK(reference_match(c.input, general) == c.valid);
        CHECK(reference_match(c.input, update) == c.valid);
    }
}

TEST_CASE("regex: e-mail matchers agree with std regex and each other on generated inputs", "[regex][email]") {
    // The two std::regex runs per input dominate the time (about 2 s at -O0).
    const std::vector<std::string> inputs = email_inputs(200000);
    const std::regex general = reference(rx::general_email_pattern);
    const std::regex update = reference(rx::update_recipient_email_pattern);

    std::size_t accepted = 0;
    std::vector<std::string> general_bad, update_bad, forms_differ;
    for (const auto& s : inputs) {
        const bool g = rx::is_general_email(s);
        const bool u = rx::is_update_recipient_email(s);
        accepted += g ? 1 : 0;
        if (g != reference_match(s, general)) general_bad.push_back(printable(s));
        if (u != reference_match(s, update)) update_bad.push_back(printable(s));
        if (g != u) forms_differ.push_back(printable(s));
    }

    INFO("accepted " << accepted << " of " << inputs.size());
    CHECK(accepted > inputs.size() / 10);  // the set exercises both verdicts
    CHECK(accepted < inputs.size() / 2);
    INFO("general vs std::regex, first: " << (general_bad.empty() ? "-" : general_bad.front()));
    CHECK(general_bad.empty());
    INFO("update-recipient vs std::regex, first: " << (update_bad.empty() ? "-" : update_bad.front()));
    CHECK(update_bad.empty());
    INFO("general vs update-recipient, first: " << (forms_differ.empty() ? "-" : forms_differ.front()));
    CHECK(forms_differ.empty());
}

TEST_CASE("regex: the two e-mail forms are equivalent", "[regex][email]") {
    // Same search as the static_assert above, at run time, with a message.
    const auto d =
        rx::detail::first_difference(rx::general_email::automaton(), rx::update_recipient_email::automaton());
    INFO("shortest disagreement: " << printable(d.input()));
    CHECK_FALSE(d.found);
}

TEST_CASE("regex: first_difference finds a shortest distinguishing input", "[regex]") {
    constexpr auto d =
        rx::detail::first_difference(rx::compiled<"^a*b$">::automaton(), rx::compiled<"^a*b?$">::automaton());
    STATIC_REQUIRE(d.found);
    STATIC_REQUIRE(d.input() == "");

    constexpr auto e = rx::detail::first_difference(rx::compiled<"^(a|b)*abb$">::automaton(),
                                                    rx::compiled<"^[ab]*a[b]{2}$">::automaton());
    STATIC_REQUIRE_FALSE(e.found);

    constexpr auto f = rx::detail::first_difference(rx::compiled<"^[ab]*a[ab]$">::automaton(),
                                                    rx::compiled<"^[ab]*a[ab]|b{3}$">::automaton());
    STATIC_REQUIRE(f.input() == "bbb");
}

TEST_CASE("regex: generic patterns agree with std regex", "[regex]") {
    SECTION("alternation and groups") { check_against_std_regex<"^(ab|a)(c|bcd)(d*)$">("abcd"sv, 8, 1); }
    SECTION("counted repetition, no anchors") {
        check_against_std_regex<"a{2,4}b{3}c{1,}|(?:ab){0,2}">("abc"sv, 10, 2);
    }
    SECTION("counted repetition of groups") {
        check_against_std_regex<"^(ab|c){2,3}d?$">("abcd"sv, 8, 9);
        check_against_std_regex<R"(^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$)">(
            "01259...."sv, 12, 10);
    }
    SECTION("negated classes and dot") {
        check_against_std_regex<R"(^[^a-c\d]x.?(?:y|z){0,2}$)">("abcxyz09\n\r.#\x80\0"sv, 6, 3);
    }
    SECTION("leading negative lookaheads") {
        check_against_std_regex<R"(^(?!ab)(?!.*cc)(?!d)[a-d.\n]*$)">("abcd.\n\r"sv, 8, 4);
    }
    SECTION("hex colour") { check_against_std_regex<"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$">("#0aFg"sv, 8, 5); }
    SECTION("class escapes") { check_against_std_regex<R"(\w+\s?\d{1,3}|[^\w\s]*|\S\D\W)">("a_0 \t\n-.\x80"sv, 6, 6); }
    SECTION("nullable loops and lazy quantifiers") { check_against_std_regex<"(?:x|y|)*z?(x+?y?)*?">("xyz"sv, 8, 7); }
    SECTION("escaped metacharacters") {
        check_against_std_regex<R"((?:\x41|\.|\\|[\-\]]|\(|\)|\*|\+|\?|\{|\}|\||\^|\$|\/)+)">("A.\\-]()*+?{}|^$/x"sv, 5,
                                                                                              8);
    }
}

// Every way dfa::match may take (detail/dfa.hpp) gives the plain walk's verdict on the inputs
// made from `base`: base itself and base with each position replaced by a byte of each class
// (all bytes of a class have the same row: checked below). Counts the verdicts in accepted /
// refused.
template <class Automaton>
void check_ways_agree(const Automaton& a, std::string base, std::size_t& accepted, std::size_t& refused) {
    auto check = [&](std::string_view s) {
        const bool expected = a.match_bytewise(s);
        (expected ? accepted : refused) += 1;
        const bool runs = a.match_runs(s);
        const bool dispatched = a.match(s);
        bool shuffled = expected;
        if constexpr (Automaton::shuffles) {
            if (rx::detail::shuffles_available()) shuffled = a.match_by_shuffles(s);
        }
        if (runs != expected || dispatched != expected || shuffled != expected) {
            INFO("input " << printable(s) << ", plain walk " << expected << ", runs " << runs << ", match "
                          << dispatched << ", shuffles " << shuffled);
            CHECK(false);
        }
    };
    std::array<bool, Automaton::class_count> seen{};
    std::vector<char> bytes;  // the first byte of each class
    for (unsigned byte = 0; byte < 256; ++byte) {
        if (!seen[a.class_of[byte]]) bytes.push_back(static_cast<char>(byte));
        seen[a.class_of[byte]] = true;
    }
    check(base);
    for (std::size_t i = 0; i < base.size(); ++i) {
        const char kept = base[i];
        for (const char byte : bytes) {
            base[i] = byte;
            check(base);
        }
        base[i] = kept;
    }
}

// The byte shuffles' row of every byte holds the table's steps from every state.
template <class Automaton>
bool shuffle_rows_hold(const Automaton& a) {
    for (unsigned byte = 0; byte < 256; ++byte)
        for (std::size_t s = 0; s < Automaton::state_count; ++s)
            if (a.shuffle_rows.next[byte][s] !=
                a.step(static_cast<typename Automaton::state_type>(s), static_cast<unsigned char>(byte)))
                return false;
    for (std::size_t s = 0; s < rx::detail::shuffle_max_states; ++s)
        if (a.shuffle_rows.next[rx::detail::identity_row][s] != s) return false;
    return true;
}

// `length` bytes of `cycle` repeated, the last one replaced by `last`.
std::string repeat(std::string_view cycle, std::size_t length, char last) {
    std::string s;
    for (std::size_t i = 0; i < length; ++i) s += cycle[i % cycle.size()];
    if (length != 0) s.back() = last;
    return s;
}

TEST_CASE("regex: byte shuffles, runs and the plain walk agree at every length and position", "[regex][email]") {
    // The byte shuffles read a first window of n % 16 bytes (the identity row in its other lanes),
    // then blocks of 16, and look for the dead state once a block past 64 bytes: every length up
    // to 3 blocks, lengths around 64, 80, 96 and 128, each with a byte of every class (refused
    // ones and others) at each position.
    static_assert(rx::general_email::automaton().shuffles && rx::update_recipient_email::automaton().shuffles);
    using hex = rx::compiled<"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$">;
    static_assert(hex::automaton().shuffles);
    CHECK(shuffle_rows_hold(rx::general_email::automaton()));
    CHECK(shuffle_rows_hold(rx::update_recipient_email::automaton()));
    CHECK(shuffle_rows_hold(hex::automaton()));
#if defined(ESIGN_REGEX_SHUFFLES)
    if (!rx::detail::shuffles_available()) WARN("no SSSE3 here: the byte shuffles are not tested");
#endif
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 49; ++n) lengths.push_back(n);
    for (const std::size_t n : {63, 64, 65, 79, 80, 81, 95, 96, 97, 127, 128, 129}) lengths.push_back(n);

    std::size_t accepted = 0, refused = 0;
    for (const std::size_t n : lengths) {
        INFO("length " << n);
        // A long local part, then a long domain ("a@" ... ".co"); both accepted from 6 bytes on.
        const std::string local = n >= 6 ? repeat("ab.c-d_e+f'g", n - 5, 'z') + "@b.co" : std::string(n, 'a');
        const std::string domain = n >= 6 ? "a@" + repeat("bc-d.e1", n - 5, 'z') + ".co" : std::string(n, 'a');
        for (const auto& base : {local, domain}) {
            check_ways_agree(rx::general_email::automaton(), base, accepted, refused);
            check_ways_agree(rx::update_recipient_email::automaton(), base, accepted, refused);
        }
        check_ways_agree(hex::automaton(), repeat("#a1b2c3", n, 'f'), accepted, refused);
    }
    CHECK(rx::is_general_email(repeat("ab.c-d_e+f'g", 92, 'z') + "@b.co"));
    CHECK(accepted > 10000);  // both verdicts, many times
    CHECK(refused > 10000);
}

TEST_CASE("regex: run-time matching is linear on long inputs", "[regex]") {
    // A pattern that makes backtracking engines explode: (a|a)*b on "aaa...".
    std::string long_input(100000, 'a');
    CHECK_FALSE(rx::compiled<"^(a|a)*b$">::match(long_input));
    long_input += 'b';
    CHECK(rx::compiled<"^(a|a)*b$">::match(long_input));

    std::string local(5000, 'x');
    CHECK(rx::is_update_recipient_email(local + "@example.com"));
    CHECK_FALSE(rx::is_update_recipient_email(local + "..x@example.com"));
}

}  // namespace test_regex
