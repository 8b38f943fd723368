// The real traces recorded by Windows (tests/trace/data, PerfView's test inputs with their licence),
// read by etwctl and compared with what TraceEvent decoded from the same files (the .baseline.txt
// beside each): the header, the count of every kernel event kind, and the merge in time order.
#include "etwctl_test.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "etwctl/trace.hpp"
#include "stack_cache_fixture.hpp"
#include "trace_files.hpp"

namespace trace = etwctl::trace;
using etwctl::hook_id;

namespace {

/// The COUNT lines of a baseline: "COUNT <Provider>/<Task>[/<Opcode>]:<n>".
std::map<std::string, std::uint64_t> baseline_counts(std::string const& text) {
    std::map<std::string, std::uint64_t> counts;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("COUNT ", 0) != 0) continue;
        auto const colon = line.rfind(':');
        counts[line.substr(6, colon - 6)] = std::strtoull(line.c_str() + colon + 1, nullptr, 10);
    }
    return counts;
}

/// TraceEvent's names of the kernel kinds the reader types (traces.md §4), with their hook ids.
struct baseline_kind {
    char const* traceevent_name;
    std::uint16_t hook;
};
constexpr baseline_kind kernel_kinds[] = {
    {"Windows Kernel/EventTrace", 0x0000},
    {"Windows Kernel/EventTrace/Extension", 0x0005},
    {"Windows Kernel/EventTrace/EndExtension", 0x0020},
    {"Windows Kernel/EventTrace/RundownComplete", 0x0008},
    {"Windows Kernel/PerfInfo/CollectionStart", 0x0F49},
    {"Windows Kernel/PerfInfo/CollectionEnd", 0x0F4A},
    {"Windows Kernel/Process/Start", 0x0301},
    {"Windows Kernel/Process/Stop", 0x0302},
    {"Windows Kernel/Process/DCStart", 0x0303},
    {"Windows Kernel/Process/DCStop", 0x0304},
    {"Windows Kernel/Process/Defunct", 0x0327},
    {"Windows Kernel/Thread/Start", 0x0501},
    {"Windows Kernel/Thread/Stop", 0x0502},
    {"Windows Kernel/Image/Load", 0x030A},
    {"Windows Kernel/Image/Unload", 0x1402},
    {"Windows Kernel/Image/DCStart", 0x1403},
    {"Windows Kernel/Image/DCStop", 0x1404},
};

struct whole_trace {
    std::vector<std::byte> bytes;
    std::vector<std::byte> storage;
    trace::trace_file file;
};

} // namespace

TEST_CASE("real traces: net.4.5.2.x86.etl opens with TraceEvent's header values") {
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    REQUIRE(bytes.size() == 4388184);
    trace::fault why;
    auto f = trace::trace_file::open(bytes, &why);
    REQUIRE_MESSAGE(f.has_value(), etwctl::describe(f.error()));
    auto const& h = f->header();
    // the baseline's first EVENT line (Windows Kernel/EventTrace)
    CHECK(h.buffer_size() == 65536);
    CHECK(h.provider_version() == 9200);
    CHECK(h.number_of_processors() == 8);
    CHECK(h.timer_resolution() == 156250);
    CHECK(h.maximum_file_size() == 500);
    CHECK(h.log_file_mode() == 67174401U);
    CHECK(h.buffers_written() == 276);
    CHECK(h.start_buffers() == 1);
    CHECK(h.pointer_size() == 8);
    CHECK(h.events_lost() == 0);
    CHECK(h.cpu_speed_mhz() == 3592);
    CHECK(h.perf_freq() == 10000000);
    CHECK(h.buffers_lost() == 0);
    CHECK(h.logger_name().equals_ascii("Relogger"));
    CHECK(h.log_file_name().equals_ascii("[multiple files]"));
    CHECK(static_cast<unsigned>(h.clock_type()) == 1); // ReservedFlags=1
    CHECK(f->compressed_mode());
    CHECK(f->clock().convertible());
}

