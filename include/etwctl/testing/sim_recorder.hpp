// SPDX-License-Identifier: MIT
// etwctl/testing/sim_recorder.hpp - the simulated kernel records: a deterministic, seeded workload
// (processors, processes, threads, images, what runs where) and a recorder that turns a sim session's
// configuration into the events that configuration implies, written in Windows' buffer format.
//
//     sim::kernel k;                          // the session configured as for Windows:
//     ... start "NT Kernel Logger", set<system_trace_enable_flags>, set<stack_tracing>, intervals, PMC ...
//     sim::workload w({.seed = 7, .lifecycle_interval = 20000}); // processes, threads, images come and go
//     sim::memory_file file(storage);         // or any sim::byte_sink (a real-time consumer, a file)
//     sim::recorder rec(k, limits::kernel_logger_id, w, buffers, file.sink());
//     rec.add_provider({.id = my_guid, .events = my_events, .events_per_ms = 5}); // EnableTraceEx2 decides
//     rec.start(); rec.advance(20); rec.stop(); // then ControlTrace(STOP) reports the losses
//
// What the configuration implies (the recorder reads it from the sim's state when it starts, and again
// at each reconfigure(): see "While recording" below):
//  - the group mask (set<system_trace_enable_flags>, or EnableFlags in the session's properties):
//    PROCESS / THREAD / LOADER -> Process, Thread and Image DCStart rundown at start and DCEnd at stop
//    (the processes, threads and images alive at that moment), and as the workload changes (its
//    lifecycle_interval), Process Start / End (0x0301 / 0x0302, Process_TypeGroup1 v4, SYSTEM header naming
//    the thread that logs it), Thread Start / End (0x0501 / 0x0502, Thread_TypeGroup1 v3, SYSTEM header),
//    Image Load / Unload (0x030A / 0x1402, Image_Load v3, PERFINFO header) (Microsoft Learn's MOF class
//    pages; phnt ntwmi.h for the hooks; the layouts are trace/kernel_events.hpp's); samples, context
//    switches and ready-thread events name only threads alive at their time;
//    PROFILE -> SampledProfile on every processor at the Timer source's interval (100 ns units: 1250 ->
//    8 per ms per processor) and the interval rundown (CollectionStart / CollectionEnd, source "Timer");
//    CSWITCH -> CSwitch, DISPATCHER -> ReadyThread at each of the workload's context switches;
//  - the header event (TRACE_LOGFILE_HEADER) and the group-mask extension event (0x0005) first in the
//    header buffer (Chappell, "TRACE_LOGFILE_HEADER", "ETW_KERNEL_HEADER_EXTENSION": for a system logger
//    the extension is always the second event);
//  - the stack list (set<stack_tracing>): a StackWalk record (0x1820) right after each event whose hook
//    is in it, on the same processor, EventTimeStamp = the event's timestamp, frames inside the images
//    of the running thread's process (Microsoft Learn, "StackWalk_Event"; for a Start / End / Load /
//    Unload, the thread that causes it: the creating thread, the ending thread, a thread of the process
//    loading or unloading the image); with stack caching on
//    (set<stack_caching>) a StackKeyUser reference (0x1826) instead, and the definitions as
//    StackKeyRundown (0x1824) records at stop (phnt ntwmi.h, the stack-cache types);
//  - the PMC counter list and event list (set<pmc_counter_list> / set<pmc_event_list>): every event of
//    the list carries one u64 per configured counter, in the configured order, after its PERFINFO header
//    (Chappell, "PERFINFO_TRACE_HEADER"), and a PmcCounterConfig event (0x0F30) names them;
//  - buffers of the session's BufferSize, one current buffer per processor (WMI_BUFFER_HEADER, records
//    8-byte aligned, SYSTEM / PERFINFO headers in the session's pointer size; Chappell, "WMI_BUFFER_HEADER",
//    "Trace Headers"); a full buffer goes to the logger's write queue and the processor takes a free
//    one. At most MaximumBuffers exist: when a processor finds none free, its events are lost, counted
//    in the session's statistics (EventsLost, what ControlTrace's QUERY and STOP report) and in the
//    file's header (TRACE_LOGFILE_HEADER.EventsLost);
//  - provider events: each provider registered with add_provider writes while the session enables it
//    (EnableTraceEx2 on the sim, read at each event, so enabling or disabling while recording takes effect
//    at once); decide_provider_event() applies the level, MatchAnyKeyword / MatchAllKeyword, EVENT_FILTER_TYPE_PID,
//    EVENT_FILTER_TYPE_EVENT_ID (in / out), EVENT_FILTER_TYPE_STACKWALK and the enable properties
//    STACK_TRACE, SID and TS_ID (Microsoft Learn "EnableTraceEx2", "ENABLE_TRACE_PARAMETERS",
//    "EVENT_FILTER_DESCRIPTOR", "EVENT_HEADER_EXTENDED_DATA_ITEM"); an event that passes is an EVENT_HEADER
//    record (EVENT_HEADER32 / 64 by the session's pointer size) in the writing processor's buffer, with its
//    extended items (SID, TS_ID, STACK_TRACE32 / 64, a TraceLogging provider's PROV_TRAITS and
//    EVENT_SCHEMA_TL; SDK evntcons.h, Chappell "EVENT_HEADER"), then the user data.
// While recording, reconfigure() takes the session's configuration as the sim holds it then: on Windows
// the sampling interval (machine-global), the group mask (TraceSetInformation
// TraceSystemTraceEnableFlagsInfo, ControlTrace UPDATE), the stack list and the PMC settings apply to a
// running session from the moment they are set (Microsoft Learn "TraceSetInformation",
// "TRACE_INFO_CLASS"). The events after the call follow the new configuration; with the PROFILE group on,
// a changed interval is logged as ProfileSetInterval (0x0F48: Source, NewInterval, OldInterval,
// SourceName; NTWMI PERFINFO_SAMPLED_PROFILE_CONFIG) and each processor's next sample comes one tick
// after the change, then every new interval; PROFILE turned on logs the interval rundown CollectionStart,
// turned off CollectionEnd (model choice: a consumer always knows the interval of the samples it reads);
// a changed PMC counter list logs PmcCounterConfig again; a group turned on gets no rundown at that
// moment (model choice: the DCEnd rundown at stop names what runs then); the header buffer's group-mask
// extension keeps the masks of the start (it describes the start, also when rewritten at stop).
// Model choices (no source gives the kernel's behaviour; marked "model choice" below): the logger writes `write_buffers_per_ms` queued buffers per simulated
// millisecond (0: all, at once), so small or few buffers against a high event rate lose events, as on
// Windows; an event and its stack record are reserved together (never split across buffers); the clock
// is QPC at 10 MHz (raw timestamps in 100 ns ticks); a PMC value is (ProfileSource << 48) | a running
// count per processor, so a consumer can tell which counter a value belongs to; rundown events go to
// processor 0's buffers, and so do the workload's changes, each event of a change one tick after the
// previous (two events of one thread never share a timestamp, which is how a stack finds its event) and
// at a time when no processor logs (else the change waits); what may change and the order of a change's
// events are the workload's choices (workload::draw_change, recorder::lifecycle); lifecycle events carry
// no PMC counters; provider events: written by the thread running on the processor, every process has
// every provider registered, a provider's draws use a generator of their own (filtering changes which
// events are written, never when they happen), an enabled Level 0 and a MatchAnyKeyword 0 pass every
// level and keyword, the SID is LocalSystem's for process 0 and one user's otherwise, the terminal session
// 0 for process 0 and 1 otherwise, stack items have MatchId 0; filter types other than PID, EVENT_ID and
// STACKWALK are not applied.
// Fixed capacity, no heap: the caller gives the per-processor buffer storage (recorder::storage_size)
// and a sink that receives the file's bytes at their offsets (the header buffer is written again at stop
// with the final counts, as Windows finalizes a file; a real-time sink may ignore that rewrite).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/kernel_events.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

/// A 64-bit value already known to fit, as a size (a template: no cast where std::size_t is 64 bits, which
/// strict user builds reject as useless).
template <class T>
constexpr std::size_t as_size(T v) noexcept {
    return static_cast<std::size_t>(v);
}

// ---- the workload ----------------------------------------------------------------------------------------

/// What the simulated machine runs (all deterministic from the seed).
struct workload_options {
    std::uint64_t seed = 1;
    std::uint16_t processors = current_windows_model::processors;
    std::uint16_t processes = 3;
    std::uint16_t threads_per_process = 3;
    std::uint16_t images_per_process = 3;  ///< the .exe and (n - 1) DLLs
    std::uint32_t switch_interval = 10000; ///< 100 ns units between a processor's context switches (1 ms)
    /// Mean time between changes of the process, thread and image sets, in 100 ns units (0: the sets do
    /// not change while recording). Each change's time is drawn from the seed in [interval / 2, 3 x
    /// interval / 2).
    std::uint32_t lifecycle_interval = 0;
};

/// A seeded workload: processes with their threads and images, which thread runs on each processor, and
/// (with a lifecycle_interval) processes, threads and images that start and end while it runs.
class workload {
public:
    static constexpr std::size_t max_processors = 64;
    static constexpr std::size_t max_processes = 32;
    static constexpr std::size_t max_threads = 128;
    static constexpr std::size_t max_images = 128;
    static constexpr std::size_t stack_variants = 8; ///< distinct call stacks per thread
    static constexpr std::size_t max_frames = 8;

    struct process_info {
        std::uint32_t process_id = 0;
        std::uint32_t parent_id = 0;
        std::uint32_t index = 0;       ///< names it: "simproc<index>.exe"
        std::uint16_t first_image = 0; ///< its images loaded at its start: images()[first_image ..
        std::uint16_t pinned = 0;      ///<   first_image + pinned), the .exe first; they stay until it ends
        std::uint16_t next_dll = 0;    ///< the number of the next DLL it loads ("simmod<n>.dll")
        bool alive = true;
    };
    struct thread_info {
        std::uint32_t thread_id = 0;
        std::uint16_t process = 0; ///< index into processes()
        std::int8_t priority = 8;
        bool alive = true;
    };
    struct image_info {
        std::uint16_t process = 0;
        std::uint32_t index = 0;   ///< 0: the process's .exe, else "simmod<index>.dll"
        std::uint64_t base = 0;    ///< for a 64-bit session; base32() for a 32-bit one
        std::uint32_t size = 0;
        bool loaded = true;
        bool pinned = true;        ///< loaded with its process (stacks run through these only)
        std::uint64_t base_for(std::uint8_t pointer_size) const noexcept { return pointer_size == 4 ? (base & 0x7FFFFFFFU) : base; }
    };

    /// One change of the workload (change_kind::none: nothing could change). `index` is the process,
    /// thread or image (an index into processes(), threads(), images()); `by` the thread that causes it
    /// (the creating thread for a start, the ending thread for an end, a thread of the process for an
    /// image), the one whose stack such an event carries.
    enum class change_kind : std::uint8_t { none, process_start, process_end, thread_start, thread_end, image_load, image_unload };
    struct change {
        change_kind kind = change_kind::none;
        std::uint16_t index = 0;
        std::uint16_t by = 0;
    };

