// A sampling profiler: starts a kernel session of its own (a private system logger, so it does not collide
// with another tool's NT Kernel Logger) with sampled profiles at 8 kHz and their stacks, process, thread
// and image events; consumes it live with trace::consume on this thread while another thread stops it
// after the given time; then prints the hottest instruction pointers (module+offset, from the image
// events the session delivered) and the threads that were sampled most.
//
//   etwctl_example_profile_process [seconds] [--simulated]
//
// On Windows (elevated) it profiles the machine through native_kernel (EVENT_RECORDs from ProcessTrace);
// elsewhere, or with --simulated, it runs on the simulated machine (a seeded workload recorded by
// sim::recorder and delivered by sim::live_session), and then checks what it printed against that
// workload: every sample counted, each hot address inside one of the workload's images, each thread one
// of its threads (the example's test runs it so; its exit code says whether the checks held).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "etwctl/etwctl.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/testing/sim_live.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace/consume.hpp"

namespace {

namespace trace = etwctl::trace;

/// What the handlers collect. They run inside ProcessTrace's callback: noexcept, no allocation (fixed
/// tables, sized before consuming).
struct profile_data {
    struct image {
        std::uint64_t base = 0, size = 0;
        std::uint32_t process_id = 0;
        char name[64] = {};
    };
    struct counter {
        std::uint64_t key = 0;
        std::uint64_t count = 0;
    };
    std::vector<image> images = std::vector<image>(4096);
    std::size_t image_count = 0;
    std::vector<counter> ips = std::vector<counter>(std::size_t{1} << 16);    // open addressing on the IP
    std::vector<counter> threads = std::vector<counter>(std::size_t{1} << 12); // on the thread id
    std::uint64_t samples = 0, with_stack = 0, table_full = 0;

