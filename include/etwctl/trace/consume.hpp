// SPDX-License-Identifier: MIT
// etwctl/trace/consume.hpp - consuming a running session: trace::consume(k, name, storage, control,
// handlers...) opens the real-time session (OpenTraceW: PROCESS_TRACE_MODE_REAL_TIME | EVENT_RECORD |
// RAW_TIMESTAMP), runs ProcessTrace on the caller's thread and delivers the same typed events, through the
// same on<"Name"> handlers, as reading a file; consume_control::stop (CloseTrace) from another thread or
// from a handler ends it; it returns a report (events delivered, buffers and events lost, time span, why
// it ended).
//
//     trace::consume_control control;          // control.stop(k) from another thread ends it
//     auto report = trace::consume(k, u"NT Kernel Logger", storage, control,
//         trace::on<"SampledProfile">([&](trace::sampled_profile const& e) noexcept { count(e.instruction_pointer()); }));
//
// The buffers are read by the trace reader (trace/reader.hpp, trace/events.hpp), the code that reads a
// file: consume collects the session's buffers as they are delivered (the header buffer first) into the
// caller's storage and reads each batch in time order across processors, stacks attached. It needs a
// kernel that hands over the buffers themselves (kernel/consumer_concept.hpp buffer_consumer_kernel: the
// simulated kernel; Windows 11's buffer callback is the native equivalent, not used yet). Handlers run
// inside the OS callback, so they must be noexcept (checked at compile time): nothing can throw through
// ProcessTrace. No heap: the caller's storage holds the batch and the reader's index.
//
// Loss (Microsoft Learn, "ProcessTrace", "TRACE_LOGFILE_HEADER"; the reader's rule for SequenceNumber):
// a buffer's SequenceNumber is unique and increasing in a session's stream, so a number skipped between
// delivered buffers is a buffer lost on the way to the consumer; a header buffer delivered again (the
// session's final header) gives the session's EventsLost and BuffersLost.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/trace/events.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/reader.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

/// Why consumption ended.
enum class consume_end : std::uint8_t {
    session_ended,     ///< ProcessTrace returned: the session stopped (or a file ended)
    stopped,           ///< consume_control::stop (CloseTrace) was called
    open_failed,       ///< OpenTraceW refused (report.win32 says why)
    process_failed,    ///< ProcessTrace failed (report.win32 says why)
    storage_too_small, ///< a buffer, or the reader's index for a batch, did not fit the caller's storage
    fault,             ///< the delivered bytes broke a trace rule (report.first_fault says where)
};
constexpr std::string_view to_string(consume_end e) noexcept {
    switch (e) {
    case consume_end::session_ended: return "session ended";
    case consume_end::stopped: return "stopped";
    case consume_end::open_failed: return "OpenTraceW failed";
    case consume_end::process_failed: return "ProcessTrace failed";
    case consume_end::storage_too_small: return "storage too small";
    case consume_end::fault: return "trace fault";
    }
    return "";
}

/// What a consume did.
struct consume_report {
    consume_end reason = consume_end::session_ended;
    std::uint32_t win32 = 0;          ///< the Win32 code of OpenTraceW / ProcessTrace when they failed
    std::uint64_t events = 0;         ///< events delivered (stack records attached to their event not counted)
    std::uint64_t typed = 0;          ///< delivered to a typed handler
    std::uint64_t raw = 0;            ///< refused by a layout (to on_raw, if given)
    std::uint64_t buffers = 0;        ///< buffers delivered, the header buffer included
    std::uint64_t buffers_lost = 0;   ///< SequenceNumbers skipped between delivered buffers
    std::uint32_t events_lost = 0;    ///< the session's EventsLost (its final header), when delivered
    std::uint32_t header_buffers_lost = 0; ///< the session's BuffersLost (its final header), when delivered
    std::uint64_t first_timestamp = 0; ///< raw clock of the first and last event delivered (0: none)
    std::uint64_t last_timestamp = 0;
    trace_clock::duration span{};     ///< last - first event, in the session's clock
    fault first_fault{};

