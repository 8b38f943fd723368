// The simulated kernel's threading contract (sim_kernel.hpp): one thread at a time per kernel; the
// caller serializes calls to a shared kernel; separate kernels are independent. This test exercises
// exactly what the contract allows, so the tsan preset checks there is no hidden shared state (the
// log's overflow record, statics) and that a mutex around every call is enough.
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "etwctl_test.hpp"

using namespace etwctl;

TEST_CASE("sim threading: one kernel per thread, concurrently, each overflowing its own log") {
    constexpr int threads = 4;
    constexpr std::size_t calls = sim::kernel::max_records + 40; // past the log's end: the overflow record
    std::vector<std::unique_ptr<sim::kernel>> kernels;
    for (int t = 0; t < threads; ++t) kernels.push_back(std::make_unique<sim::kernel>());
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([k = kernels[static_cast<std::size_t>(t)].get(), t] {
            std::uint32_t const interval = 2000U + static_cast<std::uint32_t>(t);
            for (std::size_t i = 0; i < calls; ++i) static_cast<void>(k->nt_set_interval_profile(interval, 0));
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) {
        sim::kernel const& k = *kernels[static_cast<std::size_t>(t)];
        CHECK(k.request_count() == sim::kernel::max_records);
        CHECK(k.dropped_requests() == calls - sim::kernel::max_records);
        CHECK(k.interval(0) == 2000U + static_cast<std::uint32_t>(t));
        CHECK(k.last_request().value == 2000U + static_cast<std::uint32_t>(t));
    }
}

TEST_CASE("sim threading: one shared kernel, every call serialized by the caller's mutex") {
    constexpr int threads = 4;
    constexpr std::size_t calls = 100; // 400 requests: within the log
    auto owner = std::make_unique<sim::kernel>();
    sim::kernel& k = *owner;
    std::uint64_t const session = k.start_kernel_logger();
    k.clear_requests();
    std::mutex lock;
    std::vector<std::thread> pool;
    std::size_t failures[threads] = {};
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&k, &lock, &failures, session, t] {
            hook_id const ids[] = {hook_id{static_cast<std::uint16_t>(0x0600 + t)}};
            std::size_t seen = 0;
            for (std::size_t i = 0; i < calls; ++i) {
                std::lock_guard<std::mutex> g(lock);
                if (set<stack_tracing>(k, session_handle{session}, std::span<hook_id const>(ids))) ++failures[t];
                if (k.request_count() <= seen) ++failures[t]; // reading the log: under the same lock
                seen = k.request_count();
            }
        });
    for (auto& th : pool) th.join();
    for (std::size_t f : failures) CHECK(f == 0);
    CHECK(k.request_count() == threads * calls);
    CHECK(k.dropped_requests() == 0);
    REQUIRE(k.stack_tracing_hooks(0xFFFF).size() == 1);
    std::uint32_t const last = k.stack_tracing_hooks(0xFFFF)[0];
    CHECK(last >= 0x0600U);
    CHECK(last < 0x0600U + threads);
}
