// Shared pieces of etwctl's libFuzzer harnesses: a property check that stops the run, caller buffers
// whose surroundings are poisoned (ASan reports any access outside the declared length) and also
// guarded by canary bytes (a write past the end is caught even without ASan), and kernel setup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include <fuzzer/FuzzedDataProvider.h>

#include "etwctl/etwctl.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/compat_current.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/testing/sim_kernel.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define ETWCTL_FUZZ_ASAN 1
#endif
#endif

namespace etwctl_fuzz {

/// A property failed: say which, then stop (libFuzzer records the input as a crash).
[[noreturn]] inline void property_failed(char const* what, char const* file, int line) {
    std::fprintf(stderr, "etwctl fuzz property failed: %s (%s:%d)\n", what, file, line);
    std::abort();
}
#define FUZZ_CHECK(cond)                                                                                  \
    do {                                                                                                  \
        if (!(cond)) ::etwctl_fuzz::property_failed(#cond, __FILE__, __LINE__);                          \
    } while (0)

/// A caller buffer of `size` bytes with `canary` bytes of 0xA5 after it (and before it). The canaries
/// are poisoned while the library runs (ASan faults on any access to them) and checked afterwards.
class guarded_buffer {
public:
    static constexpr std::size_t canary = 32;

    explicit guarded_buffer(std::size_t size) : size_(size), raw_(new unsigned char[size + 2 * canary]) {
        std::memset(raw_.get(), 0xA5, canary);
        std::memset(raw_.get() + canary, 0, size);
        std::memset(raw_.get() + canary + size, 0xA5, canary);
    }
    unsigned char* data() noexcept { return raw_.get() + canary; }
    std::size_t size() const noexcept { return size_; }

    void poison() noexcept {
#ifdef ETWCTL_FUZZ_ASAN
        ASAN_POISON_MEMORY_REGION(raw_.get(), canary);
        ASAN_POISON_MEMORY_REGION(raw_.get() + canary + size_, canary);
#endif
    }
    void unpoison() noexcept {
#ifdef ETWCTL_FUZZ_ASAN
        ASAN_UNPOISON_MEMORY_REGION(raw_.get(), canary);
        ASAN_UNPOISON_MEMORY_REGION(raw_.get() + canary + size_, canary);
#endif
    }
    /// True if both canaries are intact.
    bool canaries_intact() const noexcept {
        for (std::size_t i = 0; i < canary; ++i)
            if (raw_[i] != 0xA5 || raw_[canary + size_ + i] != 0xA5) return false;
        return true;
    }

private:
    std::size_t size_;
    std::unique_ptr<unsigned char[]> raw_;
};

/// Poisons a buffer's surroundings for the duration of a scope, then checks the canaries.
class poisoned_scope {
public:
    explicit poisoned_scope(guarded_buffer& b) noexcept : b_(b) { b_.poison(); }
    ~poisoned_scope() {
        b_.unpoison();
        FUZZ_CHECK(b_.canaries_intact());
    }
    poisoned_scope(poisoned_scope const&) = delete;
    poisoned_scope& operator=(poisoned_scope const&) = delete;

private:
    guarded_buffer& b_;
};

/// The simulated kernel is large (fixed-capacity tables); keep one or two alive and rebuild them in
/// place for each input so every input starts from the same machine.
template <std::size_t Slot>
etwctl::sim::kernel& fresh_sim() {
    alignas(etwctl::sim::kernel) static unsigned char storage[sizeof(etwctl::sim::kernel)];
    static etwctl::sim::kernel* k = nullptr;
    if (k) k->~kernel();
    k = ::new (storage) etwctl::sim::kernel();
    return *k;
}

} // namespace etwctl_fuzz
