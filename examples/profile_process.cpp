// Profile this process for ten seconds: a private kernel session (a system logger of its own, so it does
// not collide with another tool's NT Kernel Logger) with sampled stacks at 1 kHz and context switches, and
// one user-mode provider on a session of its own; then stop both and report the statistics.
//
//   etwctl_example_profile_process [seconds] [trace folder] [--simulated]
//
// On Windows (elevated) it talks to the kernel and writes profile-kernel.etl and profile-user.etl; elsewhere,
// or with --simulated, it runs on the simulated kernel (the test runs it so, with 0 seconds). Leftover
// sessions of a crashed earlier run are stopped first; the machine-wide profile interval is restored on the
// way out, also on failure.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

#include "etwctl/etwctl.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/testing/sim_kernel.hpp"

namespace {

void print_statistics(char const* what, etwctl::stop_report const& r) {
    std::printf("%s: %u buffers written, %u events lost, %u log-file and %u real-time buffers lost\n", what,
                r.statistics.buffers_written, r.statistics.events_lost, r.statistics.log_buffers_lost,
                r.statistics.real_time_buffers_lost);
    if (r.error) std::printf("  %s\n", etwctl::describe(r.error).c_str());
}

void print_adjustments(char const* what, etwctl::trace_session const& s) {
    for (auto const& a : s.adjusted())
        std::printf("%s: Windows changed %.*s from %u to %u\n", what, static_cast<int>(etwctl::session_setting_name(a.setting).size()),
                    etwctl::session_setting_name(a.setting).data(), a.requested, a.effective);
}

} // namespace

/// The whole profile on kernel k (native_kernel, or sim::kernel).
template <class K>
int profile(K& k, int seconds, std::string const& folder) {
    using namespace etwctl;
    std::string const kernel_file = folder + "profile-kernel.etl";
    std::string const user_file = folder + "profile-user.etl";

    // Leftovers of an earlier run that crashed: etwctl-profile-<pid> sessions whose process is gone.
    auto storage = std::make_unique<session_list_buffer<64>>(); // a tool may allocate; the library does not
    auto const orphans = stop_orphans(k, "profile", *storage);
    if (!orphans) std::printf("could not look for orphans: %s\n", describe(orphans.error).c_str());
    else if (orphans.stopped != 0) std::printf("stopped %zu orphaned sessions of earlier runs\n", orphans.stopped);

    // The kernel session: named etwctl-profile-<pid>; process, thread, image and sampled-profile events.
    std::uint32_t const pid = k.current_process_id();
    auto const kernel_name = owned_session_name::of("profile", pid);
    auto kernel = start_session(k, kernel_session(k, kernel_name)
                                       .file_sequential(kernel_file)
                                       .buffer(buffer_size::megabytes(1))
                                       .buffers(minimum_buffers{64}, maximum_buffers{128}));
    if (!kernel) {
        std::printf("cannot start the kernel session: %s\n", describe(kernel.error()).c_str());
        return 1;
    }
    print_adjustments("kernel session", *kernel);
    session_handle const session = kernel->handle();

    // Kernel events, call stacks and the sampling rate, through the typed set<> calls on its handle.
    if (auto ec = set<system_trace_enable_flags>(k, session, kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">)) {
        std::printf("kernel flags refused: %s\n", describe(ec).c_str());
        return 1;
    }
    if (auto ec = set<stack_tracing>(k, session, stack_walk<"SampledProfile+CSwitch">)) {
        std::printf("stacks refused: %s\n", describe(ec).c_str());
        return 1;
    }
    std::error_code restore_failure;
    stop_report user_report;
    stop_report kernel_report;
    {
        interval_guard rate(k, timer_interval<10000>, report_to(restore_failure)); // 1 kHz; restored at scope exit
        if (rate.error()) {
            std::printf("interval refused: %s\n", describe(rate.error()).c_str());
            return 1;
        }

        // One user-mode provider (an EventSource / TraceLogging name) on a session of its own.
        auto const user_name = owned_session_name::of("profile.user", pid);
        auto user = start_session(k, session_config::user(user_name.text()).file_sequential(user_file));
        if (!user) {
            std::printf("cannot start the user session: %s\n", describe(user.error()).c_str());
            return 1;
        }
        if (auto ec = enable_provider(*user, provider_name<"MyCompany.MyComponent">,
                                      enable_options{}.level(trace_level::information).stack_trace().process_ids(std::array{pid}))) {
            std::printf("provider refused: %s\n", describe(ec).c_str());
            return 1;
        }

        std::printf("profiling process %u for %d s: sessions %s and %s\n", pid, seconds, kernel_name.c_str(), user_name.c_str());
        std::this_thread::sleep_for(std::chrono::seconds(seconds));
        if constexpr (std::is_same_v<K, sim::kernel>) // the simulated machine has no workload: events arrive as a real one's would
            (void)k.sessions().log_events(kernel->handle().value, 20000, 120);

        // Stop both and say what was lost: a loss is reported, never silent.
        if (auto q = kernel->query()) std::printf("kernel session: %u buffers in use\n", q->statistics().number_of_buffers);
        user_report = user->stop();
        kernel_report = kernel->stop();
    } // the interval is restored here
    print_statistics("user session", user_report);
    print_statistics("kernel session", kernel_report);
    bool const clean = user_report.stopped && kernel_report.stopped && !restore_failure;
    if (restore_failure) std::printf("interval not restored: %s\n", describe(restore_failure).c_str());
    return clean ? 0 : 1;
}

int main(int argc, char** argv) {
    int const seconds = argc > 1 ? std::atoi(argv[1]) : 10;
    std::string const folder = argc > 2 ? std::string(argv[2]) + "/" : std::string();
    bool const simulated = argc > 3 && std::string(argv[3]) == "--simulated";
#if defined(_WIN32)
    if (!simulated) return profile(etwctl::native_kernel::instance(), seconds, folder);
#endif
    (void)simulated;
    auto k = std::make_unique<etwctl::sim::kernel>(); // large (the model of a machine): on the heap
    return profile(*k, seconds, folder);
}
