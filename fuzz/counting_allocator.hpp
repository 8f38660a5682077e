// SPDX-License-Identifier: BSL-1.0
#pragma once
// A counting allocator for the memory bound of contract.md §6.7 (a request takes less than
// 32 times its body size plus 1 MiB): it replaces the global operator new and delete of the
// program that includes it, so include it in exactly one translation unit of a program of
// its own (fuzz/fuzz_decode.cpp, tests/memory/decode_memory_bound.cpp).
//
//   esign_memory::measure m;        // counts from here
//   ... decode ...
//   m.peak()                        // the most bytes live at once since `m` began
//
// Bytes are those asked of operator new (no allocator overhead), counted on every thread;
// bytes freed that were allocated before the measure began count as freed (the peak is
// measured from the live bytes at the start, so it is never below 0).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace esign_memory {

inline std::atomic<std::int64_t> live{0};  // bytes allocated by operator new and not yet freed
inline std::atomic<std::int64_t> peak_live{0};

namespace detail {
struct header {
    std::size_t size;
    void* raw;  // what malloc gave
};

inline void* allocate(std::size_t n, std::size_t align, bool nothrow) {
    if (align < alignof(std::max_align_t)) align = alignof(std::max_align_t);
    void* raw = std::malloc(n + align + sizeof(header));
    if (!raw) {
        if (nothrow) return nullptr;
        throw std::bad_alloc();
    }
    const auto base = reinterpret_cast<std::uintptr_t>(raw) + sizeof(header);
    const auto p = (base + align - 1) & ~(std::uintptr_t(align) - 1);
    auto* h = reinterpret_cast<header*>(p) - 1;
    h->size = n;
    h->raw = raw;
    const std::int64_t now =
        live.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed) + static_cast<std::int64_t>(n);
    std::int64_t seen = peak_live.load(std::memory_order_relaxed);
    while (now > seen && !peak_live.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {}
    return reinterpret_cast<void*>(p);
}

inline void release(void* p) noexcept {
    if (!p) return;
    auto* h = static_cast<header*>(p) - 1;
    live.fetch_sub(static_cast<std::int64_t>(h->size), std::memory_order_relaxed);
    std::free(h->raw);
}
}  // namespace detail

// The peak of live bytes from its construction on, above the bytes live then.
class measure {
public:
    measure() noexcept : start_(live.load()) { peak_live.store(start_); }
    std::size_t peak() const noexcept {
        const std::int64_t p = peak_live.load() - start_;
        return p > 0 ? static_cast<std::size_t>(p) : 0;
    }

private:
    std::int64_t start_;
};

// The bound of contract.md §6.7 for a body of `size` bytes.
constexpr std::size_t bound_for(std::size_t size) noexcept { return 32 * size + (std::size_t(1) << 20); }

}  // namespace esign_memory

// The replacements (every form: plain, array, nothrow, aligned, sized).
void* operator new(std::size_t n) { return esign_memory::detail::allocate(n, 0, false); }
void* operator new[](std::size_t n) { return esign_memory::detail::allocate(n, 0, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return esign_memory::detail::allocate(n, 0, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return esign_memory::detail::allocate(n, 0, true);
}
void* operator new(std::size_t n, std::align_val_t a) {
    return esign_memory::detail::allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return esign_memory::detail::allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return esign_memory::detail::allocate(n, static_cast<std::size_t>(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return esign_memory::detail::allocate(n, static_cast<std::size_t>(a), true);
}
void operator delete(void* p) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p) noexcept { esign_memory::detail::release(p); }
void operator delete(void* p, std::size_t) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p, std::size_t) noexcept { esign_memory::detail::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { esign_memory::detail::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { esign_memory::detail::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { esign_memory::detail::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { esign_memory::detail::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { esign_memory::detail::release(p); }