    /// Whether anything was lost on the way.
    constexpr bool lost() const noexcept { return buffers_lost != 0 || events_lost != 0 || header_buffers_lost != 0; }
};

/// The caller's storage: `buffers` holds the header buffer and a batch of delivered buffers (at least
/// two buffers of the session's BufferSize); `index` holds the reader's index of a batch
/// (reader::storage_size: a few hundred bytes plus 32 per buffer).
struct consume_storage {
    std::span<std::byte> buffers;
    std::span<std::byte> index;
};

/// A session's name as the caller has it: ASCII / UTF-8 bytes taken as Latin-1 (session names are
/// ASCII in practice), UTF-16 (char16_t), or the platform's 16-bit wchar_t.
class consume_name {
public:
    constexpr consume_name(char const* s) noexcept : consume_name(std::string_view(s)) {} // NOLINT: literals
    constexpr consume_name(std::string_view s) noexcept : narrow_(s.data()), size_(s.size()) {} // NOLINT
    constexpr consume_name(char16_t const* s) noexcept : consume_name(std::u16string_view(s)) {} // NOLINT
    constexpr consume_name(std::u16string_view s) noexcept : utf16_(s.data()), size_(s.size()) {} // NOLINT
    template <class W, std::enable_if_t<std::is_same_v<W, wchar_t> && sizeof(W) == 2, int> = 0>
    constexpr consume_name(W const* s) noexcept : consume_name(std::basic_string_view<W>(s)) {} // NOLINT
    template <class W, std::enable_if_t<std::is_same_v<W, wchar_t> && sizeof(W) == 2, int> = 0>
    constexpr consume_name(std::basic_string_view<W> s) noexcept : wide_(s.data()), size_(s.size()) {} // NOLINT

    constexpr std::size_t size() const noexcept { return size_; }
    /// The i-th 16-bit unit (i < size()).
    constexpr wide_char operator[](std::size_t i) const noexcept {
        if (utf16_) return static_cast<wide_char>(utf16_[i]);
        if (wide_) return static_cast<wide_char>(wide_[i]);
        return static_cast<wide_char>(static_cast<unsigned char>(narrow_[i]));
    }

private:
    char const* narrow_ = nullptr;
    char16_t const* utf16_ = nullptr;
    wchar_t const* wide_ = nullptr;
    std::size_t size_ = 0;
};

/// Ends a running consume from any thread (CloseTrace on its handle), or from a handler. One control per
/// consume: a stop requested before consume opens the trace ends that consume at once.
class consume_control {
public:
    /// Requests the end; returns CloseTrace's Win32 code (0 when consume has not opened the trace yet:
    /// it then ends as soon as it has). ERROR_CTX_CLOSE_PENDING (7007) is success.
    template <consumer_kernel K>
    std::uint32_t stop(K& k) noexcept {
        stop_.store(true, std::memory_order_release);
        std::uint64_t const h = handle_.load(std::memory_order_acquire);
        return h == invalid_processtrace_handle ? 0U : k.close_trace(h);
    }
    bool stop_requested() const noexcept { return stop_.load(std::memory_order_acquire); }
    /// The trace handle while consume runs (invalid_processtrace_handle otherwise).
    std::uint64_t handle() const noexcept { return handle_.load(std::memory_order_acquire); }

private:
    template <class K, class... H>
    friend consume_report consume(K&, consume_name, consume_storage, consume_control&, H...) noexcept;
    std::atomic<std::uint64_t> handle_{invalid_processtrace_handle};
    std::atomic<bool> stop_{false};
};

