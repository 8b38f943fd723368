// Fuzz harness: a trace file as untrusted input (etwctl/trace/reader.hpp, format.hpp, events.hpp, the
// typed kernel views of kernel_events.hpp). The input is a whole .etl file: trace_file::open checks the
// header buffer and event, the reader indexes and merges every buffer (compressed ones decompressed into
// the harness's storage), event_stream attaches stacks, and every typed handler and every accessor of
// every record is run. Properties: no access outside the file's bytes (the input sits in a buffer whose
// surroundings ASan poisons) or the storage; the reader ends (each step consumes a record or a buffer);
// faults are counted consistently (first_fault set exactly when faults > 0; every fault names an offset
// inside the file); every record the reader delivers lies inside the file or the storage. (Time order is
// the input's: a hostile buffer's records may go back in time, and the merge keeps each buffer's order.)
//
// A second mode walks the input as the records of one buffer with record_reader directly (every header
// kind, every size), from a byte that selects the start offset: each step either fails with a rule or
// moves forward by at least 8 bytes and stays inside the data.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "fuzz_support.hpp"
#include "fuzz_trace_support.hpp"

#include "etwctl/trace.hpp"

namespace trace = etwctl::trace;
using etwctl::rule;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

constexpr std::uint8_t record_walk_marker = 0x5A;
constexpr std::size_t max_storage = std::size_t{64} << 20; // the harness's budget; larger needs are skipped

volatile std::uint64_t sink = 0; // keeps the accessors' results alive

void touch(trace::record const& r) { sink = sink + etwctl_fuzz::touch_record(r); }

template <class View>
void touch_view(View const& e) {
    std::uint64_t v = e.stack().size() ^ e.pmc().size() ^ static_cast<std::uint64_t>(e.time().time_since_epoch().count());
    for (auto const f : e.stack()) v ^= f;
    sink = sink + v;
}

void read_file(std::span<std::byte const> file) {
    trace::fault why;
    auto f = trace::trace_file::open(file, &why);
    if (!f) {
        FUZZ_CHECK(why.what != rule::ok);
        FUZZ_CHECK(why.file_offset <= file.size());
        return;
    }
    std::size_t const need = trace::reader::storage_size(*f);
    if (need > max_storage) return;
    guarded_buffer storage(need);
    std::uint64_t faults_seen = 0;
    trace::reader_options options;
    options.on_fault = [](trace::fault const& x, void* ctx) noexcept {
        ++*static_cast<std::uint64_t*>(ctx);
        char text[256];
        (void)x.describe(text);
    };
    options.fault_context = &faults_seen;
    {
        poisoned_scope g(storage);
        trace::reader r(*f, {reinterpret_cast<std::byte*>(storage.data()), storage.size()}, options);
        FUZZ_CHECK(r.init_fault().what == rule::ok);
        trace::event_stream s(r);
        auto const rep = trace::dispatch(
            s,
            trace::on_any([&](trace::event const& e) {
                touch(e.rec());
                auto const* const b = e.rec().bytes().data();
                bool const in_file = b >= file.data() && b + e.rec().bytes().size() <= file.data() + file.size();
                bool const in_storage = b >= reinterpret_cast<std::byte const*>(storage.data()) &&
                                        b + e.rec().bytes().size() <= reinterpret_cast<std::byte const*>(storage.data()) + storage.size();
                FUZZ_CHECK(in_file || in_storage);
            }),
            trace::on<"SampledProfile">([](trace::sampled_profile const& e) { touch_view(e); sink = sink + e.instruction_pointer() + e.thread_id(); }),
            trace::on<"CSwitch">([](trace::cswitch const& e) { touch_view(e); sink = sink + e.new_thread_id(); }),
            trace::on<"ReadyThread">([](trace::ready_thread const& e) { touch_view(e); sink = sink + e.thread_id(); }),
            trace::on<"ThreadDCStart">([](trace::thread_event const& e) { touch_view(e); sink = sink + e.thread_id() + e.thread_name().size(); }),
            trace::on<"ProcessDCStart">([](trace::process_event const& e) { touch_view(e); sink = sink + e.image_file_name().size() + e.command_line().size(); }),
            trace::on<"ImageLoad">([](trace::image_event const& e) { touch_view(e); sink = sink + e.image_base() + e.file_name().size(); }),
            trace::on<"StackWalk">([](trace::stack_walk_event const& e) { touch_view(e); sink = sink + e.frame_count(); }),
            trace::on<"PmcCounterConfig">([](trace::pmc_counter_config const& e) { touch_view(e); sink = sink + e.counter_count(); }),
            trace::on<"EventTraceExtension">([](trace::header_extension const& e) { touch_view(e); sink = sink + e.group_mask(0); }),
            trace::on_raw([](trace::raw_event const& e) { sink = sink + static_cast<std::uint64_t>(e.reason()); }));
        (void)rep;
        FUZZ_CHECK((r.losses().faults == 0) == (r.first_fault().what == rule::ok));
        FUZZ_CHECK(faults_seen == r.losses().faults);
        if (r.losses().faults != 0) FUZZ_CHECK(r.first_fault().file_offset <= file.size());
    }
}

void walk_records(std::span<std::byte const> data, std::size_t start) {
    std::size_t at = start;
    while (!trace::at_end_of_records(data, at)) {
        trace::record r;
        auto const step = trace::record_reader::read(data, at, r);
        if (step.what != rule::ok) return;
        FUZZ_CHECK(step.next > at && step.next <= data.size());
        FUZZ_CHECK(r.bytes().data() >= data.data() && r.bytes().data() + r.bytes().size() <= data.data() + data.size());
        touch(r);
        at = step.next;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    if (size > 0 && data[0] == record_walk_marker) {
        if (size < 2) return 0;
        guarded_buffer in(size - 2);
        std::memcpy(in.data(), data + 2, size - 2);
        poisoned_scope g(in);
        walk_records({reinterpret_cast<std::byte const*>(in.data()), in.size()}, data[1] % 16);
        return 0;
    }
    guarded_buffer in(size);
    if (size) std::memcpy(in.data(), data, size);
    poisoned_scope g(in);
    read_file({reinterpret_cast<std::byte const*>(in.data()), in.size()});
    return 0;
}
