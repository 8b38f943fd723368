// detail::lazy_export hammered from many threads through an injected resolver: every thread sees the
// same address, a missing export stays missing, the resolver runs at least once and at most once per
// racing thread, and never again once an answer is stored. Runs in every build; under the tsan preset
// ThreadSanitizer checks the atomics' ordering as well.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "etwctl/detail/lazy_export.hpp"
#include "etwctl_test.hpp"

using etwctl::detail::lazy_export;

namespace {

constexpr std::size_t thread_count = 16;
constexpr std::size_t calls_per_thread = 2000;

/// Starts all threads together so their first calls race.
struct start_line {
    std::atomic<std::size_t> ready{0};
    std::atomic<bool> go{false};
    void wait() {
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    }
    void release(std::size_t n) {
        while (ready.load() != n) std::this_thread::yield();
        go.store(true, std::memory_order_release);
    }
};

} // namespace

TEST_CASE("lazy_export: many threads, one present and one missing export") {
    for (int round = 0; round < 20; ++round) {
        lazy_export present;
        lazy_export missing;
        std::atomic<std::size_t> present_calls{0};
        std::atomic<std::size_t> missing_calls{0};
        static int target = 0; // an address to hand out
        auto const address = reinterpret_cast<std::uintptr_t>(&target);
        auto resolve_present = [&]() noexcept {
            present_calls.fetch_add(1, std::memory_order_relaxed);
            return address;
        };
        auto resolve_missing = [&]() noexcept {
            missing_calls.fetch_add(1, std::memory_order_relaxed);
            return std::uintptr_t{0};
        };

        start_line line;
        std::vector<std::uintptr_t> seen(thread_count, 1);
        std::vector<std::size_t> wrong(thread_count, 0);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < thread_count; ++t)
            threads.emplace_back([&, t] {
                line.wait();
                std::uintptr_t first = 0;
                for (std::size_t i = 0; i < calls_per_thread; ++i) {
                    std::uintptr_t const a = present.get(resolve_present);
                    if (i == 0) first = a;
                    if (a != first) ++wrong[t];
                    if (missing.get(resolve_missing) != 0) ++wrong[t];
                }
                seen[t] = first;
            });
        line.release(thread_count);
        for (auto& th : threads) th.join();

        for (std::size_t t = 0; t < thread_count; ++t) {
            CHECK(seen[t] == address);
            CHECK(wrong[t] == 0);
        }
        std::size_t const pc = present_calls.load();
        std::size_t const mc = missing_calls.load();
        CHECK(pc >= 1);
        CHECK(pc <= thread_count); // racing first calls only
        CHECK(mc >= 1);
        CHECK(mc <= thread_count);
        CHECK(present.status() == lazy_export::state::present);
        CHECK(missing.status() == lazy_export::state::missing);

        // Resolved: the resolver never runs again, from any thread.
        std::vector<std::thread> again;
        for (std::size_t t = 0; t < 4; ++t)
            again.emplace_back([&] {
                for (int i = 0; i < 500; ++i) {
                    (void)present.get(resolve_present);
                    (void)missing.get(resolve_missing);
                }
            });
        for (auto& th : again) th.join();
        CHECK(present_calls.load() == pc);
        CHECK(missing_calls.load() == mc);

        // reset() forgets; the next call resolves again.
        present.reset();
        CHECK(present.status() == lazy_export::state::unresolved);
        CHECK(present.get(resolve_present) == address);
        CHECK(present_calls.load() == pc + 1);
    }
}