    /// Clamps the options to the capacities above (at least one of each).
    explicit workload(workload_options o = {}) noexcept : o_(o) {
        o_.processors = clamp16(o_.processors, max_processors);
        o_.processes = clamp16(o_.processes, max_processes);
        o_.threads_per_process = clamp16(o_.threads_per_process, max_threads / o_.processes);
        o_.images_per_process = clamp16(o_.images_per_process, max_images / o_.processes);
        if (o_.switch_interval == 0) o_.switch_interval = 1;
        rng_ = o_.seed * 0x9E3779B97F4A7C15ULL + 1;
        for (std::uint16_t p = 0; p < o_.processes; ++p) {
            add_process(p == 0 ? 4U : 0x400U);
            for (std::uint16_t t = 0; t < o_.threads_per_process; ++t) add_thread(p);
        }
        // processor c starts with thread c (threads beyond the processors wait; with fewer threads than
        // processors, some share one: model choice, the sim has no idle thread)
        for (std::size_t c = 0; c < o_.processors; ++c) running_[c] = static_cast<std::uint16_t>(c % thread_count_);
    }

    workload_options const& options() const noexcept { return o_; }
    /// Every process, thread and image the workload had (ended ones too: alive / loaded say which run).
    std::span<process_info const> processes() const noexcept { return {processes_, process_count_}; }
    std::span<thread_info const> threads() const noexcept { return {threads_, thread_count_}; }
    std::span<image_info const> images() const noexcept { return {images_, image_count_}; }
    /// The thread (index into threads()) running on a processor.
    std::uint16_t running(std::size_t processor) const noexcept { return running_[processor % max_processors]; }
    /// Whether a thread runs on one of the processors.
    bool is_running(std::uint16_t t) const noexcept {
        for (std::size_t c = 0; c < o_.processors; ++c)
            if (running_[c] == t) return true;
        return false;
    }

    /// A context switch on `processor`: another live thread that no other processor runs, drawn from the
    /// seed; the same thread when there is none (then no switch happens).
    std::uint16_t switch_thread(std::size_t processor) noexcept {
        std::size_t const self = processor % max_processors;
        std::uint16_t& r = running_[self];
        std::size_t const first = as_size(next() % thread_count_);
        for (std::size_t i = 0; i < thread_count_; ++i) {
            auto const t = static_cast<std::uint16_t>((first + i) % thread_count_);
            bool busy = t == r || !threads_[t].alive;
            for (std::size_t c = 0; c < o_.processors && !busy; ++c) busy = c != self && running_[c] == t;
            if (!busy) return r = t;
        }
        return r;
    }
    /// Which of its stack_variants call stacks a thread is in (drawn per event).
    std::uint32_t draw_variant() noexcept { return static_cast<std::uint32_t>(next() % stack_variants); }
    /// The delay to the next change, in 100 ns units (lifecycle_interval 0: never).
    std::uint64_t draw_change_delay() noexcept {
        std::uint64_t const i = o_.lifecycle_interval;
        return i == 0 ? ~std::uint64_t{0} : i / 2 + next() % i + 1;
    }

    /// The call stack of thread `t` in variant `v`, deepest frame first (the instruction pointer), every
    /// frame inside one of the images its process started with. Returns the frame count (2..max_frames).
    std::size_t frames(std::uint16_t t, std::uint32_t v, std::uint8_t pointer_size, std::uint64_t (&out)[max_frames]) const noexcept {
        process_info const& pr = processes_[threads_[t].process];
        std::size_t const n = 2 + (t + v) % (max_frames - 1);
        for (std::size_t i = 0; i < n; ++i) {
            image_info const& img = images_[pr.first_image + (i + v) % pr.pinned];
            out[i] = img.base_for(pointer_size) + 0x1000U + 0x40U * v + 0x100U * i + 4U * t;
        }
        return n;
    }