TEST_CASE("real traces: every buffer of net.4.5.2.x86.etl is read, in time order, with no fault or loss") {
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f.has_value());
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader r(*f, storage);
    REQUIRE(r.init_fault().what == etwctl::rule::ok);
    CHECK(r.buffer_count() == 276);
    CHECK(r.stream_count() == 9); // the header buffer + 8 processors

    std::map<std::uint16_t, std::uint64_t> by_hook;
    std::uint64_t records = 0, last = 0;
    bool header_stream = true, in_order = true;
    trace::event_ref e;
    while (r.next(e)) {
        ++records;
        if (e.rec.has_hook()) ++by_hook[e.rec.hook().value];
        if (e.stream != 0) {
            if (header_stream) header_stream = false, last = e.rec.timestamp();
            if (e.rec.timestamp() < last) in_order = false;
            last = e.rec.timestamp();
        } else {
            CHECK(header_stream); // the header buffer's records come first
        }
    }
    CHECK(in_order);
    CHECK(r.losses().faults == 0);
    CHECK_FALSE(r.losses().any());
    INFO("records: " << records);

    auto const counts = baseline_counts(etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt"));
    for (auto const& k : kernel_kinds) {
        auto const it = counts.find(k.traceevent_name);
        REQUIRE_MESSAGE(it != counts.end(), k.traceevent_name);
        CHECK_MESSAGE(by_hook[k.hook] == it->second, k.traceevent_name);
    }
}

TEST_CASE("real traces: a user-mode stack part past the look-ahead is delivered with its frames and names its event") {
    // The kernel logs an event's user-mode stack part when the thread returns to user mode: in this trace
    // 605 times after the 8 records event_stream looks at (31 of them for samples, most of the others for
    // DiskIO read-init events), three in four on another processor. Such a part is delivered as its own
    // event (StackKeyUser here) whose stack() is its frames, and its EventTimeStamp and StackThread name an
    // earlier event whose stack has the kernel part only.
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f.has_value());
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    etwctl_test::owned_stack_cache cache;
    etwctl_test::build_stack_cache(*f, storage, cache);
    trace::reader r(*f, storage);
    trace::event_stream s(r, &cache.cache);
    auto const has_user_frame = [](trace::stack_view const& st) {
        for (auto const frame : st)
            if (!trace::stack_cache::is_kernel_address(frame, 8)) return true; // a 64-bit trace
        return false;
    };
    struct waiting {
        std::uint16_t hook = 0;
        bool completed = false;
    };
    std::map<std::pair<std::uint32_t, std::uint64_t>, waiting> kernel_only; // (thread, timestamp) of events
    std::size_t orphans = 0, orphans_with_frames = 0, completing = 0, completing_samples = 0;
    trace::event e;
    while (s.next(e)) {
        auto const& rec = e.rec();
        if (!rec.has_hook()) continue;
        if (rec.hook() == hook_id{0x1826}) {
            ++orphans;
            auto const payload = rec.payload();
            REQUIRE(payload.size() >= 0x18);
            if (!e.stack().empty()) ++orphans_with_frames;
            std::uint64_t ts = 0;
            std::uint32_t tid = 0;
            std::memcpy(&ts, payload.data(), 8);
            std::memcpy(&tid, payload.data() + 0x0C, 4);
            auto const it = kernel_only.find({tid, ts});
            if (it != kernel_only.end() && !it->second.completed) {
                it->second.completed = true;
                ++completing;
                completing_samples += it->second.hook == 0x0F2E ? 1U : 0U;
            }
        } else if (rec.hook().group() != 0x18 && !e.stack().empty() && !has_user_frame(e.stack())) {
            kernel_only.emplace(std::pair{trace::stack_thread_of(rec), rec.timestamp()}, waiting{rec.hook().value, false}); // the first keeps it
        }
    }
    CHECK(orphans == 616);
    CHECK(orphans_with_frames == orphans); // every key is defined in this trace (a Delete or Rundown)
    CHECK(completing == 605);
    CHECK(completing_samples == 31);
}