namespace detail {

/// Whether a handler made by on / on_raw / on_any cannot throw for what it is given.
template <class H>
struct handler_noexcept : std::false_type {};
template <std::uint16_t Hook, class F>
struct handler_noexcept<on_handler<Hook, F>> {
    using view = view_of_t<Hook>;
    using arg = std::conditional_t<std::is_void_v<view>, raw_event, kernel_event<std::conditional_t<std::is_void_v<view>, layout::rundown_complete, view>>>;
    static constexpr bool value = std::is_nothrow_invocable_v<F&, arg const&>;
};
template <class F>
struct handler_noexcept<on_raw_handler<F>> : std::bool_constant<std::is_nothrow_invocable_v<F&, raw_event const&>> {};
template <class F>
struct handler_noexcept<on_any_handler<F>> : std::bool_constant<std::is_nothrow_invocable_v<F&, event const&>> {};

template <class... H>
struct consume_state {
    consume_storage storage;
    consume_control* control;
    std::tuple<H...>* handlers;
    consume_report report{};
    std::size_t header_bytes = 0;   ///< the header buffer, at the start of storage.buffers
    std::size_t used = 0;           ///< header + batch bytes
    std::uint64_t last_sequence = 0;
    bool have_header = false;
    bool header_delivered = false;
    bool failed = false;

    bool take(std::span<std::byte const> b) noexcept {
        ++report.buffers;
        if (!buffer_header::fits(b, 0)) return fail(consume_end::fault, {rule::trace_file_too_small, 0, 0, b.size(), buffer_header_size});
        buffer_header const h(b);
        if (h.type() == buffer_type::header) {
            if (!have_header) return first_header(b);
            final_header(b);
            return true;
        }
        if (!have_header) return fail(consume_end::fault, {rule::trace_header_event, 0, 0x36, static_cast<std::uint16_t>(h.type()), 0});
        std::uint64_t const seq = h.sequence_number();
        if (last_sequence != 0 && seq > last_sequence + 1) report.buffers_lost += seq - last_sequence - 1;
        if (seq > last_sequence) last_sequence = seq;
        if (storage.buffers.size() - used < b.size()) {
            if (!flush()) return false;
            if (storage.buffers.size() - used < b.size()) return fail(consume_end::storage_too_small, {});
        }
        std::memcpy(storage.buffers.data() + used, b.data(), b.size());
        used += b.size();
        return !control->stop_requested();
    }
    bool first_header(std::span<std::byte const> b) noexcept {
        if (storage.buffers.size() < b.size()) return fail(consume_end::storage_too_small, {});
        std::memcpy(storage.buffers.data(), b.data(), b.size());
        header_bytes = used = b.size();
        have_header = true;
        return !control->stop_requested();
    }
    void final_header(std::span<std::byte const> b) noexcept {
        auto f = trace_file::open(b);
        if (!f) return;
        report.events_lost = f->header().events_lost();
        report.header_buffers_lost = f->header().buffers_lost();
    }
    /// Reads the batch (header buffer + the buffers since the last flush) in time order, stacks attached.
    bool flush() noexcept {
        if (!have_header || used == header_bytes) return true;
        fault why{};
        auto f = trace_file::open(std::span<std::byte const>(storage.buffers.data(), used), &why);
        used = header_bytes;
        if (!f) return fail(consume_end::fault, why);
        if (reader::storage_size(*f) > storage.index.size()) return fail(consume_end::storage_too_small, {});
        reader r(*f, storage.index);
        event_stream s(r);
        auto stamp = on_any([this](event const& e) noexcept {
            if (report.first_timestamp == 0) report.first_timestamp = e.timestamp();
            if (e.timestamp() > report.last_timestamp) report.last_timestamp = e.timestamp();
        });
        // dispatch's loop, delivering the header buffer's records (the header event, the group masks) with
        // the first batch only: every batch starts with the header buffer so the reader can open it
        std::apply([&](auto&... h) { deliver(s, stamp, h...); }, *handlers);
        header_delivered = true;
        if (report.first_timestamp != 0)
            report.span = std::chrono::duration_cast<trace_clock::duration>(
                f->clock().time(report.last_timestamp) - f->clock().time(report.first_timestamp));
        if (r.first_fault()) return fail(consume_end::fault, r.first_fault());
        return true;
    }
    template <class... A>
    void deliver(event_stream& s, A&... hs) noexcept {
        event e;
        while (s.next(e)) {
            if (header_delivered && e.ref().stream == 0) continue;
            ++report.events;
            bool refused = false;
            layout_fault why = layout_fault::none;
            dispatch_report d;
            (trace::detail::deliver(hs, e, d, refused, why), ...);
            report.typed += d.typed;
            if (!refused) continue;
            ++report.raw;
            raw_event const r(e, why);
            (
                [&](auto& h) {
                    if constexpr (trace::detail::is_raw<std::remove_cvref_t<decltype(h)>>) h.f(r);
                }(hs),
                ...);
        }
    }
    bool fail(consume_end why, fault const& f) noexcept {
        if (!failed) {
            failed = true;
            report.reason = why;
            report.first_fault = f;
        }
        return false;
    }
    static bool on_buffer(void* context, std::span<std::byte const> b) noexcept { return static_cast<consume_state*>(context)->take(b); }
};

} // namespace detail