    /// Draws the next change from the seed, without making it: a kind, then one of the processes, threads
    /// or images it can apply to (another kind when none can). What can change (model choices): process 0
    /// never ends; a process ends only when none of its threads runs on a processor, a thread only when it
    /// does not run and is not its process's last one (the last ends with the process); only DLLs loaded
    /// after their process started unload; a start needs room in the capacities above.
    change draw_change() noexcept {
        auto const first = static_cast<std::uint8_t>(next() % 6);
        std::uint64_t const pick = next();
        for (std::uint8_t i = 0; i < 6; ++i) {
            auto const kind = static_cast<change_kind>(1 + (first + i) % 6);
            std::size_t const n = candidates(kind, 0, false);
            if (n != 0) {
                std::size_t const chosen = candidates(kind, as_size(pick % n), true);
                return {kind, static_cast<std::uint16_t>(chosen), doer(kind, static_cast<std::uint16_t>(chosen))};
            }
        }
        return {};
    }
    /// Makes a drawn change. For a start, the new process's, thread's or image's index replaces the
    /// change's index (a process starts with its images and one thread: that thread is `by`).
    change apply(change c) noexcept {
        switch (c.kind) {
        case change_kind::none: break;
        case change_kind::process_start: {
            std::uint16_t const parent = c.index;
            c.index = add_process(processes_[parent].process_id);
            c.by = add_thread(c.index);
            break;
        }
        case change_kind::process_end:
            processes_[c.index].alive = false;
            for (std::size_t t = 0; t < thread_count_; ++t)
                if (threads_[t].process == c.index) threads_[t].alive = false;
            for (std::size_t i = 0; i < image_count_; ++i)
                if (images_[i].process == c.index) images_[i].loaded = false;
            break;
        case change_kind::thread_start: c.index = add_thread(c.index); break;
        case change_kind::thread_end: threads_[c.index].alive = false; break;
        case change_kind::image_load: {
            process_info& pr = processes_[c.index];
            c.index = add_image(c.index, pr.next_dll++, false);
            break;
        }
        case change_kind::image_unload: images_[c.index].loaded = false; break;
        }
        return c;
    }
    /// A live thread of process p (the first), or threads().size() when it has none.
    std::uint16_t first_thread_of(std::uint16_t p) const noexcept {
        for (std::size_t t = 0; t < thread_count_; ++t)
            if (threads_[t].alive && threads_[t].process == p) return static_cast<std::uint16_t>(t);
        return static_cast<std::uint16_t>(thread_count_);
    }

private:
    static std::uint16_t clamp16(std::uint16_t v, std::size_t cap) noexcept {
        if (v == 0) return 1;
        return v > cap ? static_cast<std::uint16_t>(cap) : v;
    }
    std::uint64_t next() noexcept { // splitmix64: deterministic and good enough for a workload
        std::uint64_t z = (rng_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// A process with its pinned images (the .exe and images_per_process - 1 DLLs); ids follow the index.
    std::uint16_t add_process(std::uint32_t parent_id) noexcept {
        auto const p = static_cast<std::uint16_t>(process_count_++);
        processes_[p] = {0x400U + 4U * p, parent_id, p, static_cast<std::uint16_t>(image_count_), o_.images_per_process,
                         o_.images_per_process, true};
        for (std::uint16_t i = 0; i < o_.images_per_process; ++i) add_image(p, i, true);
        return p;
    }
    std::uint16_t add_thread(std::uint16_t p) noexcept {
        auto const t = static_cast<std::uint16_t>(thread_count_++);
        threads_[t] = {0x2000U + 4U * static_cast<std::uint32_t>(t), p, static_cast<std::int8_t>(8 + next() % 8), true};
        return t;
    }
    std::uint16_t add_image(std::uint16_t p, std::uint32_t number, bool pinned) noexcept {
        // x64 user images at 0x7FF6'xxxx'0000 (a 32-bit session sees the low 31 bits: still user space),
        // 1 MB apart in the process's 16 MB region; DLLs loaded later take the region's free slots in turn
        // (model choice: a slot is reused once its DLL may have unloaded)
        std::uint32_t const pinned_slots = o_.images_per_process;
        std::uint32_t const slot = pinned || pinned_slots >= 16 ? number : pinned_slots + (number - pinned_slots) % (16 - pinned_slots);
        std::uint64_t const base = 0x00007FF600000000ULL + (std::uint64_t{p} << 24) + (std::uint64_t{slot} << 20);
        auto const i = static_cast<std::uint16_t>(image_count_++);
        images_[i] = {p, number, base, 0x80000U, true, pinned};
        return i;
    }
    /// How many processes / threads / images a change of `kind` can apply to; with `take`, the index of
    /// the `nth` one instead.
    std::size_t candidates(change_kind kind, std::size_t nth, bool take) const noexcept {
        std::size_t n = 0;
        auto const count = [&](bool ok) noexcept {
            if (!ok) return false;
            if (take && n == nth) return true;
            ++n;
            return false;
        };
        switch (kind) {
        case change_kind::none: break;
        case change_kind::process_start:
            if (process_count_ >= max_processes || thread_count_ >= max_threads || image_count_ + o_.images_per_process > max_images) return 0;
            [[fallthrough]];
        case change_kind::thread_start:
            if (thread_count_ >= max_threads) return 0;
            [[fallthrough]];
        case change_kind::image_load:
            if (kind == change_kind::image_load && image_count_ >= max_images) return 0;
            for (std::size_t p = 0; p < process_count_; ++p)
                if (count(processes_[p].alive)) return p;
            break;
        case change_kind::process_end:
            for (std::size_t p = 1; p < process_count_; ++p) {
                bool ok = processes_[p].alive;
                for (std::size_t t = 0; t < thread_count_ && ok; ++t)
                    ok = !(threads_[t].alive && threads_[t].process == p && is_running(static_cast<std::uint16_t>(t)));
                if (count(ok)) return p;
            }
            break;
        case change_kind::thread_end:
            for (std::size_t t = 0; t < thread_count_; ++t) {
                thread_info const& th = threads_[t];
                bool ok = th.alive && !is_running(static_cast<std::uint16_t>(t));
                if (ok) { // not the process's last thread
                    std::size_t others = 0;
                    for (std::size_t u = 0; u < thread_count_; ++u) others += u != t && threads_[u].alive && threads_[u].process == th.process ? 1U : 0U;
                    ok = others != 0;
                }
                if (count(ok)) return t;
            }
            break;
        case change_kind::image_unload:
            for (std::size_t i = 0; i < image_count_; ++i)
                if (count(images_[i].loaded && !images_[i].pinned)) return i;
            break;
        }
        return take ? 0 : n;
    }
    /// The thread that causes a change (see change::by), before it is made.
    std::uint16_t doer(change_kind kind, std::uint16_t index) const noexcept {
        switch (kind) {
        case change_kind::thread_end: return index;
        case change_kind::image_unload: return first_thread_of(images_[index].process);
        case change_kind::process_end: { // the process's last thread: the one with the highest index
            std::uint16_t last = first_thread_of(index);
            for (std::size_t t = 0; t < thread_count_; ++t)
                if (threads_[t].alive && threads_[t].process == index) last = static_cast<std::uint16_t>(t);
            return last;
        }
        default: return first_thread_of(index); // a start: a thread of the (parent) process
        }
    }

    workload_options o_;
    std::uint64_t rng_ = 0;
    process_info processes_[max_processes] = {};
    thread_info threads_[max_threads] = {};
    image_info images_[max_images] = {};
    std::size_t process_count_ = 0;
    std::size_t thread_count_ = 0;
    std::size_t image_count_ = 0;
    std::uint16_t running_[max_processors] = {};
};

// ---- where the bytes go --------------------------------------------------------------------------------

/// Receives the recorded bytes at their file offsets (a file, or a real-time consumer: buffers in the
/// order they are flushed). `write` may be called again for offset 0 (the finalized header buffer).
struct byte_sink {
    void (*write)(void* context, std::uint64_t offset, std::span<std::byte const> bytes) noexcept = nullptr;
    void* context = nullptr;
};

/// A file in the caller's memory: what a sim session with a log file writes. Bytes past the storage
/// are not kept (overflowed() says so).
class memory_file {
public:
    explicit memory_file(std::span<std::byte> storage) noexcept : storage_(storage) {}
    byte_sink sink() noexcept { return {&memory_file::put, this}; }
    std::span<std::byte const> bytes() const noexcept { return storage_.first(size_); }
    std::size_t size() const noexcept { return size_; }
    bool overflowed() const noexcept { return overflowed_; }

private:
    static void put(void* context, std::uint64_t offset, std::span<std::byte const> bytes) noexcept {
        auto* self = static_cast<memory_file*>(context);
        if (offset > self->storage_.size() || self->storage_.size() - offset < bytes.size()) {
            self->overflowed_ = true;
            return;
        }
        std::memcpy(self->storage_.data() + offset, bytes.data(), bytes.size());
        auto const end = as_size(offset) + bytes.size();
        if (end > self->size_) self->size_ = end;
    }
    std::span<std::byte> storage_;
    std::size_t size_ = 0;
    bool overflowed_ = false;
};

// ---- simulated providers -------------------------------------------------------------------------------

/// One event a simulated provider writes: its EVENT_DESCRIPTOR (SDK evntprov.h) and its user data (the
/// same bytes each time). A TraceLogging event also gives its metadata blob (written as the
/// EVENT_SCHEMA_TL item; its channel should then be 11, as TraceLoggingProvider.h sets it).
struct provider_event_definition {
    std::uint16_t id = 0;
    std::uint8_t version = 0;
    std::uint8_t channel = 0;
    std::uint8_t level = 4;
    std::uint8_t opcode = 0;
    std::uint16_t task = 0;
    std::uint64_t keyword = 0;
    std::span<std::byte const> payload{};
    std::span<std::byte const> metadata{};
};

/// A provider registered on the simulated machine (the views stay the caller's). While a session enables
/// it, each processor's running thread writes `events_per_ms` of its events per millisecond, which one
/// drawn from the seed (model choice: every process has the provider registered). A TraceLogging
/// provider also gives its traits blob (written as the PROV_TRAITS item of each event).
struct provider_definition {
    guid id{};
    std::span<provider_event_definition const> events{};
    std::uint32_t events_per_ms = 1;
    std::span<std::byte const> traits{};
};

/// What a session's enablement of a provider makes of one of its events, as EnableTraceEx2 documents it
/// (Microsoft Learn "EnableTraceEx2", "ENABLE_TRACE_PARAMETERS", "EVENT_FILTER_DESCRIPTOR"): whether it is
/// written, and which extended data items it carries.
struct provider_decision {
    bool write = false;
    bool stack = false; ///< EVENT_ENABLE_PROPERTY_STACK_TRACE (and the STACKWALK filter, if any, lets it)
    bool sid = false;   ///< EVENT_ENABLE_PROPERTY_SID
    bool ts_id = false; ///< EVENT_ENABLE_PROPERTY_TS_ID
};

namespace detail {
/// An EVENT_FILTER_EVENT_ID payload {FilterIn u8, Reserved u8, Count u16, Events u16[Count]} (evntprov.h)
/// decides for `id`: a filter-in list keeps only the ids it lists, a filter-out list drops them.
inline bool event_id_filter_passes(std::span<std::byte const> f, std::uint16_t id) noexcept {
    if (f.size() < 4) return true; // EnableTraceEx2 checked the size; nothing to apply
    bool const filter_in = std::to_integer<std::uint8_t>(f[0]) != 0;
    std::size_t const count = std::to_integer<std::uint8_t>(f[2]) | (std::size_t{std::to_integer<std::uint8_t>(f[3])} << 8);
    bool listed = false;
    for (std::size_t i = 0; i < count && 4 + 2 * i + 2 <= f.size(); ++i)
        listed = listed || (std::to_integer<std::uint8_t>(f[4 + 2 * i]) | (std::to_integer<std::uint8_t>(f[5 + 2 * i]) << 8)) == id;
    return filter_in == listed;
}
/// An EVENT_FILTER_TYPE_PID payload (ULONG process ids) lists `pid`.
inline bool pid_filter_passes(std::span<std::byte const> f, std::uint32_t pid) noexcept {
    for (std::size_t i = 0; i + 4 <= f.size(); i += 4) {
        std::uint32_t v = 0;
        for (std::size_t b = 0; b < 4; ++b) v |= std::uint32_t{std::to_integer<std::uint8_t>(f[i + b])} << (8 * b);
        if (v == pid) return true;
    }
    return false;
}
} // namespace detail

/// The decision for event `ev` written by process `pid`, under enablement `e` (nullptr: not enabled):
///  - level (EnableTraceEx2 Level): written when the event's level is 0 or at most the enabled level; an
///    enabled level of 0 writes every level (model choice: as the SDK's mc-generated
///    McGenLevelKeywordEnabled treats it);
///  - keywords: an event with keyword 0 is written (unless EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0); else it
///    needs a bit of MatchAnyKeyword and all of MatchAllKeyword (Microsoft Learn "EnableTraceEx2"); a
///    MatchAnyKeyword of 0 matches every keyword (model choice, as etwctl's enable_options documents it);
///  - filters (all must pass): EVENT_FILTER_TYPE_PID (the writing process is listed),
///    EVENT_FILTER_TYPE_EVENT_ID (in / out); EVENT_FILTER_TYPE_STACKWALK limits the stacks the same way;
///    other filter types are not modelled (they let every event through);
///  - enable properties: STACK_TRACE, SID and TS_ID add their extended data items.
inline provider_decision decide_provider_event(session_model const& sessions, provider_enablement const* e,
                                               provider_event_definition const& ev, std::uint32_t pid) noexcept {
    provider_decision d;
    if (!e) return d;
    if (ev.level != 0 && e->level != 0 && ev.level > e->level) return d;
    if (ev.keyword == 0) {
        if ((e->enable_property & enable_property::ignore_keyword_0) != 0) return d;
    } else {
        std::uint64_t const any = e->match_any == 0 ? ~std::uint64_t{0} : e->match_any;
        if ((ev.keyword & any) == 0 || (ev.keyword & e->match_all) != e->match_all) return d;
    }
    std::span<std::byte const> const data = sessions.filter_data(*e);
    std::size_t at = 0;
    bool stack = (e->enable_property & enable_property::stack_trace) != 0;
    for (std::uint32_t i = 0; i < e->filter_count && i < provider_enablement::max_filters; ++i) {
        std::size_t const n = e->filter_sizes[i];
        if (at > data.size() || data.size() - at < n) break;
        std::span<std::byte const> const f = data.subspan(at, n);
        at += n;
        if (e->filter_types[i] == filter_type::pid && !detail::pid_filter_passes(f, pid)) return d;
        if (e->filter_types[i] == filter_type::event_id && !detail::event_id_filter_passes(f, ev.id)) return d;
        if (e->filter_types[i] == filter_type::stackwalk && !detail::event_id_filter_passes(f, ev.id)) stack = false;
    }
    d.write = true;
    d.stack = stack;
    d.sid = (e->enable_property & enable_property::sid) != 0;
    d.ts_id = (e->enable_property & enable_property::ts_id) != 0;
    return d;
}

// ---- the recorder --------------------------------------------------------------------------------------

/// How the recorder runs (not the session's configuration: that comes from the sim's state).
struct recorder_options {
    std::uint8_t pointer_size = 8;           ///< 8: a 64-bit kernel (SYSTEM64 / PERFINFO64); 4: a 32-bit one
    std::uint32_t write_buffers_per_ms = 0;  ///< how fast the logger writes queued buffers (0: no limit)
    std::uint64_t start_filetime = 134100000000000000ULL; ///< StartTime (UTC FILETIME), 2025-12-08
    std::uint64_t start_qpc = 0x10000000ULL; ///< the raw clock at the session's start
};

/// What the recorder wrote, by kind (the counts a reader of its file must find).
struct recorded_counts {
    static constexpr std::size_t max_kinds = 32;
    struct row {
        hook_id hook{};
        std::uint64_t count = 0;
    };
    row rows[max_kinds] = {};
    std::size_t kinds = 0;
    std::uint64_t events = 0;     ///< records written (stack records and the header buffer's included)
    std::uint64_t lost = 0;       ///< events lost for lack of a buffer (stack records not counted)
    std::uint64_t buffers = 0;    ///< buffers written, the header buffer included
    std::uint64_t stacks = 0;     ///< events given a stack (StackWalk or key reference)
    std::uint64_t with_pmc = 0;   ///< events carrying the configured counters

    /// Provider events (EVENT_HEADER records), by provider and event id.
    static constexpr std::size_t max_provider_kinds = 64;
    struct provider_row {
        guid provider{};
        std::uint16_t id = 0;
        std::uint64_t count = 0;
    };
    provider_row provider_rows[max_provider_kinds] = {};
    std::size_t provider_kinds = 0;
    std::uint64_t provider_events = 0;  ///< provider events written (also in `events`)
    std::uint64_t provider_dropped = 0; ///< provider events the session's enablement and filters kept out
    std::uint64_t provider_stacks = 0;  ///< provider events with a STACK_TRACE item
    std::uint64_t with_sid = 0;         ///< ... with a SID item
    std::uint64_t with_ts_id = 0;       ///< ... with a TS_ID item

    /// How many events of this provider and id were written.
    std::uint64_t of(guid const& provider, std::uint16_t id) const noexcept {
        for (std::size_t i = 0; i < provider_kinds; ++i)
            if (provider_rows[i].provider == provider && provider_rows[i].id == id) return provider_rows[i].count;
        return 0;
    }
    void add(guid const& provider, std::uint16_t id) noexcept {
        ++events;
        ++provider_events;
        for (std::size_t i = 0; i < provider_kinds; ++i)
            if (provider_rows[i].provider == provider && provider_rows[i].id == id) {
                ++provider_rows[i].count;
                return;
            }
        if (provider_kinds < max_provider_kinds) provider_rows[provider_kinds++] = {provider, id, 1};
    }

    /// How many records of this hook were written.
    std::uint64_t of(hook_id h) const noexcept {
        for (std::size_t i = 0; i < kinds; ++i)
            if (rows[i].hook == h) return rows[i].count;
        return 0;
    }
    void add(hook_id h) noexcept {
        ++events;
        for (std::size_t i = 0; i < kinds; ++i)
            if (rows[i].hook == h) {
                ++rows[i].count;
                return;
            }
        if (kinds < max_kinds) rows[kinds++] = {h, 1};
    }
};

/// The events a sim session's configuration implies, in Windows' buffer format.
class recorder {
public:
    // hook ids (phnt ntwmi.h; Microsoft Learn's MOF class pages)
    static constexpr hook_id header_hook{0x0000}, extension_hook{0x0005};
    static constexpr hook_id process_start{0x0301}, process_end{0x0302};
    static constexpr hook_id process_dc_start{0x0303}, process_dc_end{0x0304};
    static constexpr hook_id thread_start{0x0501}, thread_end{0x0502};
    static constexpr hook_id thread_dc_start{0x0503}, thread_dc_end{0x0504};
    static constexpr hook_id image_load{0x030A}, image_unload{0x1402};
    static constexpr hook_id image_dc_start{0x1403}, image_dc_end{0x1404};
    static constexpr hook_id sampled_profile{0x0F2E}, pmc_counter_config{0x0F30}, set_interval{0x0F48};
    static constexpr hook_id collection_start{0x0F49}, collection_end{0x0F4A};
    static constexpr hook_id cswitch{0x0524}, ready_thread{0x0532};
    static constexpr hook_id stack_walk{0x1820}, stack_key_rundown{0x1824}, stack_key_user{0x1826};
    static constexpr std::uint32_t max_pmc_counters = 4; ///< what the PERFINFO header's count bits carry in practice
    static constexpr std::size_t max_providers = 8;

    /// Bytes of buffer storage the recorder needs for this session: (processors + 1) x BufferSize.
    static std::size_t storage_size(kernel const& k, std::uint16_t logger_id, workload const& w) noexcept {
        logger_record const* r = k.sessions().find(logger_id);
        std::size_t const kb = r && r->properties.buffer_size != 0 ? r->properties.buffer_size : session_model::default_buffer_kb;
        return (std::size_t{w.options().processors} + 1) * kb * 1024U;
    }

    recorder(kernel& k, std::uint16_t logger_id, workload& w, std::span<std::byte> storage, byte_sink sink,
             recorder_options options = {}) noexcept
        : k_(&k), w_(&w), sink_(sink), o_(options), logger_(logger_id) {
        if (o_.pointer_size != 4) o_.pointer_size = 8;
        provider_rng_ = w.options().seed * 0xD1B54A32D192ED03ULL + 0x5EED;
        logger_record const* r = k.sessions().find(logger_id);
        if (!r) return;
        handle_ = r->id;
        props_ = r->properties;
        buffer_bytes_ = (props_.buffer_size != 0 ? props_.buffer_size : session_model::default_buffer_kb) * 1024U;
        if (storage.size() < storage_size(k, logger_id, w) || buffer_bytes_ < 1024U) return;
        storage_ = storage;
        read_configuration(k, r->id);
        ok_ = true;
    }

    /// Whether the session exists and the storage suffices (else every call does nothing).
    bool valid() const noexcept { return ok_; }
    /// The group masks the recorder records for (read when constructed, at start() and at reconfigure()).
    group_mask const& masks() const noexcept { return masks_; }
    recorded_counts const& counts() const noexcept { return counts_; }
    /// The simulated time since start, in 100 ns units.
    std::uint64_t now() const noexcept { return now_; }

    /// Registers a simulated provider (its views must outlive the recorder); false when max_providers are
    /// registered. Which of its events reach the session is decided per event by the session's
    /// enablement of the provider at that moment (EnableTraceEx2 on the sim, before or while recording).
    bool add_provider(provider_definition const& p) noexcept {
        if (provider_count_ == max_providers) return false;
        providers_[provider_count_] = p;
        if (providers_[provider_count_].events_per_ms == 0) providers_[provider_count_].events_per_ms = 1;
        for (std::size_t c = 0; c < workload::max_processors; ++c) next_emit_[provider_count_][c] = started_ ? now_ + 1 : 1;
        ++provider_count_;
        return true;
    }

    /// Starts recording: the header buffer (header event, group-mask extension), then the rundown
    /// (DCStart), the interval rundown and the PMC configuration.
    void start() noexcept {
        if (!ok_ || started_) return;
        // the configuration as it is now (a later change is taken by reconfigure())
        if (!k_->sessions().find(logger_)) return;
        read_configuration(*k_, logger_);
        header_masks_ = masks_;
        started_ = true;
        for (std::size_t c = 0; c < processors(); ++c) {
            next_sample_[c] = 1; // phase: one tick after the start, then every interval
            next_switch_[c] = w_->options().switch_interval;
            counters_[c] = 1000U * (c + 1);
        }
        free_buffers_ = props_.maximum_buffers > processors() ? props_.maximum_buffers - static_cast<std::uint32_t>(processors()) : 0;
        next_change_ = w_->draw_change_delay();
        write_header_buffer();
        rundown(true);
        if (profile_on()) interval_event(collection_start, interval_);
        if (pmc_count_ != 0) pmc_config_event();
    }

    /// While recording: takes the session's configuration as the sim holds it now (the group masks, the
    /// stack list, stack caching, the PMC counter and event lists, the Timer source's interval), as Windows
    /// applies a change to a running session from the moment it is made. The events from now_ on follow
    /// it; a changed interval (PROFILE on) writes ProfileSetInterval, PROFILE turned on CollectionStart and
    /// turned off CollectionEnd, a changed PMC counter list PmcCounterConfig; a thread readied before
    /// DISPATCHER was turned on gets no ReadyThread (its switch a tick later does). Nothing changed: nothing
    /// happens (calling it after every command is safe). The buffers, the file and the log-file mode stay
    /// as the session started. Before start() or after stop(): does nothing.
    void reconfigure() noexcept {
        if (!ok_ || !started_ || stopped_ || !k_->sessions().find(logger_)) return;
        bool const profile_was = profile_on();
        group_mask const old_masks = masks_;
        std::uint32_t const old_interval = interval_;
        std::uint32_t old_counters[max_pmc_counters] = {};
        std::size_t const old_count = pmc_count_;
        for (std::size_t i = 0; i < pmc_count_; ++i) old_counters[i] = pmc_counters_[i];
        event_trace_properties const kept = props_; // only EnableFlags is configuration here
        read_configuration(*k_, logger_);
        kept_properties(kept);
        if (masks_.enables(perf::dispatcher) && !old_masks.enables(perf::dispatcher)) dispatcher_on_at_ = now_;
        bool const profile_is = profile_on();
        if (profile_is && (!profile_was || interval_ != old_interval)) restart_samples();
        if (profile_is && !profile_was) interval_event(collection_start, interval_);
        else if (!profile_is && profile_was) interval_event(collection_end, old_interval);
        else if (profile_is && interval_ != old_interval) interval_event(set_interval, old_interval);
        bool counters_changed = old_count != pmc_count_;
        for (std::size_t i = 0; i < pmc_count_ && !counters_changed; ++i) counters_changed = old_counters[i] != pmc_counters_[i];
        if (counters_changed && pmc_count_ != 0) pmc_config_event();
    }

    /// Lets the workload run `milliseconds` of simulated time, recording what the configuration implies.
    void advance(std::uint32_t milliseconds) noexcept {
        if (!ok_ || !started_ || stopped_) return;
        for (std::uint32_t ms = 0; ms < milliseconds; ++ms) {
            std::uint64_t const end = now_ + ticks_per_ms;
            // the workload's changes in this millisecond, each at its time: every processor runs up to it
            // (its events before the change), then the change is logged (processor 0)
            while (next_change_ < end) {
                for (std::size_t c = 0; c < processors(); ++c) run_processor(c, next_change_);
                workload::change const c = w_->draw_change();
                std::uint64_t const ticks = batch_ticks(c);
                // a change's events take one tick each (an event's stack is found by its timestamp, so two
                // events of one thread never share one); no processor may log inside that window, else
                // the change waits until after that processor's event (and is drawn again then)
                if (std::uint64_t const clear = clear_after(next_change_, ticks); clear != next_change_) {
                    next_change_ = clear;
                    continue;
                }
                lifecycle(c, next_change_);
                next_change_ += ticks + w_->draw_change_delay();
            }
            for (std::size_t c = 0; c < processors(); ++c) run_processor(c, end);
            now_ = end;
            drain(o_.write_buffers_per_ms);
        }
    }

    /// Stops recording: the rundown (DCEnd), the interval rundown, the stack-cache rundown; every
    /// buffer written; the header buffer written again with the final counts (EndTime, BuffersWritten,
    /// EventsLost, BuffersLost); the session's statistics updated (what ControlTrace STOP returns).
    void stop() noexcept {
        if (!ok_ || !started_ || stopped_) return;
        if (profile_on()) interval_event(collection_end, interval_);
        rundown(false);
        key_rundown(); // the keys referenced (none unless stack caching was on at some time)
        stopped_ = true;
        for (std::size_t c = 0; c < processors(); ++c)
            if (at_[c] > trace::buffer_header_size) queue(c);
        drain(0);
        k_->sessions().log_events(handle_, counts_.events, 64);
        if (counts_.lost != 0) k_->sessions().lose_events(handle_, static_cast<std::uint32_t>(counts_.lost));
        write_header_buffer(); // finalized, at offset 0
    }

    /// Flushes now (ControlTrace FLUSH, or the session's FlushTimer; Microsoft Learn, "EVENT_TRACE_PROPERTIES",
    /// FlushTimer): each processor's partly filled buffer is written and the processor takes a free buffer
    /// for its next event. A processor that finds no free buffer keeps its buffer (model choice).
    void flush() noexcept {
        if (!ok_ || !started_ || stopped_) return;
        for (std::size_t c = 0; c < processors(); ++c)
            if (at_[c] > trace::buffer_header_size && free_buffers_ != 0) {
                --free_buffers_;
                queue(c);
            }
    }

private:
    static constexpr std::uint64_t ticks_per_ms = 10000; // QPC at 10 MHz

    std::size_t processors() const noexcept { return w_->options().processors; }
    std::uint8_t p() const noexcept { return o_.pointer_size; }
    bool profile_on() const noexcept { return masks_.enables(perf::profile) && interval_ != 0; }
    /// The session's properties as started, but for the configuration reconfigure() takes (EnableFlags).
    void kept_properties(event_trace_properties const& kept) noexcept {
        std::uint32_t const flags = props_.enable_flags;
        props_ = kept;
        props_.enable_flags = flags;
    }
    /// The profile timer programmed anew (reconfigure()): each processor's next sample one tick after
    /// the change and after the processor's latest event (its order in the buffer), then every interval.
    void restart_samples() noexcept {
        for (std::size_t c = 0; c < processors(); ++c) next_sample_[c] = (now_ > last_[c] ? now_ : last_[c]) + 1;
    }

    void read_configuration(kernel const& k, std::uint16_t id) noexcept {
        stack_count_ = pmc_event_count_ = pmc_count_ = 0;
        if (logger_record const* r = k.sessions().find(id)) props_ = r->properties;
        masks_ = k.group_masks(id) | group_mask::from_enable_flags(props_.enable_flags);
        for (std::uint32_t h : k.stack_tracing_hooks(id))
            if (stack_count_ < max_list) stack_hooks_[stack_count_++] = static_cast<std::uint16_t>(h);
        for (std::uint32_t h : k.pmc_events(id))
            if (pmc_event_count_ < max_list) pmc_events_[pmc_event_count_++] = static_cast<std::uint16_t>(h);
        for (std::uint32_t s : k.pmc_counters(id))
            if (pmc_count_ < max_pmc_counters) pmc_counters_[pmc_count_++] = s;
        interval_ = k.interval(static_cast<std::uint32_t>(profile_source::time));
        auto const& cw = k.current_windows().state(id);
        caching_ = cw.classic.enabled || cw.unified.enabled;
    }
    static bool in(std::uint16_t const* list, std::size_t n, hook_id h) noexcept {
        for (std::size_t i = 0; i < n; ++i)
            if (list[i] == h.value) return true;
        return false;
    }

    // ---- the workload running on one processor ----------------------------------------------------
    void run_processor(std::size_t c, std::uint64_t end) noexcept {
        for (;;) {
            std::uint64_t const s = profile_on() ? next_sample_[c] : ~std::uint64_t{0};
            std::uint64_t const sw = next_switch_[c];
            std::uint64_t const t = s < sw ? s : sw;
            // provider events due before the next sample or switch (and before `end`)
            std::size_t due = provider_count_;
            for (std::size_t i = 0; i < provider_count_; ++i)
                if (next_emit_[i][c] < end && next_emit_[i][c] < t && (due == provider_count_ || next_emit_[i][c] < next_emit_[due][c])) due = i;
            if (due != provider_count_) {
                provider_event(c, due, next_emit_[due][c]);
                std::uint64_t const period = ticks_per_ms / providers_[due].events_per_ms;
                next_emit_[due][c] += (period < 2 ? 1 : period / 2 + provider_draw() % period); // jittered, mean `period`
                continue;
            }
            if (t >= end) return;
            counters_[c] += 1234U; // the processor's counters run between events
            if (s <= sw) {
                sample(c, t);
                next_sample_[c] += interval_;
            } else {
                context_switch(c, t);
                next_switch_[c] += w_->options().switch_interval;
            }
        }
    }
    void sample(std::size_t c, std::uint64_t t) noexcept {
        std::uint16_t const th = w_->running(c);
        std::uint32_t const v = w_->draw_variant();
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = w_->frames(th, v, p(), frames);
        std::byte payload[16] = {};
        put_ptr(payload, 0, frames[0]);
        put<std::uint32_t>(payload, p(), w_->threads()[th].thread_id);
        put<std::uint16_t>(payload, p() + 4U, 1);
        put<std::uint8_t>(payload, p() + 6U, static_cast<std::uint8_t>(w_->threads()[th].priority << 3));
        live_event(c, sampled_profile, 2, t, {payload, p() + 8U}, th, v, {frames, n});
    }
    void context_switch(std::size_t c, std::uint64_t t) noexcept {
        std::uint16_t const old = w_->running(c);
        std::uint16_t const fresh = w_->switch_thread(c);
        if (fresh == old) return; // no other thread is ready: no switch
        std::uint32_t const v = w_->draw_variant();
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = w_->frames(old, v, p(), frames);
        auto const& threads = w_->threads();
        if (masks_.enables(perf::dispatcher)) {
            std::byte ready[8] = {};
            put<std::uint32_t>(ready, 0, threads[fresh].thread_id);
            // the new thread is readied just before the switch (a tick earlier, never before the
            // processor's previous event): an event's stack is found by its timestamp
            std::uint64_t const ready_at = t - 1 < last_[c] ? last_[c] : t - 1;
            // a thread readied before DISPATCHER was turned on (reconfigure()) is not logged
            if (ready_at >= dispatcher_on_at_) live_event(c, ready_thread, 2, ready_at, ready, old, v, {frames, n});
        }
        if (masks_.enables(perf::context_switch)) {
            std::byte sw[0x18] = {};
            put<std::uint32_t>(sw, 0x00, threads[fresh].thread_id);
            put<std::uint32_t>(sw, 0x04, threads[old].thread_id);
            put<std::int8_t>(sw, 0x08, threads[fresh].priority);
            put<std::int8_t>(sw, 0x09, threads[old].priority);
            put<std::uint8_t>(sw, 0x0C, 6);  // OldThreadWaitReason: UserRequest
            put<std::uint8_t>(sw, 0x0E, 5);  // OldThreadState: Waiting
            live_event(c, cswitch, 4, t, sw, old, v, {frames, n});
        }
    }

    /// An event of the running workload: PERFINFO header, the configured counters when its hook is in
    /// the PMC event list, then its stack (or stack key) when its hook is in the stack list.
    void live_event(std::size_t c, hook_id h, std::uint8_t version, std::uint64_t t, std::span<std::byte const> payload,
                    std::uint16_t thread, std::uint32_t variant, std::span<std::uint64_t const> frames) noexcept {
        std::uint64_t const ts = o_.start_qpc + t;
        last_[c] = t;
        std::size_t const pmc = in(pmc_events_, pmc_event_count_, h) ? pmc_count_ : 0;
        bool const stack = in(stack_hooks_, stack_count_, h);
        std::size_t const size = 0x10 + 8 * pmc + payload.size();
        // the stack record: PERFINFO header (0x10), EventTimeStamp, StackProcess, StackThread (0x10), then
        // the frames (StackWalk) or the key (StackKeyUser)
        std::size_t const stack_size = !stack ? 0 : caching_ ? 0x20U + p() : 0x20U + frames.size() * p();
        if (!reserve(c, align8(size) + align8(stack_size))) return;
        std::byte* const at = perfinfo(c, h, version, ts, size, pmc);
        for (std::size_t i = 0; i < pmc; ++i)
            put<std::uint64_t>(at, 0x10 + 8 * i, (std::uint64_t{pmc_counters_[i]} << 48) | (counters_[c] & 0xFFFFFFFFFFFFULL));
        std::memcpy(at + 0x10 + 8 * pmc, payload.data(), payload.size());
        counts_.add(h);
        if (pmc != 0) ++counts_.with_pmc;
        if (!stack) return;
        write_stack(c, ts, thread, variant, frames);
    }
    /// A StackWalk record (or, with stack caching, a StackKeyUser reference) for thread `thread`'s stack
    /// `variant` after the event at `ts`, at processor c's cursor (room already reserved).
    void write_stack(std::size_t c, std::uint64_t ts, std::uint16_t thread, std::uint32_t variant, std::span<std::uint64_t const> frames) noexcept {
        std::size_t const stack_size = caching_ ? 0x20U + p() : 0x20U + frames.size() * p();
        ++counts_.stacks;
        auto const& th = w_->threads()[thread];
        std::uint32_t const pid = w_->processes()[th.process].process_id;
        if (caching_) {
            std::byte* const s = perfinfo(c, stack_key_user, 2, ts, stack_size, 0);
            put<std::uint64_t>(s, 0x10, ts);
            put<std::uint32_t>(s, 0x18, pid);
            put<std::uint32_t>(s, 0x1C, th.thread_id);
            put_ptr(s, 0x20, stack_key(thread, variant));
            used_keys_[thread * workload::stack_variants + variant] = true;
            counts_.add(stack_key_user);
        } else {
            std::byte* const s = perfinfo(c, stack_walk, 2, ts, stack_size, 0);
            put<std::uint64_t>(s, 0x10, ts);
            put<std::uint32_t>(s, 0x18, pid);
            put<std::uint32_t>(s, 0x1C, th.thread_id);
            for (std::size_t i = 0; i < frames.size(); ++i) put_ptr(s, 0x20 + i * p(), frames[i]);
            counts_.add(stack_walk);
        }
    }
    std::uint64_t stack_key(std::uint16_t thread, std::uint32_t variant) const noexcept {
        return 0x1000U + 0x10U * (thread * workload::stack_variants + variant); // model choice: key values
    }

    // ---- provider events --------------------------------------------------------------------------------
    std::uint64_t provider_draw() noexcept { // splitmix64 of its own: provider draws leave the workload's alone
        std::uint64_t z = (provider_rng_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// The user a process runs as (model choice): process 0 as LocalSystem (S-1-5-18), every other one as
    /// one interactive user (S-1-5-21-1583242846-4096-8192-1001); SID layout from winnt.h.
    static std::size_t user_sid(std::uint16_t process, std::byte (&out)[28]) noexcept {
        std::uint32_t const user[5] = {21, 0x5E5E5E5EU, 0x1000U, 0x2000U, 1001U};
        std::uint32_t const system_sub[1] = {18};
        std::size_t const subs = process == 0 ? 1 : 5;
        put<std::uint8_t>(out, 0, 1); // Revision
        put<std::uint8_t>(out, 1, static_cast<std::uint8_t>(subs));
        for (std::size_t i = 0; i < 5; ++i) put<std::uint8_t>(out, 2 + i, 0);
        put<std::uint8_t>(out, 7, 5); // SECURITY_NT_AUTHORITY {0,0,0,0,0,5}
        for (std::size_t i = 0; i < subs; ++i) put<std::uint32_t>(out, 8 + 4 * i, process == 0 ? system_sub[i] : user[i]);
        return 8 + 4 * subs;
    }
    /// One extended data item in a buffer: {u16 8 + DataSize, u16 ExtType, u16 linkage, u16 DataSize},
    /// the data, then padding to 8 (Chappell, "EVENT_HEADER"; SDK evntcons.h EVENT_HEADER_EXT_TYPE_*).
    static std::size_t put_item(std::byte* at, std::uint16_t type, bool more, std::span<std::byte const> data) noexcept {
        put<std::uint16_t>(at, 0, static_cast<std::uint16_t>(8 + data.size()));
        put<std::uint16_t>(at, 2, type);
        put<std::uint16_t>(at, 4, more ? 1 : 0);
        put<std::uint16_t>(at, 6, static_cast<std::uint16_t>(data.size()));
        if (!data.empty()) std::memcpy(at + 8, data.data(), data.size());
        return align8(8 + data.size());
    }
    /// A provider event on processor c at time t, written by the thread running there, if the session's
    /// enablement lets it through (decide_provider_event()): an EVENT_HEADER record (EVENT_HEADER32 / 64
    /// by the session's pointer size; SDK evntcons.h, Chappell "EVENT_HEADER") with its extended items in
    /// ExtType order (model choice): SID, TS_ID, STACK_TRACE32 / 64 (MatchId 0: one stack, kernel and user
    /// together), then a TraceLogging provider's PROV_TRAITS and EVENT_SCHEMA_TL; then the user data.
    void provider_event(std::size_t c, std::size_t i, std::uint64_t t) noexcept {
        provider_definition const& pd = providers_[i];
        if (pd.events.empty()) return;
        provider_event_definition const& ev = pd.events[as_size(provider_draw() % pd.events.size())];
        auto const v = static_cast<std::uint32_t>(provider_draw() % workload::stack_variants);
        std::uint16_t const th = w_->running(c);
        auto const& thread = w_->threads()[th];
        std::uint32_t const pid = w_->processes()[thread.process].process_id;
        provider_decision const d = decide_provider_event(k_->sessions(), k_->sessions().enablement(logger_, pd.id), ev, pid);
        if (!d.write) {
            ++counts_.provider_dropped;
            return;
        }
        std::byte sid[28] = {};
        std::size_t const sid_size = d.sid ? user_sid(thread.process, sid) : 0;
        std::byte ts_id[4] = {};
        put<std::uint32_t>(ts_id, 0, thread.process == 0 ? 0U : 1U); // model choice: session 0 for process 0, else 1
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = d.stack ? w_->frames(th, v, p(), frames) : 0;
        std::byte stack[8 + 8 * workload::max_frames] = {};
        for (std::size_t f = 0; f < n; ++f) put_ptr(stack, 8 + f * p(), frames[f]); // MatchId 0, then the frames
        std::size_t const stack_size = d.stack ? 8 + n * p() : 0;
        std::size_t const items = (d.sid ? 1U : 0U) + (d.ts_id ? 1U : 0U) + (d.stack ? 1U : 0U) + (pd.traits.empty() ? 0U : 1U) +
                                  (ev.metadata.empty() ? 0U : 1U);
        std::size_t const item_bytes = (d.sid ? align8(8 + sid_size) : 0) + (d.ts_id ? 8U + 8U : 0U) + (d.stack ? align8(8 + stack_size) : 0) +
                                       (pd.traits.empty() ? 0 : align8(8 + pd.traits.size())) + (ev.metadata.empty() ? 0 : align8(8 + ev.metadata.size()));
        std::size_t const size = 0x50 + item_bytes + ev.payload.size();
        if (size > 0xFFFF) { // EVENT_HEADER.Size cannot say it: lost, as an event too large for a buffer
            ++counts_.lost;
            return;
        }
        if (!reserve(c, align8(size))) return;
        std::uint64_t const ts = o_.start_qpc + t;
        last_[c] = t;
        std::byte* const at = buffer(c) + at_[c];
        std::memset(at, 0, align8(size));
        put<std::uint16_t>(at, 0x00, static_cast<std::uint16_t>(size));
        put<std::uint8_t>(at, 0x02, p() == 8 ? trace::header_type::event_header64 : trace::header_type::event_header32);
        put<std::uint8_t>(at, 0x03, 0xC0);
        put<std::uint16_t>(at, 0x04, items != 0 ? 0x0001 : 0x0000); // EVENT_HEADER_FLAG_EXTENDED_INFO
        put<std::uint32_t>(at, 0x08, thread.thread_id);
        put<std::uint32_t>(at, 0x0C, pid);
        put<std::uint64_t>(at, 0x10, ts);
        put<std::uint32_t>(at, 0x18, pd.id.data1);
        put<std::uint16_t>(at, 0x1C, pd.id.data2);
        put<std::uint16_t>(at, 0x1E, pd.id.data3);
        for (std::size_t b = 0; b < 8; ++b) put<std::uint8_t>(at, 0x20 + b, pd.id.data4[b]);
        put<std::uint16_t>(at, 0x28, ev.id);
        put<std::uint8_t>(at, 0x2A, ev.version);
        put<std::uint8_t>(at, 0x2B, ev.channel);
        put<std::uint8_t>(at, 0x2C, ev.level);
        put<std::uint8_t>(at, 0x2D, ev.opcode);
        put<std::uint16_t>(at, 0x2E, ev.task);
        put<std::uint64_t>(at, 0x30, ev.keyword);
        std::size_t o = 0x50, left = items;
        if (d.sid) o += put_item(at + o, trace::ext_type::sid, --left != 0, {sid, sid_size});
        if (d.ts_id) o += put_item(at + o, trace::ext_type::ts_id, --left != 0, ts_id);
        if (d.stack) o += put_item(at + o, p() == 8 ? trace::ext_type::stack_trace64 : trace::ext_type::stack_trace32, --left != 0, {stack, stack_size});
        if (!pd.traits.empty()) o += put_item(at + o, trace::ext_type::prov_traits, --left != 0, pd.traits);
        if (!ev.metadata.empty()) o += put_item(at + o, trace::ext_type::event_schema_tl, --left != 0, ev.metadata);
        if (!ev.payload.empty()) std::memcpy(at + o, ev.payload.data(), ev.payload.size());
        at_[c] += static_cast<std::uint32_t>(align8(size));
        counts_.add(pd.id, ev.id);
        counts_.provider_stacks += d.stack ? 1U : 0U;
        counts_.with_sid += d.sid ? 1U : 0U;
        counts_.with_ts_id += d.ts_id ? 1U : 0U;
    }

    // ---- rundown and configuration events (processor 0) --------------------------------------------
    void rundown(bool start) noexcept {
        std::uint64_t const ts = o_.start_qpc + now_;
        if (masks_.enables(perf::process))
            for (auto const& pr : w_->processes())
                if (pr.alive) process_event(start ? process_dc_start : process_dc_end, ts, pr, no_thread);
        if (masks_.enables(perf::thread))
            for (auto const& th : w_->threads())
                if (th.alive) thread_event(start ? thread_dc_start : thread_dc_end, ts, th, no_thread);
        if (masks_.enables(perf::loader))
            for (auto const& im : w_->images())
                if (im.loaded) image_event(start ? image_dc_start : image_dc_end, ts, im, no_thread);
    }

    // ---- the workload's changes (processor 0, at the change's time) -----------------------------------
    static constexpr std::uint16_t no_thread = 0xFFFF;
    /// Draws the next change and logs it as Windows does (model choice for the order: a process starts
    /// with Process Start, its first thread's Thread Start, then an Image Load per image; it ends with a
    /// Thread End per remaining thread, an Image Unload per image, then Process End), each event with the
    /// stack of the thread that causes it when its hook is in the stack list. A group that is off logs
    /// nothing, but the workload changes all the same.
    void lifecycle(workload::change const c, std::uint64_t t) noexcept {
        std::uint64_t ts = o_.start_qpc + t - 1;
        auto const tick = [&ts]() noexcept { return ++ts; }; // each event of the change a tick later
        using kind = workload::change_kind;
        bool const procs = masks_.enables(perf::process), threads = masks_.enables(perf::thread), loads = masks_.enables(perf::loader);
        switch (c.kind) {
        case kind::none: return;
        case kind::process_start: {
            workload::change const made = w_->apply(c);
            if (procs) process_event(process_start, tick(), w_->processes()[made.index], c.by);
            if (threads) thread_event(thread_start, tick(), w_->threads()[made.by], c.by);
            if (loads)
                for (auto const& im : w_->images())
                    if (im.process == made.index && im.loaded) image_event(image_load, tick(), im, made.by);
            break;
        }
        case kind::process_end: {
            if (threads)
                for (auto const& th : w_->threads())
                    if (th.alive && th.process == c.index) thread_event(thread_end, tick(), th, static_cast<std::uint16_t>(&th - w_->threads().data()));
            if (loads)
                for (auto const& im : w_->images())
                    if (im.loaded && im.process == c.index) image_event(image_unload, tick(), im, c.by);
            if (procs) process_event(process_end, tick(), w_->processes()[c.index], c.by);
            w_->apply(c);
            break;
        }
        case kind::thread_start: {
            workload::change const made = w_->apply(c);
            if (threads) thread_event(thread_start, tick(), w_->threads()[made.index], c.by);
            break;
        }
        case kind::thread_end:
            if (threads) thread_event(thread_end, tick(), w_->threads()[c.index], c.by);
            w_->apply(c);
            break;
        case kind::image_load: {
            workload::change const made = w_->apply(c);
            if (loads) image_event(image_load, tick(), w_->images()[made.index], c.by);
            break;
        }
        case kind::image_unload:
            if (loads) image_event(image_unload, tick(), w_->images()[c.index], c.by);
            w_->apply(c);
            break;
        }
        if (ts - o_.start_qpc > last_[0]) last_[0] = ts - o_.start_qpc; // processor 0's later events come after these
    }
    /// The ticks a change's events take (one per event it may log, whichever groups are on).
    std::uint64_t batch_ticks(workload::change const& c) const noexcept {
        using kind = workload::change_kind;
        switch (c.kind) {
        case kind::none: return 0;
        case kind::process_start: return 2U + w_->options().images_per_process;
        case kind::process_end: {
            std::uint64_t n = 1;
            for (auto const& th : w_->threads()) n += th.alive && th.process == c.index ? 1U : 0U;
            for (auto const& im : w_->images()) n += im.loaded && im.process == c.index ? 1U : 0U;
            return n;
        }
        default: return 1;
        }
    }
    /// `t` when no processor logs anything in [t, t + ticks]; else a time after the events that do.
    std::uint64_t clear_after(std::uint64_t t, std::uint64_t ticks) const noexcept {
        std::uint64_t clear = t;
        for (std::size_t c = 0; c < processors(); ++c) {
            auto const check = [&](std::uint64_t first_logged, std::uint64_t at) noexcept {
                if (first_logged <= t + ticks && at + 1 > clear) clear = at + 1;
            };
            if (profile_on()) check(next_sample_[c], next_sample_[c]);
            check(next_switch_[c] - 1, next_switch_[c]); // its ReadyThread a tick before
            for (std::size_t i = 0; i < provider_count_; ++i) check(next_emit_[i][c], next_emit_[i][c]);
        }
        return clear;
    }
    /// Bytes of the stack record an event of hook `h` by thread `by` gets (0: none).
    std::size_t stack_record_size(hook_id h, std::uint16_t by, std::size_t frames) const noexcept {
        if (by == no_thread || !in(stack_hooks_, stack_count_, h)) return 0;
        return align8(caching_ ? 0x20U + p() : 0x20U + frames * p());
    }
    /// The header's thread and process for an event caused by thread `by` (the rundown: none, the process).
    std::uint32_t thread_id_of(std::uint16_t by) const noexcept { return by == no_thread ? 0U : w_->threads()[by].thread_id; }
    std::uint32_t process_id_of(std::uint16_t by, std::uint32_t otherwise) const noexcept {
        return by == no_thread ? otherwise : w_->processes()[w_->threads()[by].process].process_id;
    }
    /// The frames of thread `by`'s stack (a variant drawn for events whose hook is in the stack list).
    std::size_t lifecycle_frames(hook_id h, std::uint16_t by, std::uint32_t& v, std::uint64_t (&frames)[workload::max_frames]) noexcept {
        if (by == no_thread || !in(stack_hooks_, stack_count_, h)) return 0;
        v = w_->draw_variant();
        return w_->frames(by, v, p(), frames);
    }

    void process_event(hook_id h, std::uint64_t ts, workload::process_info const& pr, std::uint16_t by) noexcept {
        // Process_TypeGroup1 v4: key, ids, DirectoryTableBase, Flags, no SID, ImageFileName, CommandLine,
        // PackageFullName, ApplicationId
        char image[24] = {};
        std::size_t const image_len = name(image, "simproc", pr.index, ".exe");
        std::size_t const fixed = 0x18 + 2 * std::size_t{p()};
        std::size_t const size = fixed + image_len + 1 + 2 * (image_len + 1) + 2 + 2;
        std::uint32_t v = 0;
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = lifecycle_frames(h, by, v, frames);
        if (!reserve(0, align8(0x20 + size) + stack_record_size(h, by, n))) return;
        std::byte* const at = system(0, h, 4, ts, 0x20 + size, thread_id_of(by), process_id_of(by, pr.process_id));
        std::byte* const b = at + 0x20;
        put_ptr(b, 0, 0xFFFFA00000000000ULL + pr.process_id * 0x100U);
        put<std::uint32_t>(b, p() + 0U, pr.process_id);
        put<std::uint32_t>(b, p() + 4U, pr.parent_id);
        put<std::uint32_t>(b, p() + 8U, 1);
        put<std::int32_t>(b, p() + 12U, h == process_end ? 0 : 259); // the exit code (0), or STILL_ACTIVE
        put_ptr(b, p() + 16U, 0x1AA000U + pr.process_id * 0x1000U);
        std::size_t o = fixed; // Flags (0) and the empty UserSID's u32 (0) are already zero
        std::memcpy(b + o, image, image_len);
        o += image_len + 1;
        for (std::size_t i = 0; i < image_len; ++i) put<std::uint16_t>(b, o + 2 * i, static_cast<std::uint8_t>(image[i]));
        counts_.add(h);
        if (n != 0) write_stack(0, ts, by, v, {frames, n});
    }
    void thread_event(hook_id h, std::uint64_t ts, workload::thread_info const& th, std::uint16_t by) noexcept {
        std::size_t const size = 0x10 + 7 * std::size_t{p()};
        std::uint32_t v = 0;
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = lifecycle_frames(h, by, v, frames);
        if (!reserve(0, align8(0x20 + size) + stack_record_size(h, by, n))) return;
        std::uint32_t const pid = w_->processes()[th.process].process_id;
        // the header names the thread that logs it (the creator for a Start; the thread itself otherwise)
        std::uint32_t const tid = by == no_thread ? th.thread_id : thread_id_of(by);
        std::byte* const b = system(0, h, 3, ts, 0x20 + size, tid, process_id_of(by, pid)) + 0x20;
        put<std::uint32_t>(b, 0, pid);
        put<std::uint32_t>(b, 4, th.thread_id);
        std::uint64_t const stack = 0xFFFFF00000000000ULL + th.thread_id * 0x10000ULL;
        put_ptr(b, 0x08, stack);
        put_ptr(b, 0x08 + p(), stack - 0x6000U);
        put_ptr(b, 0x08 + 2 * std::size_t{p()}, 0x100000U + th.thread_id * 0x1000U);
        put_ptr(b, 0x08 + 3 * std::size_t{p()}, 0x0F0000U + th.thread_id * 0x1000U);
        put_ptr(b, 0x08 + 4 * std::size_t{p()}, (std::uint64_t{1} << processors()) - 1U); // Affinity: any processor
        put_ptr(b, 0x08 + 5 * std::size_t{p()}, w_->images()[w_->processes()[th.process].first_image].base_for(p()) + 0x1000U);
        put<std::int8_t>(b, 0x0C + 7 * std::size_t{p()}, th.priority);
        put<std::uint8_t>(b, 0x0D + 7 * std::size_t{p()}, 5);
        put<std::uint8_t>(b, 0x0E + 7 * std::size_t{p()}, 2);
        counts_.add(h);
        if (n != 0) write_stack(0, ts, by, v, {frames, n});
    }
    void image_event(hook_id h, std::uint64_t ts, workload::image_info const& im, std::uint16_t by) noexcept {
        char file[64] = {};
        std::size_t const len = im.index == 0 ? name(file, "\\Device\\HarddiskVolume1\\sim\\simproc", im.process, ".exe")
                                              : name(file, "\\SystemRoot\\System32\\simmod", im.index, ".dll");
        std::size_t const fixed = 0x20 + 3 * std::size_t{p()};
        std::size_t const size = fixed + 2 * (len + 1);
        std::uint32_t v = 0;
        std::uint64_t frames[workload::max_frames];
        std::size_t const n = lifecycle_frames(h, by, v, frames);
        if (!reserve(0, align8(0x10 + size) + stack_record_size(h, by, n))) return;
        std::byte* const b = perfinfo(0, h, 3, ts, 0x10 + size, 0) + 0x10;
        put_ptr(b, 0, im.base_for(p()));
        put_ptr(b, p(), im.size);
        put<std::uint32_t>(b, 2 * std::size_t{p()}, w_->processes()[im.process].process_id);
        put<std::uint32_t>(b, 2 * std::size_t{p()} + 8, 0x5F000000U + im.index);
        put_ptr(b, 2 * std::size_t{p()} + 0x10, im.base_for(p()));
        for (std::size_t i = 0; i < len; ++i) put<std::uint16_t>(b, fixed + 2 * i, static_cast<std::uint8_t>(file[i]));
        counts_.add(h);
        if (n != 0) write_stack(0, ts, by, v, {frames, n});
    }
    void interval_event(hook_id h, std::uint32_t old_interval) noexcept {
        // SampledProfile interval rundown or change, version 3: Source, NewInterval, OldInterval, SourceName
        // (the rundown: both the interval in force)
        std::string_view const source = name_of(profile_source::time);
        std::size_t const size = 0x10 + 0x0C + 2 * (source.size() + 1);
        if (!reserve(0, align8(size))) return;
        std::byte* const b = perfinfo(0, h, 3, o_.start_qpc + now_, size, 0) + 0x10;
        put<std::uint32_t>(b, 0, 0);
        put<std::uint32_t>(b, 4, interval_);
        put<std::uint32_t>(b, 8, old_interval);
        for (std::size_t i = 0; i < source.size(); ++i) put<std::uint16_t>(b, 0x0C + 2 * i, static_cast<std::uint8_t>(source[i]));
        counts_.add(h);
    }
    void pmc_config_event() noexcept {
        std::size_t size = 0x10 + 4;
        for (std::size_t i = 0; i < pmc_count_; ++i) size += 2 * (name_of(profile_source{pmc_counters_[i]}).size() + 1);
        if (!reserve(0, align8(size))) return;
        std::byte* const b = perfinfo(0, pmc_counter_config, 2, o_.start_qpc + now_, size, 0) + 0x10;
        put<std::uint32_t>(b, 0, static_cast<std::uint32_t>(pmc_count_));
        std::size_t o = 4;
        for (std::size_t i = 0; i < pmc_count_; ++i) {
            std::string_view const n = name_of(profile_source{pmc_counters_[i]});
            for (char ch : n) put<std::uint16_t>(b, (o += 2) - 2, static_cast<std::uint8_t>(ch));
            o += 2;
        }
        counts_.add(pmc_counter_config);
    }
    void key_rundown() noexcept {
        std::uint64_t const ts = o_.start_qpc + now_;
        for (std::uint16_t t = 0; t < w_->threads().size(); ++t)
            for (std::uint32_t v = 0; v < workload::stack_variants; ++v) {
                if (!used_keys_[t * workload::stack_variants + v]) continue;
                std::uint64_t frames[workload::max_frames];
                std::size_t const n = w_->frames(t, v, p(), frames);
                std::size_t const size = 0x10 + p() + n * p();
                if (!reserve(0, align8(size))) continue;
                std::byte* const b = perfinfo(0, stack_key_rundown, 2, ts, size, 0) + 0x10;
                put_ptr(b, 0, stack_key(t, v));
                for (std::size_t i = 0; i < n; ++i) put_ptr(b, p() + i * p(), frames[i]);
                counts_.add(stack_key_rundown);
            }
    }

    // ---- buffers -----------------------------------------------------------------------------------
    /// Room for `bytes` in processor c's current buffer, switching to a free buffer when it is full; false
    /// (the event is lost) when no buffer is free.
    bool reserve(std::size_t c, std::size_t bytes) noexcept {
        if (bytes > buffer_bytes_ - trace::buffer_header_size) { // never fits: lost (model choice)
            ++counts_.lost;
            return false;
        }
        if (at_[c] == 0) at_[c] = begin_buffer(c);
        if (buffer_bytes_ - at_[c] >= bytes) return true;
        if (free_buffers_ == 0) {
            ++counts_.lost;
            return false;
        }
        --free_buffers_;
        queue(c);
        at_[c] = begin_buffer(c);
        return true;
    }
    std::uint32_t begin_buffer(std::size_t c) noexcept {
        std::byte* const b = buffer(c);
        std::memset(b, 0xFF, buffer_bytes_); // the unused tail of a written buffer is 0xFF
        std::memset(b, 0, trace::buffer_header_size);
        return static_cast<std::uint32_t>(trace::buffer_header_size);
    }
    std::byte* buffer(std::size_t c) noexcept { return storage_.data() + (c + 1) * buffer_bytes_; }

    /// Processor c's buffer is full (or the session stops): its header is completed and it is written.
    /// The logger's backlog grows by one; drain() models how fast the logger writes it out.
    void queue(std::size_t c) noexcept {
        std::byte* const b = buffer(c);
        put<std::uint32_t>(b, 0x00, buffer_bytes_);
        put<std::uint32_t>(b, 0x04, at_[c]);
        put<std::uint32_t>(b, 0x08, at_[c]);
        put<std::uint64_t>(b, 0x10, o_.start_qpc + now_ + ticks_per_ms);
        put<std::uint64_t>(b, 0x18, ++sequence_);
        put<std::uint16_t>(b, 0x28, static_cast<std::uint16_t>(c));
        put<std::uint16_t>(b, 0x2A, logger_);
        put<std::uint32_t>(b, 0x2C, 3); // Flush
        put<std::uint32_t>(b, 0x30, at_[c]);
        put<std::uint16_t>(b, 0x34, trace::buffer_flag::proc_index);
        put<std::uint16_t>(b, 0x36, static_cast<std::uint16_t>(trace::buffer_type::generic));
        sink_.write(sink_.context, std::uint64_t{buffer_bytes_} * counts_.buffers, {b, buffer_bytes_}); // the header buffer is number 0
        ++counts_.buffers;
        ++backlog_;
        at_[c] = 0;
    }
    /// The logger writes up to `n` queued buffers (0: all); each written buffer is free again.
    void drain(std::uint32_t n) noexcept {
        std::uint32_t const k = n == 0 || n > backlog_ ? backlog_ : n;
        backlog_ -= k;
        free_buffers_ += k;
    }

    void write_header_buffer() noexcept {
        std::byte* const b = storage_.data();
        std::memset(b, 0xFF, buffer_bytes_);
        std::memset(b, 0, trace::buffer_header_size);
        std::size_t at = trace::buffer_header_size;
        std::size_t const names = 2 * (session_name().size() + 1) + 2 * (log_file().size() + 1);
        std::size_t const header = 0x20 + trace::layout::logfile_header::struct_size(p()) + names;
        std::byte* const h = b + at;
        std::memset(h, 0, header);
        system_header(h, header_hook, 2, o_.start_qpc, header, 0, 0);
        std::byte* const l = h + 0x20;
        std::size_t const tz = 0x38 + 2 * std::size_t{p()};
        put<std::uint32_t>(l, 0x00, buffer_bytes_);
        put<std::uint32_t>(l, 0x04, 0x0501000AU); // Windows 10.0, log-file layout 1.5
        put<std::uint32_t>(l, 0x08, 19045);
        put<std::uint32_t>(l, 0x0C, static_cast<std::uint32_t>(processors()));
        put<std::uint64_t>(l, 0x10, stopped_ ? o_.start_filetime + now_ : 0);
        put<std::uint32_t>(l, 0x18, 156250);
        put<std::uint32_t>(l, 0x1C, props_.maximum_file_size);
        put<std::uint32_t>(l, 0x20, props_.log_file_mode & ~log_file_mode::real_time);
        put<std::uint32_t>(l, 0x24, stopped_ ? static_cast<std::uint32_t>(counts_.buffers) : 1U); // the header buffer included
        put<std::uint32_t>(l, 0x28, 1);
        put<std::uint32_t>(l, 0x2C, p());
        put<std::uint32_t>(l, 0x30, static_cast<std::uint32_t>(counts_.lost));
        put<std::uint32_t>(l, 0x34, 3000);
        put<std::uint64_t>(l, tz + 0xB0, o_.start_filetime - 36000000000ULL); // BootTime: an hour earlier
        put<std::uint64_t>(l, tz + 0xB8, 10000000ULL);                         // PerfFreq
        put<std::uint64_t>(l, tz + 0xC0, o_.start_filetime);                   // StartTime
        put<std::uint32_t>(l, tz + 0xC8, static_cast<std::uint32_t>(trace::clock_type::qpc));
        put<std::uint32_t>(l, tz + 0xCC, 0);                                   // BuffersLost
        std::size_t o = trace::layout::logfile_header::struct_size(p());
        for (char16_t ch : session_name()) put<std::uint16_t>(l, (o += 2) - 2, ch);
        o += 2;
        for (char16_t ch : log_file()) put<std::uint16_t>(l, (o += 2) - 2, ch);
        at += align8(header);
        if (!stopped_) counts_.add(header_hook);
        // the group masks in force at the start (ETW_KERNEL_HEADER_EXTENSION, version 2)
        std::byte* const x = b + at;
        std::memset(x, 0, 0x20 + 0x24);
        system_header(x, extension_hook, 2, o_.start_qpc, 0x20 + 0x24, 0, 0);
        for (std::size_t i = 0; i < 8; ++i) put<std::uint32_t>(x, 0x20 + 4 * i, header_masks_.masks[i]);
        put<std::uint32_t>(x, 0x40, k_->kernel_version());
        at += align8(0x20 + 0x24);
        if (!stopped_) counts_.add(extension_hook);
        put<std::uint32_t>(b, 0x00, buffer_bytes_);
        put<std::uint32_t>(b, 0x04, static_cast<std::uint32_t>(at));
        put<std::uint32_t>(b, 0x08, static_cast<std::uint32_t>(at));
        put<std::uint16_t>(b, 0x2A, logger_);
        put<std::uint32_t>(b, 0x2C, 3);
        put<std::uint32_t>(b, 0x30, static_cast<std::uint32_t>(at));
        put<std::uint16_t>(b, 0x34, trace::buffer_flag::flush_marker);
        put<std::uint16_t>(b, 0x36, static_cast<std::uint16_t>(trace::buffer_type::header));
        sink_.write(sink_.context, 0, {b, buffer_bytes_});
        if (!stopped_) ++counts_.buffers;
    }
    std::u16string_view session_name() const noexcept {
        logger_record const* r = k_->sessions().find(logger_);
        return r ? k_->sessions().name(*r) : std::u16string_view{};
    }
    std::u16string_view log_file() const noexcept {
        logger_record const* r = k_->sessions().find(logger_);
        return r ? k_->sessions().log_file(*r) : std::u16string_view{};
    }

    // ---- record headers ----------------------------------------------------------------------------
    /// A SYSTEM_TRACE_HEADER record of `size` bytes (header included) at processor c's cursor.
    std::byte* system(std::size_t c, hook_id h, std::uint8_t version, std::uint64_t ts, std::size_t size, std::uint32_t tid,
                      std::uint32_t pid) noexcept {
        std::byte* const at = buffer(c) + at_[c];
        std::memset(at, 0, align8(size));
        system_header(at, h, version, ts, size, tid, pid);
        at_[c] += static_cast<std::uint32_t>(align8(size));
        return at;
    }
    void system_header(std::byte* at, hook_id h, std::uint8_t version, std::uint64_t ts, std::size_t size, std::uint32_t tid,
                       std::uint32_t pid) const noexcept {
        put<std::uint16_t>(at, 0, version);
        put<std::uint8_t>(at, 2, p() == 8 ? trace::header_type::system64 : trace::header_type::system32);
        put<std::uint8_t>(at, 3, 0xC0);
        put<std::uint16_t>(at, 4, static_cast<std::uint16_t>(size));
        put<std::uint16_t>(at, 6, h.value);
        put<std::uint32_t>(at, 8, tid);
        put<std::uint32_t>(at, 12, pid);
        put<std::uint64_t>(at, 16, ts);
    }
    /// A PERFINFO_TRACE_HEADER record of `size` bytes with `pmc` counter values after the header.
    std::byte* perfinfo(std::size_t c, hook_id h, std::uint8_t version, std::uint64_t ts, std::size_t size, std::size_t pmc) noexcept {
        std::byte* const at = buffer(c) + at_[c];
        std::memset(at, 0, align8(size));
        put<std::uint8_t>(at, 0, version);
        put<std::uint8_t>(at, 1, static_cast<std::uint8_t>(pmc & 7U));
        put<std::uint8_t>(at, 2, p() == 8 ? trace::header_type::perfinfo64 : trace::header_type::perfinfo32);
        put<std::uint8_t>(at, 3, 0xC0);
        put<std::uint16_t>(at, 4, static_cast<std::uint16_t>(size));
        put<std::uint16_t>(at, 6, h.value);
        put<std::uint64_t>(at, 8, ts);
        at_[c] += static_cast<std::uint32_t>(align8(size));
        return at;
    }

    static constexpr std::size_t align8(std::size_t n) noexcept { return (n + 7U) & ~std::size_t{7}; }
    template <class T>
    static void put(std::byte* at, std::size_t offset, T v) noexcept {
        auto u = static_cast<std::make_unsigned_t<T>>(v);
        for (std::size_t i = 0; i < sizeof(T); ++i) at[offset + i] = static_cast<std::byte>((static_cast<std::uint64_t>(u) >> (8 * i)) & 0xFFU);
    }
    void put_ptr(std::byte* at, std::size_t offset, std::uint64_t v) const noexcept {
        if (p() == 8) put<std::uint64_t>(at, offset, v);
        else put<std::uint32_t>(at, offset, static_cast<std::uint32_t>(v));
    }
    template <std::size_t N>
    static std::size_t name(char (&out)[N], std::string_view prefix, std::uint32_t n, std::string_view suffix) noexcept {
        std::size_t o = 0;
        for (char ch : prefix)
            if (o + 1 < N) out[o++] = ch;
        char digits[10] = {};
        std::size_t d = 0;
        do digits[d++] = static_cast<char>('0' + n % 10); while ((n /= 10) != 0 && d < sizeof digits);
        while (d != 0 && o + 1 < N) out[o++] = digits[--d];
        for (char ch : suffix)
            if (o + 1 < N) out[o++] = ch;
        return o;
    }

    static constexpr std::size_t max_list = 256;

    kernel* k_;
    workload* w_;
    byte_sink sink_;
    recorder_options o_;
    std::uint16_t logger_ = 0;
    std::uint64_t handle_ = 0;
    event_trace_properties props_{};
    std::uint32_t buffer_bytes_ = 0;
    std::span<std::byte> storage_{};
    bool ok_ = false, started_ = false, stopped_ = false;

    group_mask masks_{};
    group_mask header_masks_{}; ///< the masks at start() (the header's extension event)
    std::uint64_t dispatcher_on_at_ = 0; ///< when reconfigure() last turned DISPATCHER on
    std::uint16_t stack_hooks_[max_list] = {};
    std::size_t stack_count_ = 0;
    std::uint16_t pmc_events_[max_list] = {};
    std::size_t pmc_event_count_ = 0;
    std::uint32_t pmc_counters_[max_pmc_counters] = {};
    std::size_t pmc_count_ = 0;
    std::uint32_t interval_ = 0;
    bool caching_ = false;
    bool used_keys_[workload::max_threads * workload::stack_variants] = {};

    provider_definition providers_[max_providers] = {};
    std::size_t provider_count_ = 0;
    std::uint64_t next_emit_[max_providers][workload::max_processors] = {};
    std::uint64_t provider_rng_ = 0x5EED0000;
    std::uint64_t next_change_ = ~std::uint64_t{0};

    std::uint64_t now_ = 0;
    std::uint64_t next_sample_[workload::max_processors] = {};
    std::uint64_t next_switch_[workload::max_processors] = {};
    std::uint64_t counters_[workload::max_processors] = {};
    std::uint64_t last_[workload::max_processors] = {}; ///< the processor's latest event time
    std::uint32_t at_[workload::max_processors] = {};
    std::uint32_t free_buffers_ = 0;
    std::uint32_t backlog_ = 0;
    std::uint64_t sequence_ = 0;
    recorded_counts counts_{};
};

} // namespace sim
ETWCTL_END_NAMESPACE