    static void count(std::vector<counter>& table, std::uint64_t key, std::uint64_t& full) noexcept {
        std::size_t const mask = table.size() - 1;
        for (std::size_t i = (key * 0x9E3779B97F4A7C15ULL) >> 40 & mask, n = 0; n < table.size(); i = (i + 1) & mask, ++n) {
            if (table[i].count != 0 && table[i].key != key) continue;
            table[i].key = key;
            ++table[i].count;
            return;
        }
        ++full;
    }
    void add_image(trace::image_event const& e) noexcept {
        if (image_count == images.size()) return;
        auto& im = images[image_count++];
        im.base = e.image_base();
        im.size = e.image_size();
        im.process_id = e.process_id();
        // the file name's last path component, as UTF-8
        char full[512] = {};
        std::size_t const n = e.file_name().to_utf8(std::span<char>(full, sizeof full - 1));
        char const* base = full;
        for (std::size_t i = 0; i < n; ++i)
            if (full[i] == '\\' || full[i] == '/') base = full + i + 1;
        std::size_t const len = (std::min)(std::strlen(base), sizeof im.name - 1);
        std::memcpy(im.name, base, len);
        im.name[len] = '\0';
    }
    /// The image holding an address (the latest load covering it), or null.
    image const* find(std::uint64_t address) const noexcept {
        for (std::size_t i = image_count; i-- > 0;)
            if (address - images[i].base < images[i].size) return &images[i];
        return nullptr;
    }
    static std::vector<counter> top(std::vector<counter> const& table, std::size_t n) {
        std::vector<counter> out;
        for (auto const& c : table)
            if (c.count != 0) out.push_back(c);
        std::sort(out.begin(), out.end(), [](counter const& a, counter const& b) { return a.count != b.count ? a.count > b.count : a.key < b.key; });
        if (out.size() > n) out.resize(n);
        return out;
    }
};

/// Consumes the session `name` on kernel k until the session ends or `stop_after` elapses.
template <class K>
trace::consume_report consume_profile(K& k, char const* name, profile_data& d, std::chrono::milliseconds stop_after, bool stopper) {
    std::vector<std::byte> buffers(std::size_t{8} << 20), index(std::size_t{1} << 20);
    trace::consume_control control;
    std::atomic<bool> done{false};
    std::thread stop_thread;
    if (stopper) // the profiler's own clock: CloseTrace from another thread ends ProcessTrace
        stop_thread = std::thread([&] {
            auto const until = std::chrono::steady_clock::now() + stop_after;
            while (!done.load() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (!done.load()) (void)control.stop(k);
        });
    auto const report = trace::consume(
        k, name, trace::consume_storage{buffers, index}, control,
        trace::on<"SampledProfile">([&](trace::sampled_profile const& e) noexcept {
            ++d.samples;
            if (!e.stack().empty()) ++d.with_stack;
            profile_data::count(d.ips, e.instruction_pointer(), d.table_full);
            profile_data::count(d.threads, e.thread_id(), d.table_full);
        }),
        trace::on<"ImageLoad">([&](trace::image_event const& e) noexcept { d.add_image(e); }),
        trace::on<"ImageDCStart">([&](trace::image_event const& e) noexcept { d.add_image(e); }));
    done.store(true);
    if (stop_thread.joinable()) stop_thread.join();
    return report;
}

void print_profile(profile_data const& d, trace::consume_report const& r) {
    std::printf("consumed: %s; %llu events, %llu samples (%llu with a stack), %zu images; lost: %llu buffers, %u events\n",
                std::string(trace::to_string(r.reason)).c_str(), static_cast<unsigned long long>(r.events),
                static_cast<unsigned long long>(d.samples), static_cast<unsigned long long>(d.with_stack), d.image_count,
                static_cast<unsigned long long>(r.buffers_lost), r.events_lost);
    std::printf("hottest instruction pointers:\n");
    for (auto const& c : profile_data::top(d.ips, 10)) {
        if (auto const* im = d.find(c.key))
            std::printf("  %8llu  %s+0x%llx\n", static_cast<unsigned long long>(c.count), im->name,
                        static_cast<unsigned long long>(c.key - im->base));
        else
            std::printf("  %8llu  0x%llx\n", static_cast<unsigned long long>(c.count), static_cast<unsigned long long>(c.key));
    }
    std::printf("hottest threads:\n");
    for (auto const& c : profile_data::top(d.threads, 10))
        std::printf("  %8llu  thread %llu\n", static_cast<unsigned long long>(c.count), static_cast<unsigned long long>(c.key));
}

/// The session: sampled profiles with stacks, process / thread / image events, 8 kHz; real time.
template <class K>
etwctl::result<etwctl::trace_session> start_profile_session(K& k, etwctl::owned_session_name const& name) {
    using namespace etwctl;
    auto s = start_session(k, kernel_session(k, name).real_time().buffer(buffer_size::kilobytes(64)).buffers(minimum_buffers{64}, maximum_buffers{256}));
    if (!s) return s;
    session_handle const h = s->handle();
    if (auto ec = set<system_trace_enable_flags>(k, h, kernel_flags<"PROC_THREAD+LOADER+PROFILE">)) return result<trace_session>(ec);
    if (auto ec = set<stack_tracing>(k, h, stack_walk<"SampledProfile">)) return result<trace_session>(ec);
    return s;
}

#if defined(_WIN32)
int profile_windows(int seconds) {
    using namespace etwctl;
    auto& k = native_kernel::instance();
    auto const name = owned_session_name::of("profile", k.current_process_id());
    std::error_code restore_failure;
    interval_guard rate(k, timer_interval<1250>, report_to(restore_failure)); // 8 kHz; restored at scope exit
    if (rate.error()) {
        std::printf("interval refused: %s\n", describe(rate.error()).c_str());
        return 1;
    }
    auto session = start_profile_session(k, name);
    if (!session) {
        std::printf("cannot start the kernel session: %s\n", describe(session.error()).c_str());
        return 1;
    }
    char const* const consumed = has_private_system_loggers(k) ? name.c_str() : "NT Kernel Logger";
    profile_data d;
    auto const report = consume_profile(k, consumed, d, std::chrono::seconds(seconds), true);
    auto const stopped = session->stop();
    print_profile(d, report);
    std::printf("session: %u events lost, %u real-time buffers lost\n", stopped.statistics.events_lost, stopped.statistics.real_time_buffers_lost);
    return report.reason == trace::consume_end::stopped || report.reason == trace::consume_end::session_ended ? 0 : 1;
}
#endif

/// On the simulated machine: `milliseconds` of the seeded workload, then the checks against it.
int profile_simulated(std::uint32_t milliseconds) {
    using namespace etwctl;
    auto k = std::make_unique<sim::kernel>(); // large (the model of a machine): on the heap
    auto const name = owned_session_name::of("profile", k->current_process_id());
    if (auto ec = set<sampled_profile_interval>(*k, profile_interval{1250})) {
        std::printf("interval refused: %s\n", describe(ec).c_str());
        return 1;
    }
    auto session = start_profile_session(*k, name);
    if (!session) {
        std::printf("cannot start the kernel session: %s\n", describe(session.error()).c_str());
        return 1;
    }
    std::uint16_t const logger = session->handle().logger().value;
    sim::workload w{};
    std::vector<std::byte> recorder_storage(sim::recorder::storage_size(*k, logger, w)), channel_storage(std::size_t{256} * 64 * 1024);
    sim::realtime_channel channel(*k, logger, channel_storage);
    sim::recorder rec(*k, logger, w, recorder_storage, channel.sink());
    if (!rec.valid()) {
        std::printf("the simulated recorder refused the session\n");
        return 1;
    }
    sim::live_session live(*k, rec, channel, {.run_ms = milliseconds});
    char const* const consumed = has_private_system_loggers(*k) ? name.c_str() : "NT Kernel Logger";
    profile_data d;
    auto const report = consume_profile(live, consumed, d, std::chrono::milliseconds(0), false);
    (void)session->stop();
    print_profile(d, report);

    // The checks: what was printed agrees with what the simulated machine ran.
    int failures = 0;
    auto const check = [&](bool ok, char const* what) {
        if (!ok) ++failures, std::printf("CHECK FAILED: %s\n", what);
    };
    check(report.reason == trace::consume_end::session_ended, "the session ended");
    check(d.samples == rec.counts().of(sim::recorder::sampled_profile), "every recorded sample consumed");
    check(d.samples == 8ULL * milliseconds * w.options().processors, "8 samples per millisecond per processor (interval 1250)");
    check(d.with_stack == d.samples, "every sample has its stack");
    check(d.table_full == 0, "the tables held every address and thread");
    std::uint64_t in_images = 0;
    for (auto const& c : d.ips) {
        if (c.count == 0) continue;
        bool known = false;
        for (auto const& im : w.images())
            known = known || (c.key - im.base_for(8) < im.size);
        if (known && d.find(c.key)) in_images += c.count;
    }
    check(in_images == d.samples, "every sampled address lies in an image the workload loaded and the session reported");
    std::uint64_t on_threads = 0;
    for (auto const& c : d.threads) {
        if (c.count == 0) continue;
        for (auto const& t : w.threads())
            if (t.thread_id == c.key) on_threads += c.count;
    }
    check(on_threads == d.samples, "every sampled thread is one of the workload's");
    std::printf(failures == 0 ? "checks against the simulated workload: all passed\n" : "checks against the simulated workload: %d failed\n", failures);
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    int const seconds = argc > 1 ? std::atoi(argv[1]) : 10;
    bool simulated = false;
    for (int i = 1; i < argc; ++i) simulated = simulated || std::string(argv[i]) == "--simulated";
#if defined(_WIN32)
    if (!simulated) return profile_windows(seconds);
#endif
    (void)simulated;
    // the simulated machine runs `seconds` x 100 ms (at least 20): its time is simulated, not waited for
    return profile_simulated(static_cast<std::uint32_t>((std::max)(seconds * 100, 20)));
}
