// SPDX-License-Identifier: BSL-1.0
#pragma once
// Identifiers and tokens. Seeded: reproducible, for tests that want fixed ids. Unseeded: tokens
// (url_safe: keys, iframe tokens) are drawn from the operating system's secure source every
// time (getrandom(2) on Linux, else std::random_device); identifiers and probability draws
// from a stream seeded from it once per source, since the device costs about half a
// microsecond a word here and every response carries a new request id. A stream's state can be
// worked out from enough of its outputs, which identifiers show; so no secret is drawn from it.
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sys/random.h>
#include <sys/types.h>
#endif

namespace esign::reference {

// The lowercase RFC 4122 version 4 UUID of 16 random bytes (the version and variant bits set).
// Written into a fixed buffer: appending to a reserved std::string draws false
// -Wstringop-overflow warnings from g++ 12 at -O2.
inline std::string uuid_v4(std::array<std::uint8_t, 16> b) {
    b[6] = static_cast<std::uint8_t>((b[6] & 0x0F) | 0x40);
    b[8] = static_cast<std::uint8_t>((b[8] & 0x3F) | 0x80);
    static constexpr char hex[] = "0123456789abcdef";
    std::array<char, 36> text{};
    std::size_t at = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) text[at++] = '-';
        text[at++] = hex[b[i] >> 4];
        text[at++] = hex[b[i] & 0x0F];
    }
    return std::string(text.data(), text.size());
}

class id_source {
public:
    explicit id_source(std::optional<std::uint64_t> seed = std::nullopt) { reseed(seed); }

    void reseed(std::optional<std::uint64_t> seed) {
        std::lock_guard lock(mutex_);
        seeded_ = seed.has_value();
        if (seed) engine_.seed(*seed);
    }

    // Where a seeded stream stands, to come back to it (a team's reset restarts its stream at
    // the position right after the team was made).
    struct position {
        bool seeded = false;
        std::mt19937_64 engine;
    };
    position tell() const {
        std::lock_guard lock(mutex_);
        return position{seeded_, engine_};
    }
    void seek(const position& p) {
        std::lock_guard lock(mutex_);
        seeded_ = p.seeded;
        engine_ = p.engine;
    }

    // A seeded stream's state as text (a team's snapshot), or nullopt when unseeded; load puts
    // it back (can_load first: load ignores text that is not such a state).
    std::optional<std::string> save() const {
        std::lock_guard lock(mutex_);
        if (!seeded_) return std::nullopt;
        std::ostringstream out;
        out << engine_;
        return out.str();
    }
    static bool can_load(const std::string& text) { return parse(text).has_value(); }
    void load(const std::string& text) {
        auto engine = parse(text);
        if (!engine) return;
        std::lock_guard lock(mutex_);
        seeded_ = true;
        engine_ = *engine;
    }

    // A lowercase RFC 4122 version 4 UUID.
    std::string uuid() { return uuid_v4(bytes<16>(drawn::identifier)); }

    // A number in [0, 1), of 53 random bits (a fault rule's probability draw).
    double unit() {
        const auto b = bytes<8>(drawn::identifier);
        std::uint64_t word = 0;
        for (auto byte : b) word = (word << 8) | byte;
        return static_cast<double>(word >> 11) * 0x1.0p-53;
    }

    // `length` random URL-safe characters (A-Z a-z 0-9 - _), 6 bits each.
    std::string url_safe(std::size_t length) {
        static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        std::string s(length, '\0');
        for (std::size_t at = 0; at < length;) {
            const auto put = [&](const auto& drawn_bytes) {
                for (auto byte : drawn_bytes)
                    if (at < length) s[at++] = alphabet[byte & 0x3F];
            };
            // A seeded stream draws 8 bytes at a time, as it always has (its keys stay the same).
            // (256 bytes: what one getrandom(2) gives whole, never interrupted by a signal.)
            if (length - at >= 256 && !is_seeded())
                put(bytes<256>(drawn::secret));
            else if (length - at >= 32 && !is_seeded())
                put(bytes<32>(drawn::secret));
            else
                put(bytes<8>(drawn::secret));
        }
        return s;
    }

private:
    bool is_seeded() const {
        std::lock_guard lock(mutex_);
        return seeded_;
    }

    static std::optional<std::mt19937_64> parse(const std::string& text) {
        if (text.size() > std::size_t{20} * 400) return std::nullopt;  // 312 words and a position, in decimal
        std::istringstream in(text);
        std::mt19937_64 engine;
        in >> engine;
        if (in.fail()) return std::nullopt;
        in >> std::ws;
        if (!in.eof()) return std::nullopt;
        return engine;
    }

    enum class drawn { identifier, secret };

    // N random bytes, from 32-bit words of the seeded stream, or unseeded of the device (a secret)
    // or of the stream seeded from it (an identifier).
    template <std::size_t N>
    std::array<std::uint8_t, N> bytes(drawn what) {
        static_assert(N % 4 == 0, "whole words");
        std::array<std::uint8_t, N> out{};
        std::lock_guard lock(mutex_);
#if defined(__linux__)
        // One getrandom(2) for all N bytes: std::random_device reads 4 bytes a call, each a system
        // call here (8 per 32-character token). Its own source, so the device's answer.
        if (!seeded_ && what == drawn::secret && ::getrandom(out.data(), N, 0) == static_cast<ssize_t>(N)) return out;
#endif
        for (std::size_t word = 0; word < N / 4; ++word) {
            const std::uint32_t w = seeded_                 ? static_cast<std::uint32_t>(engine_())
                                    : what == drawn::secret ? device_()
                                                            : static_cast<std::uint32_t>(unseeded_());
            for (std::size_t j = 0; j < 4; ++j) out[4 * word + j] = static_cast<std::uint8_t>(w >> (8 * j));
        }
        return out;
    }

    static std::mt19937_64 seeded_from(std::random_device& device) {
        std::seed_seq seeds{device(), device(), device(), device(), device(), device(), device(), device()};
        return std::mt19937_64(seeds);
    }

    mutable std::mutex mutex_;
    bool seeded_ = false;
    std::mt19937_64 engine_;
    std::random_device device_;
    std::mt19937_64 unseeded_ = seeded_from(device_);
};

}  // namespace esign::reference
