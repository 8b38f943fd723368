// The simulated machine that lives across commands (--sim=STATEFILE, --sim-advance MS; docs/tool.md,
// "Recording on the simulated machine"; the design is in docs/choices.md, "The simulated machine's state
// file").
//
// The state file is a journal: a version line, the machine line (ETWCTL_SIM as it was when the file was
// made), then each command that changed the machine (its arguments, its directory and its exit code)
// and each advance of its clock. Every command replays the journal silently on a fresh sim::kernel (no
// output, no .etl written), checks that each replayed command exits as it did, then runs the new one and
// appends it. The simulation is deterministic (sim::workload is seeded), so the replayed machine is the
// machine the last command left: its sessions, settings, clock, recorders and the bytes of the files
// being written.
//
// sim_state_machine is the kernel the commands talk to: sim::kernel's calls, and a sim::recorder for each
// session started with a destination (a file, real time, buffering). A session's recorder starts at the
// end of the command that started it (its configuration as that command left it: -stackwalk and -pmc
// come after StartTraceW); --sim-advance runs every recorder; -stop stops the recorder before the kernel
// stops the session (the stop statistics include its lost events) and writes the finished file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/testing/sim_live.hpp"
#include "etwctl/testing/sim_recorder.hpp"

#include "output.hpp"

namespace etwctl_tool {

/// --sim=STATEFILE and --sim-advance MS, taken out of the command line before it is parsed.
struct sim_state_args {
    std::string state_file;          ///< empty: no state file
    bool advance_given = false;
    std::uint32_t advance_ms = 0;
    std::vector<std::string> rest;   ///< argv[0] and the other arguments, in order
    std::string error;               ///< a usage error in these two options
};
sim_state_args split_sim_state_args(int argc, char** argv);

/// One session of the machine that records: its recorder, its workload and where its bytes go.
struct sim_recording {
    std::uint16_t logger = 0;
    std::string name;                 ///< the session's name (UTF-8)
    std::string file;                 ///< the .etl the session writes (absolute; empty: none)
    bool real_time = false;
    bool buffering = false;
    bool started = false;             ///< the recorder runs (from the end of the command that started the session)
    std::uint64_t started_ms = 0;     ///< the machine's clock when it started
    std::uint64_t flush_timer_ms = 0; ///< FlushTimer: the session's buffers are flushed this often (0: when full)
    std::vector<std::byte> bytes;     ///< the file as written so far (a file or buffering session)
    bool dirty = false;               ///< bytes changed since the file was last written to disk
    bool out_of_memory = false;       ///< the bytes outgrew memory: the file keeps its first part
    std::unique_ptr<etwctl::sim::workload> workload;
    std::vector<std::byte> storage;   ///< the recorder's buffers
    std::vector<std::byte> header;    ///< the header buffer as last written (a real-time consumer gets it first)
    std::uint32_t header_writes = 0;  ///< 1: at the start; 2: the final one, at the stop
    std::vector<std::byte> channel_storage;
    std::unique_ptr<etwctl::sim::realtime_channel> channel; ///< a real-time session's buffers, until consumed
    std::unique_ptr<etwctl::sim::recorder> recorder;
};

/// The simulated machine with recorders: the kernel the commands are given (etwctl::kernel and
/// etwctl::session_kernel, forwarded to sim::kernel).
class sim_state_machine {
public:
    /// model choice: the logger writes at most this many buffers per simulated millisecond (with 64 KB
    /// buffers 64 MB/s; with 4 KB buffers 4 MB/s: small buffers against a high rate lose events, as on
    /// Windows, while the default 64 KB keep up with 8 kHz sampling with stacks on 8 processors).
    static constexpr std::uint32_t write_buffers_per_ms = 1;

    explicit sim_state_machine(std::unique_ptr<etwctl::sim::kernel> k);
    ~sim_state_machine();
    sim_state_machine(sim_state_machine const&) = delete;
    sim_state_machine& operator=(sim_state_machine const&) = delete;