/// Consumes the real-time session `session_name` until it stops or control.stop(k) is called: every
/// event to the handlers (on<"Name">, on_raw, on_any: each noexcept), in time order per batch of buffers.
template <class K, class... H>
consume_report consume(K& k, consume_name session_name, consume_storage storage, consume_control& control, H... handlers) noexcept {
    static_assert(buffer_consumer_kernel<K>,
                  "etwctl::trace::consume: the kernel must hand over the session's buffers (buffer_consumer_kernel: "
                  "sim::live_session); EVENT_RECORD consumption through native_kernel is not available yet");
    static_assert(sizeof...(H) > 0, "etwctl::trace::consume: give at least one handler (on<\"Name\">, on_raw, on_any)");
    static_assert((std::is_base_of_v<detail::on_tag, H> && ...),
                  "etwctl::trace::consume: a handler is made by on<\"Name\">(f), on_raw(f) or on_any(f)");
    static_assert((detail::handler_noexcept<H>::value && ...),
                  "etwctl::trace::consume: handlers run inside ProcessTrace's callback and must be noexcept");
    std::tuple<H...> hs{std::move(handlers)...};
    detail::consume_state<H...> st{storage, &control, &hs};

    // OpenTraceW: the session by name, real time, EVENT_RECORD callbacks, raw timestamps (stacks are
    // matched to their events by the raw timestamp)
    wide_char name[1025] = {};
    if (session_name.size() == 0 || session_name.size() >= std::size(name)) {
        st.report.reason = consume_end::open_failed;
        st.report.win32 = win32::invalid_parameter;
        return st.report;
    }
    for (std::size_t i = 0; i < session_name.size(); ++i) name[i] = session_name[i];
    event_trace_logfilew_layout logfile{};
    logfile.logger_name = name;
    logfile.process_trace_mode = process_trace_mode::real_time | process_trace_mode::event_record | process_trace_mode::raw_timestamp;
    std::uint64_t h = invalid_processtrace_handle;
    if (std::uint32_t const e = k.open_trace_w(&logfile, &h); e != win32::success) {
        st.report.reason = consume_end::open_failed;
        st.report.win32 = e;
        return st.report;
    }
    control.handle_.store(h, std::memory_order_release);
    std::uint32_t const e = control.stop_requested() ? win32::success : k.process_trace_buffers(h, &detail::consume_state<H...>::on_buffer, &st);
    control.handle_.store(invalid_processtrace_handle, std::memory_order_release);
    (void)k.close_trace(h);
    if (!st.failed) st.flush();
    if (st.failed) return st.report;
    if (control.stop_requested()) st.report.reason = consume_end::stopped;
    else if (e != win32::success && e != consumer_result::cancelled) {
        st.report.reason = consume_end::process_failed;
        st.report.win32 = e;
    }
    return st.report;
}

} // namespace trace
ETWCTL_END_NAMESPACE
