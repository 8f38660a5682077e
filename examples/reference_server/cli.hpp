// SPDX-License-Identifier: BSL-1.0
#pragma once
// The command line of esign-reference-server (contract.md §5).
//
//   esign-reference-server [--listen HOST:PORT] [--threads N] [--strict] [--public-webhooks-only]
//                          [--fixture FILE] [--max-body BYTES] [--seed N] [--webhook-threads N]
//                          [--control-token-file FILE | --control-token TOKEN] [--no-control]
//                          [--max-connections N] [--max-teams N]
//                          [--journal-size N] [--self-check] [--documentation-url BASE]
//                          [--public-url BASE] [--state-file FILE [--save-interval SECONDS]]
//                          [--header-timeout MS] [--body-timeout MS] [--write-timeout MS]
//                          [--tls-cert FILE --tls-key FILE] [--verbose] [--help]
//
// Options take their value as the next argument or after '=' (`--threads=4`). A bad command line
// is reported on stderr with the usage, exit status 2 (see main.cpp).
//
// The operator's token comes from one of --control-token-file, the environment variable
// ESIGN_CONTROL_TOKEN or --control-token (contract.md §6.9); control_token_of() picks it, once
// the command line is parsed.
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <esign/types/absolute_uri.hpp>

namespace esign::server {

inline constexpr std::string_view usage_text =
    "usage: esign-reference-server [options]\n"
    "\n"
    "The esign reference server: the whole API in memory, over HTTP/1.1.\n"
    "\n"
    "options:\n"
    "  --listen HOST:PORT       address to listen on (default 127.0.0.1:8080; port 0 picks a free\n"
    "                           port; IPv6 as [::1]:8080). The first line on stdout is\n"
    "                           'listening on http://HOST:PORT' once the server accepts connections.\n"
    "  --threads N              HTTP worker threads (default: the number of hardware threads)\n"
    "  --strict                 report unknown request members as INVALID_REQUEST_FORMAT\n"
    "  --public-webhooks-only   refuse webhook targets on loopback and private networks\n"
    "  --fixture FILE           load teams, workspaces, envelopes... from a JSON file at start\n"
    "                           and on /_control/reset\n"
    "  --max-body BYTES         largest request body accepted (default 1048576); larger is 413\n"
    "  --seed N                 reproducible identifiers: a team made without its own seed gets\n"
    "                           one derived from N (API keys and secrets never come from a seed)\n"
    "  --webhook-threads N      webhook delivery threads (default 2)\n"
    "  --control-token-file FILE\n"
    "                           the operator's token is FILE's content (one trailing newline\n"
    "                           removed): server-wide control operations (/_control/reset,\n"
    "                           team/create, and the others called without a team key) then need\n"
    "                           'Authorization: Bearer TOKEN'; team-scoped ones take the team's key.\n"
    "                           The token may instead come from the environment variable\n"
    "                           ESIGN_CONTROL_TOKEN, or from --control-token; give one of the three\n"
    "  --control-token TOKEN    the same, on the command line (where other local users can read it)\n"
    "  --no-control             no /_control/ path exists (a validating fake only)\n"
    "  --max-connections N      connections open at once (default 1024); a new one closes the\n"
    "                           longest-idle one, and waits in the backlog while none is idle\n"
    "  --max-teams N            teams at once, the fixture's included (default 10000); beyond,\n"
    "                           /_control/team/create answers 429 TEAM_LIMIT_REACHED until a\n"
    "                           /_control/reset\n"
    "  --header-timeout MS      time to receive a request header, waiting for it on an idle\n"
    "                           connection included (default 30000); then the connection closes\n"
    "  --body-timeout MS        time to receive a request body (default 60000); then it closes\n"
    "  --write-timeout MS       time to send an answer (default 30000); then it closes\n"
    "  --journal-size N         public requests each team's journal keeps (/_control/journal/list;\n"
    "                           default 1000, 0 turns it off)\n"
    "  --self-check             judge every response against its type before sending it (as a\n"
    "                           client's esign::json::read would); one that breaks it is logged\n"
    "                           on stderr and answered with 500 INTERNAL_SERVER_ERROR instead.\n"
    "                           Also on when the environment has ESIGN_SELF_CHECK=1 (for test\n"
    "                           suites that start the server themselves)\n"
    "  --documentation-url BASE error.documentationUrl of an error body is BASE followed by the\n"
    "                           code (default https://esign.example/docs/errors#)\n"
    "  --public-url BASE        the base of the URLs the server writes: an e-mail's signingUrl is\n"
    "                           BASE/embeds/sign#t=... (an http or https URL; default: the\n"
    "                           listening address, http://HOST:PORT with the port bound)\n"
    "  --tls-cert FILE          HTTPS only (TLS 1.2 or later) with this PEM certificate (the server's\n"
    "                           first, then its chain); needs --tls-key. The first line then says\n"
    "                           'listening on https://HOST:PORT', and written URLs use https\n"
    "  --tls-key FILE           the certificate's PEM private key (not passphrase-protected)\n"
    "  --state-file FILE        keep the teams across restarts (contract.md 7.3): at start, load\n"
    "                           every team from FILE when it exists (its keys, uuids, clocks,\n"
    "                           records and queued webhook deliveries; not journals or fault\n"
    "                           rules), in place of the fixture's teams; on SIGINT or SIGTERM,\n"
    "                           write every team to FILE atomically (FILE.tmp in the same folder,\n"
    "                           flushed, renamed over FILE; mode 0600: it holds the teams' keys).\n"
    "                           A malformed FILE, or a folder that is missing or not writable,\n"
    "                           stops the start (FILE is left as it is)\n"
    "  --save-interval SECONDS  with --state-file: also write FILE every SECONDS (1 to 86400)\n"
    "  --verbose                one line per request on stderr\n"
    "  --help                   this text\n"
    "\n"
    "SIGINT or SIGTERM stop the server cleanly (exit status 0). Exit status 2: bad command line,\n"
    "unreadable or refused fixture or state file, a state file's folder missing or not writable,\n"
    "no usable control token (unreadable or empty file, more than one source), an unreadable or\n"
    "mismatching --tls-cert/--tls-key, or an address that cannot be listened on. Exit status 1:\n"
    "the state file could not be written at the stop.\n";

struct listen_address {
    std::string host = "127.0.0.1";  // without brackets for IPv6
    std::uint16_t port = 8080;
};

struct command_line {
    listen_address listen;
    unsigned threads = 0;  // 0: hardware_concurrency
    bool strict = false;
    bool public_webhooks_only = false;
    std::optional<std::string> fixture_file;
    std::size_t max_body = 1 << 20;
    std::optional<std::uint64_t> seed;
    unsigned webhook_threads = 2;
    std::optional<std::string> control_token;       // --control-token
    std::optional<std::string> control_token_file;  // --control-token-file
    bool no_control = false;
    std::size_t max_connections = 1024;
    std::size_t max_teams = 10'000;
    std::size_t journal_size = 1000;
    std::chrono::milliseconds header_timeout{30'000};
    std::chrono::milliseconds body_timeout{60'000};
    std::chrono::milliseconds write_timeout{30'000};
    bool self_check = false;
    std::optional<std::string> documentation_base;
    std::optional<std::string> public_url;  // --public-url (contract.md §7.1)
    std::optional<std::string> tls_cert;    // --tls-cert, --tls-key: both or neither (contract.md §7.4)
    std::optional<std::string> tls_key;
    // --state-file, --save-interval (contract.md §7.3; examples/reference_server/state_file.hpp)
    std::optional<std::string> state_file;
    std::optional<unsigned> save_interval;  // seconds
    bool verbose = false;
    bool help = false;

    unsigned effective_threads() const {
        if (threads != 0) return threads;
        const unsigned hw = std::thread::hardware_concurrency();
        return hw == 0 ? 1 : hw;
    }
};

// A parse failure: what was wrong, for the message on stderr.
struct command_line_error {
    std::string message;
};

namespace detail {

template <class Int>
std::optional<Int> parse_unsigned(std::string_view text, Int min, Int max) {
    if (text.empty() || text.size() > 20) return std::nullopt;
    for (char c : text)
        if (c < '0' || c > '9') return std::nullopt;  // no sign, no spaces, no hex
    Int value{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max) return std::nullopt;
    return value;
}

}  // namespace detail

// "HOST:PORT", "[V6]:PORT". The host is not resolved here.
inline std::optional<listen_address> parse_listen_address(std::string_view text) {
    listen_address out;
    std::string_view port_text;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close == 1) return std::nullopt;
        out.host = std::string(text.substr(1, close - 1));
        if (close + 1 >= text.size() || text[close + 1] != ':') return std::nullopt;
        port_text = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos || colon == 0) return std::nullopt;
        out.host = std::string(text.substr(0, colon));
        if (out.host.find(':') != std::string::npos) return std::nullopt;  // IPv6 needs brackets
        port_text = text.substr(colon + 1);
    }
    for (char c : out.host)
        if (c <= ' ' || c == '/' || c == '[' || c == ']' || c == 0x7f) return std::nullopt;
    auto port = detail::parse_unsigned<std::uint32_t>(port_text, 0, 65535);
    if (!port) return std::nullopt;
    out.port = static_cast<std::uint16_t>(*port);
    return out;
}

// The value of the environment variable ESIGN_SELF_CHECK (nullptr: not set): any but "" and "0"
// turns --self-check on, for the test suites that start the server with a command line of their
// own.
inline bool self_check_from_environment(const char* value) {
    return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

// What a control token may be: what a client can send after "Bearer " (no spaces or control
// characters) and not mistaken for `<accessKey>:<secretKey>` (no ':').
inline constexpr std::string_view control_token_rule = "a non-empty token without spaces, control characters or ':'";

inline bool is_control_token(std::string_view token) {
    if (token.empty()) return false;
    for (unsigned char c : token)
        if (c <= ' ' || c == 0x7f || c == ':') return false;
    return true;
}

// A whole file's bytes; nullopt (and what failed in `error`) when it cannot be read.
inline std::optional<std::string> read_whole_file(const std::string& path, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        error = "cannot read";
        return std::nullopt;
    }
    return std::move(text).str();
}

// The operator's token (nullopt: none, anyone may make server-wide calls), from the one source
// given: --control-token-file (the file's content, one trailing newline removed), the
// environment variable ESIGN_CONTROL_TOKEN (`environment_value`, nullptr when not set; empty
// counts as not set) or --control-token. More than one, an unreadable file or a token that
// breaks the rule is an error: the server does not start.
inline std::variant<std::optional<std::string>, command_line_error> control_token_of(const command_line& cl,
                                                                                     const char* environment_value) {
    const bool from_environment = environment_value != nullptr && *environment_value != '\0';
    const int sources =
        int{cl.control_token.has_value()} + int{cl.control_token_file.has_value()} + int{from_environment};
    if (sources > 1)
        return command_line_error{
            "the control token comes from one of --control-token-file, ESIGN_CONTROL_TOKEN and --control-token; "
            "more than one was given"};
    if (cl.control_token) return cl.control_token;
    std::string token;
    std::string source;
    if (cl.control_token_file) {
        source = "--control-token-file " + *cl.control_token_file;
        std::string error;
        auto text = read_whole_file(*cl.control_token_file, error);
        if (!text) return command_line_error{source + ": " + error};
        token = std::move(*text);
        if (token.ends_with('\n')) token.pop_back();
    } else if (from_environment) {
        source = "ESIGN_CONTROL_TOKEN";
        token = environment_value;
    } else {
        return std::optional<std::string>{};
    }
    if (token.empty()) return command_line_error{source + ": the token is empty"};
    if (!is_control_token(token)) return command_line_error{source + ": " + std::string(control_token_rule)};
    return std::optional<std::string>{std::move(token)};
}

inline std::variant<command_line, command_line_error> parse_command_line(const std::vector<std::string_view>& args) {
    // The options that take no value and turn a member on.
    static constexpr std::array<std::pair<std::string_view, bool command_line::*>, 8> switches{{
        {"--help", &command_line::help},
        {"-h", &command_line::help},
        {"--strict", &command_line::strict},
        {"--public-webhooks-only", &command_line::public_webhooks_only},
        {"--no-control", &command_line::no_control},
        {"--self-check", &command_line::self_check},
        {"--verbose", &command_line::verbose},
        {"-v", &command_line::verbose},
    }};
    command_line cl;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        std::optional<std::string_view> inline_value;
        if (arg.starts_with("--")) {
            if (auto eq = arg.find('='); eq != std::string_view::npos) {
                inline_value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
            }
        }
        auto flag = [&]() -> std::optional<command_line_error> {
            if (inline_value) return command_line_error{std::string(arg) + " takes no value"};
            return std::nullopt;
        };
        auto value = [&]() -> std::optional<std::string_view> {
            if (inline_value) return inline_value;
            if (i + 1 >= args.size()) return std::nullopt;
            return args[++i];
        };
        auto missing = [&] { return command_line_error{std::string(arg) + " needs a value"}; };
        // A numeric option: its value, from `min` to `max`, into `out`; `what` ends the error
        // ("--threads: 'x' is not <what>").
        auto number = [&]<class Out, class Int>(Out& out, Int min, Int max,
                                                std::string_view what) -> std::optional<command_line_error> {
            auto v = value();
            if (!v) return missing();
            auto n = detail::parse_unsigned<Int>(*v, min, max);
            if (!n)
                return command_line_error{std::string(arg) + ": '" + std::string(*v) + "' is not " + std::string(what)};
            out = *n;
            return std::nullopt;
        };

        // An option naming a file: its value, not empty, into `out`.
        auto file_name = [&](std::optional<std::string>& out) -> std::optional<command_line_error> {
            auto v = value();
            if (!v) return missing();
            if (v->empty()) return command_line_error{std::string(arg) + ": empty file name"};
            out = std::string(*v);
            return std::nullopt;
        };

        if (const auto switched =
                std::find_if(switches.begin(), switches.end(), [&](const auto& s) { return s.first == arg; });
            switched != switches.end()) {
            if (auto e = flag()) return *e;
            cl.*(switched->second) = true;
        } else if (arg == "--control-token") {
            auto v = value();
            if (!v) return missing();
            if (!is_control_token(*v)) return command_line_error{"--control-token: " + std::string(control_token_rule)};
            cl.control_token = std::string(*v);
        } else if (arg == "--control-token-file") {
            if (auto e = file_name(cl.control_token_file)) return *e;
        } else if (arg == "--max-teams") {
            if (auto e = number(cl.max_teams, std::size_t{0}, std::size_t{1'000'000}, "a number from 0 to 1000000"))
                return *e;
        } else if (arg == "--max-connections") {
            if (auto e =
                    number(cl.max_connections, std::size_t{1}, std::size_t{1'000'000}, "a number from 1 to 1000000"))
                return *e;
        } else if (arg == "--listen") {
            auto v = value();
            if (!v) return missing();
            auto a = parse_listen_address(*v);
            if (!a) return command_line_error{"--listen: '" + std::string(*v) + "' is not HOST:PORT"};
            cl.listen = *a;
        } else if (arg == "--threads") {
            if (auto e = number(cl.threads, 1u, 1024u, "a number from 1 to 1024")) return *e;
        } else if (arg == "--webhook-threads") {
            if (auto e = number(cl.webhook_threads, 1u, 64u, "a number from 1 to 64")) return *e;
        } else if (arg == "--fixture") {
            if (auto e = file_name(cl.fixture_file)) return *e;
        } else if (arg == "--max-body") {
            // Up to 1 GiB: the body is held in memory whole.
            if (auto e = number(cl.max_body, std::size_t{0}, std::size_t{1} << 30, "a byte count up to 1073741824"))
                return *e;
        } else if (arg == "--journal-size") {
            if (auto e = number(cl.journal_size, std::size_t{0}, std::size_t{1'000'000}, "a number from 0 to 1000000"))
                return *e;
        } else if (arg == "--documentation-url") {
            auto v = value();
            if (!v) return missing();
            if (!absolute_uri::matches(*v))
                return command_line_error{"--documentation-url: an absolute URL (RFC 3986) of at most 2048 bytes"};
            cl.documentation_base = std::string(*v);
        } else if (arg == "--public-url") {
            auto v = value();
            if (!v) return missing();
            const std::string_view url = *v;
            if (!absolute_uri::matches(url) || !(url.starts_with("http://") || url.starts_with("https://")) ||
                url.find_first_of("?#") != std::string_view::npos)
                return command_line_error{
                    "--public-url: an absolute http or https URL (RFC 3986) of at most 2048 bytes, without query or "
                    "fragment"};
            cl.public_url = std::string(url);
        } else if (arg == "--header-timeout" || arg == "--body-timeout" || arg == "--write-timeout") {
            auto& timeout = arg == "--header-timeout" ? cl.header_timeout
                            : arg == "--body-timeout" ? cl.body_timeout
                                                      : cl.write_timeout;
            std::int64_t ms = 0;
            if (auto e = number(ms, std::int64_t{1}, std::int64_t{3'600'000}, "milliseconds from 1 to 3600000"))
                return *e;
            timeout = std::chrono::milliseconds(ms);
        } else if (arg == "--tls-cert" || arg == "--tls-key") {  // HTTPS (tls.hpp)
            if (auto e = file_name(arg == "--tls-cert" ? cl.tls_cert : cl.tls_key)) return *e;
        } else if (arg == "--seed") {
            if (auto e = number(cl.seed, std::uint64_t{0}, std::uint64_t{UINT64_MAX}, "an unsigned 64-bit number"))
                return *e;
        } else if (arg == "--state-file") {
            if (auto e = file_name(cl.state_file)) return *e;
        } else if (arg == "--save-interval") {
            if (auto e = number(cl.save_interval, 1u, 86'400u, "seconds from 1 to 86400")) return *e;
        } else {
            return command_line_error{"unknown argument '" + std::string(args[i]) + "'"};
        }
    }
    if (cl.tls_cert.has_value() != cl.tls_key.has_value())
        return command_line_error{"--tls-cert and --tls-key go together: give both or neither"};
    if (cl.save_interval && !cl.state_file) return command_line_error{"--save-interval needs --state-file"};
    return cl;
}

}  // namespace esign::server