    etwctl::sim::kernel& kernel() noexcept { return *k_; }

    // ---- etwctl::kernel and etwctl::session_kernel ----
    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept;
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length, std::uint32_t* return_length) noexcept;
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept;
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept;
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out, std::uint32_t out_length,
                                  std::uint32_t* return_length) noexcept;
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept;
    std::uint32_t start_trace_w(std::uint64_t* handle, etwctl::wide_char const* name, void* props) noexcept;
    std::uint32_t control_trace_w(std::uint64_t handle, etwctl::wide_char const* name, void* props, std::uint32_t code) noexcept;
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept;
    std::uint32_t enable_trace_ex2(std::uint64_t handle, etwctl::guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t any, std::uint64_t all, std::uint32_t timeout, void const* params) noexcept;

    // ---- the machine ----
    /// A command begins: relative log-file names are taken from `cwd`; while replaying nothing is
    /// written to disk and nothing is printed.
    void begin_command(std::string cwd, bool replaying);
    /// The command ended: the recorders of the sessions it started start, the others take what it changed
    /// (sim::recorder::reconfigure(), replaying too); files being written are brought up to date on disk
    /// (not while replaying).
    void end_command();
    /// Lets the workload run `ms` simulated milliseconds: every recorder, one millisecond at a time
    /// (FlushTimer flushes included).
    void advance(std::uint32_t ms);
    /// Gives the sessions that run without a recorder (the machine's own: ETWCTL_SIM's NT Kernel Logger,
    /// logger=N, sessions=N) one, recording from the end of this command.
    void adopt_running_sessions();
    /// The simulated time since the machine was made, in milliseconds.
    std::uint64_t clock_ms() const noexcept { return clock_ms_; }
    bool replaying() const noexcept { return replaying_; }
    /// The recording session with this logger id (nullptr: none).
    sim_recording* recording(std::uint16_t logger) noexcept;
    std::vector<std::unique_ptr<sim_recording>> const& recordings() const noexcept { return recordings_; }

private:
    void on_started(std::uint64_t handle);
    void on_stopping(std::uint64_t handle, etwctl::wide_char const* name, void const* props);
    void on_flushed(std::uint64_t handle, etwctl::wide_char const* name, void const* props, bool flush);
    std::uint16_t target_of(std::uint64_t handle, etwctl::wide_char const* name, void const* props);
    void write_file(sim_recording& r);
    void report_recorded(sim_recording const& r) const;

    std::unique_ptr<etwctl::sim::kernel> k_;
    std::vector<std::unique_ptr<sim_recording>> recordings_;
    std::uint64_t clock_ms_ = 0;
    std::string cwd_;
    bool replaying_ = false;
};

struct request;
/// A request that changed the machine: it took effect and is not a read (QueryAllTraces, ControlTrace
/// QUERY and the NtTraceControl queries are sent as calls that "take effect" but read only).
bool changes_machine(request const& r);

/// Runs one command on the machine (main.cpp: the dispatch); `changed`: a call took effect.
using sim_command_runner = std::function<int(context& ctx, sim_state_machine& m, bool& changed)>;

/// --sim=STATEFILE: reads the state file (a missing file is a fresh machine), replays it, applies
/// --sim-advance, runs the command `ctx` names (none: only the advance) and writes the journal back.
/// A corrupt, foreign or newer state file is a usage error naming the file and the line.
int run_with_state(context& ctx, sim_state_args const& args, sim_command_runner const& run);

/// Makes a sim::kernel from an ETWCTL_SIM spec (sim_machine.hpp's items); `booted`: a state file's fresh
/// machine (no NT Kernel Logger running unless the spec says kernel-logger).
std::unique_ptr<etwctl::sim::kernel> make_sim_kernel(std::string const& spec, bool booted, std::string& error);

} // namespace etwctl_tool
