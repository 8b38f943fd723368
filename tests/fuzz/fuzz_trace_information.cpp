// Fuzz harness: compat::trace_set_information / trace_query_information over every class 0..31 with
// arbitrary sessions, lengths, NULL or real buffers and bytes, against the simulated kernel, a few
// operations per input (so state set by one call is read back by the next).
// Properties checked on every operation:
//  - the compat and the typed paths agree: the same input, on two identical simulated kernels, gives
//    to_win32(typed error_code) == compat result, and the kernel requests they send are byte-identical;
//  - a successful set sent exactly one kernel request, shaped as the rule says (0x10 + 4n for the
//    list classes with n the known GUIDs, 0x30 for group masks, 8 + 16n for the disallow list, ...);
//  - a kernel failure is returned as RtlNtStatusToDosError of the status the kernel returned;
//  - nothing is read or written outside the caller's buffer (poisoned canaries around it);
//  - ReturnLength is sane for each query class (untouched when the class fails before it is set);
//  - compat::current (the opt-in for a current Windows) answers classes 0-15 exactly as compat:: does
//    (same result, same requests); for 16-28 it sends at most one request, which the request layer's
//    own decoder reads as the class table's kind with the length its layout wants, and its result
//    is that request's status mapped, or a rule's code when nothing was sent.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "etwctl/compat_current.hpp"
#include "etwctl/request/decode.hpp"
#include "fuzz_support.hpp"

using namespace etwctl;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

constexpr std::uint32_t sentinel = 0xDEADBEEFU;

constexpr std::int32_t interesting_status[] = {
    ntstatus::success,          ntstatus::more_entries,          ntstatus::buffer_overflow,
    ntstatus::unsuccessful,     ntstatus::invalid_parameter,     ntstatus::info_length_mismatch,
    ntstatus::buffer_too_small, ntstatus::access_denied,         ntstatus::privilege_not_held,
    ntstatus::not_supported,    ntstatus::wmi_instance_not_found, ntstatus::entrypoint_not_found,
    static_cast<std::int32_t>(0xC0010057U), static_cast<std::int32_t>(0xD000000DU), static_cast<std::int32_t>(0xC0FFEE01U),
};

/// Slow reference: the kernel group of a GUID by a linear scan of the table.
int reference_group(guid const& g) {
    for (auto const& kg : kernel_group_table)
        if (kg.event_guid == g) return kg.group;
    return -1;
}

std::uint32_t u32_at(std::span<std::byte const> b, std::size_t off) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
}
std::uint64_t u64_at(std::span<std::byte const> b, std::size_t off) {
    std::uint64_t v;
    std::memcpy(&v, b.data() + off, 8);
    return v;
}

void prepare(sim::kernel& k, std::uint8_t setup) {
    k.set_privilege((setup & 1) == 0);
    k.start_logger(1);
    if (setup & 2) k.start_logger(2, {.system_logger_mode = false});
    if (setup & 4) k.start_logger(3, {.system_logger_mode = true, .paged_memory = true});
    if (setup & 8) k.start_kernel_logger();
    if (setup & 16) k.set_max_pmc_counters(2);
    if (setup & 32) k.set_available(kernel_function::nt_query_interval_profile, false);
}

std::uint64_t pick_session(FuzzedDataProvider& in) {
    static constexpr std::uint64_t table[] = {0, 1, 2, 3, 0xFFFF, 5, 0x1234'0000'0001ULL};
    auto const i = in.ConsumeIntegralInRange<std::size_t>(0, std::size(table));
    return i < std::size(table) ? table[i] : in.ConsumeIntegral<std::uint64_t>();
}

/// The input's bytes for a real buffer of `size` (zero-filled where the input runs out).
std::vector<unsigned char> draw_bytes(FuzzedDataProvider& in, std::size_t size) {
    auto b = in.ConsumeBytes<unsigned char>(size);
    b.resize(size);
    return b;
}
void copy_into(guarded_buffer& g, std::vector<unsigned char> const& b) {
    if (!b.empty()) std::memcpy(g.data(), b.data(), b.size());
}

/// Both kernels recorded the same requests since (n1, n2).
void same_requests(sim::kernel const& a, std::size_t n1, sim::kernel const& b, std::size_t n2) {
    FUZZ_CHECK(a.request_count() - n1 == b.request_count() - n2);
    for (std::size_t i = 0; i < a.request_count() - n1; ++i) {
        auto const& x = a.request(n1 + i);
        auto const& y = b.request(n2 + i);
        FUZZ_CHECK(x.function == y.function && x.code == y.code && x.length == y.length && x.value == y.value &&
                   x.status == y.status);
        FUZZ_CHECK(x.bytes.size() == y.bytes.size() &&
                   (x.bytes.empty() || std::memcmp(x.bytes.data(), y.bytes.data(), x.bytes.size()) == 0));
    }
}

/// The shape a successful set must have produced (the one request in k since n).
void check_set_request(sim::kernel const& k, std::size_t n, std::uint32_t cls, std::uint64_t session,
                       std::span<std::byte const> input) {
    FUZZ_CHECK(k.request_count() == n + 1);
    auto const& r = k.last_request();
    FUZZ_CHECK(r.status >= 0);
    auto const len = static_cast<std::uint32_t>(input.size());
    switch (static_cast<trace_info_class>(cls)) {
    case trace_info_class::stack_tracing:
    case trace_info_class::pmc_event_list: {
        std::vector<std::uint32_t> ids;
        for (std::size_t i = 0; i + 24 <= input.size(); i += 24) {
            guid g;
            std::memcpy(&g, input.data() + i, 16);
            if (int const grp = reference_group(g); grp >= 0)
                ids.push_back((static_cast<std::uint32_t>(grp) << 8) | std::to_integer<std::uint32_t>(input[i + 16]));
        }
        FUZZ_CHECK(r.function == kernel_function::nt_set_system_information);
        FUZZ_CHECK(r.code == system_performance_trace_information);
        FUZZ_CHECK(r.length == 0x10 + 4 * ids.size());
        FUZZ_CHECK(r.kernel_class == (cls == 3 ? 0x06U : 0x0EU));
        FUZZ_CHECK(u32_at(r.bytes, 4) == 0 && u64_at(r.bytes, 8) == session);
        for (std::size_t i = 0; i < ids.size(); ++i) FUZZ_CHECK(u32_at(r.bytes, 0x10 + 4 * i) == ids[i]);
        break;
    }
    case trace_info_class::system_trace_enable_flags: {
        FUZZ_CHECK(r.function == kernel_function::nt_set_system_information && r.length == 0x30);
        FUZZ_CHECK(r.kernel_class == 1 && u64_at(r.bytes, 8) == session);
        for (std::size_t i = 0; i < 32; ++i)
            FUZZ_CHECK(r.bytes[0x10 + i] == (i < len ? input[i] : std::byte{0}));
        break;
    }
    case trace_info_class::sampled_profile_interval: {
        FUZZ_CHECK(session == 0 && len == 8);
        std::uint32_t const source = u32_at(input, 0), interval = u32_at(input, 4);
        if (source == 0) {
            FUZZ_CHECK(r.function == kernel_function::nt_set_system_information && r.length == 8);
            FUZZ_CHECK(r.kernel_class == 3 && u32_at(r.bytes, 4) == interval);
        } else {
            FUZZ_CHECK(r.function == kernel_function::nt_set_interval_profile);
            FUZZ_CHECK(r.code == source && r.value == interval);
        }
        break;
    }
    case trace_info_class::profile_source_config:
    case trace_info_class::pmc_counter_list: {
        FUZZ_CHECK(r.function == kernel_function::nt_set_system_information);
        FUZZ_CHECK(len >= 4 && len <= 16 && len % 4 == 0 && r.length == 0x10 + len);
        FUZZ_CHECK(r.kernel_class == (cls == 6 ? 0x0CU : 0x0FU) && u64_at(r.bytes, 8) == session);
        FUZZ_CHECK(std::memcmp(r.bytes.data() + 0x10, input.data(), len) == 0);
        break;
    }
    case trace_info_class::set_disallow_list: {
        FUZZ_CHECK(r.function == kernel_function::nt_trace_control && r.code == trace_control::update_disallow_list);
        FUZZ_CHECK(len % 16 == 0 && r.length == 8 + len);
        FUZZ_CHECK(u32_at(r.bytes, 0) == (session & 0xFFFF) && u32_at(r.bytes, 4) == len / 16);
        if (len) FUZZ_CHECK(std::memcmp(r.bytes.data() + 8, input.data(), len) == 0);
        break;
    }
    default:
        FUZZ_CHECK(false && "a set succeeded for a class TraceSetInformation does not support");
    }
}

template <class T>
std::vector<T> as_vector(unsigned char const* p, std::uint32_t len) {
    std::vector<T> v(len / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), p, v.size() * sizeof(T));
    return v;
}

/// The typed equivalent of a compat set, if the input can be expressed in the typed API.
/// The simulated machine's profile-source list entry of `id` (what query<profile_source_list> reads), or null.
sim::profile_source_desc const* listed_source(sim::kernel const& k, std::uint32_t id) {
    for (auto const& d : k.profile_sources())
        if (d.id == id) return &d;
    return nullptr;
}

bool typed_set(sim::kernel& k, std::uint32_t cls, std::uint64_t session, unsigned char const* info, bool null_buffer,
               std::uint32_t len, bool real, std::error_code& ec) {
    bool const null_iff_empty = null_buffer == (len == 0);
    switch (static_cast<trace_info_class>(cls)) {
    case trace_info_class::stack_tracing:
        if (!real || !null_iff_empty || len % 24) return false;
        ec = set<stack_tracing>(k, session, as_vector<classic_event_id>(info, len));
        return true;
    case trace_info_class::pmc_event_list:
        if (!real || !null_iff_empty || len % 24) return false;
        ec = set<pmc_event_list>(k, session, as_vector<classic_event_id>(info, len));
        return true;
    case trace_info_class::system_trace_enable_flags: {
        if (!real || !null_iff_empty || len % 4 || len > 32) return false;
        group_mask m;
        if (len) std::memcpy(m.masks, info, len);
        ec = set<system_trace_enable_flags>(k, session, m);
        return true;
    }
    case trace_info_class::sampled_profile_interval: {
        if (!real || session != 0 || len != 8 || null_buffer) return false;
        std::uint32_t s, i;
        std::memcpy(&s, info, 4);
        std::memcpy(&i, info + 4, 4);
        // The typed timer setter refuses what the kernel would clamp (rule::interval_out_of_bounds);
        // the drop-in function passes it on as SECHOST does: no common ground to compare.
        if (s == 0) {
            if (!timer_bounds.contains(i)) return false;
            ec = set<sampled_profile_interval>(k, profile_source::time, profile_interval{i});
            return true;
        }
        // A hardware counter: the typed setter checks the interval against the source's bounds in this
        // machine's profile-source list. The overload that reads the list sends a query the drop-in
        // function does not (it would not send the same requests, and would use up an injected status
        // the twin kernel keeps), so the bounds are taken from the simulated machine's list as that
        // query would read them. A source the list lacks is refused by the list overloads before any
        // request: no common ground either.
        auto const* d = listed_source(k, s);
        if (!d) return false;
        ec = set<sampled_profile_interval>(k, static_cast<profile_source>(s), counter_interval{i},
                                           interval_bounds{d->min_interval, d->max_interval});
        return true;
    }
    case trace_info_class::profile_source_config:
        if (!real || !null_iff_empty || len % 4) return false;
        ec = set<profile_source_config>(k, session, as_vector<profile_source>(info, len));
        return true;
    case trace_info_class::pmc_counter_list:
        if (!real || !null_iff_empty || len % 4) return false;
        ec = set<pmc_counter_list>(k, session, as_vector<profile_source>(info, len));
        return true;
    case trace_info_class::set_disallow_list:
        if (!real || !null_iff_empty || len % 16) return false;
        ec = set<disallow_list>(k, session, as_vector<guid>(info, len));
        return true;
    default:
        return false;
    }
}

void do_set(FuzzedDataProvider& in, sim::kernel& k1, sim::kernel& k2) {
    auto const cls = in.ConsumeIntegralInRange<std::uint32_t>(0, 31);
    std::uint64_t const session = pick_session(in);
    bool const null_buffer = in.ConsumeIntegralInRange<int>(0, 7) == 0;
    bool const huge = in.ConsumeIntegralInRange<int>(0, 15) == 0;
    std::uint32_t const len = huge ? in.ConsumeIntegralInRange<std::uint32_t>(0x10000, 0xFFFFFFFFU)
                                   : in.ConsumeIntegralInRange<std::uint32_t>(0, 70000); // past 64 KiB
    // A real buffer of exactly len bytes (huge lengths: a short one; every class must refuse them
    // before reading, and the poisoned canary faults if it does not).
    bool const real = !null_buffer && !huge;
    std::size_t const real_size = null_buffer ? 0 : huge ? 64 : len;
    auto const bytes = draw_bytes(in, real_size);
    guarded_buffer buf(real_size);
    copy_into(buf, bytes);
    void const* info = null_buffer ? nullptr : buf.data();

    std::size_t const n1 = k1.request_count(), n2 = k2.request_count();
    std::uint32_t r1;
    {
        poisoned_scope guard(buf);
        r1 = compat::trace_set_information(k1, session, cls, info, len);
    }
    FUZZ_CHECK(real_size == 0 || std::memcmp(buf.data(), bytes.data(), real_size) == 0); // input is const
    // The drop-in call on the twin kernel, from a copy of the same bytes (where the typed API did not
    // send what the drop-in function sends: both kernels stay alike).
    auto const drop_in_on_twin = [&] {
        guarded_buffer copy(real_size);
        copy_into(copy, bytes);
        return compat::trace_set_information(k2, session, cls, null_buffer ? nullptr : copy.data(), len);
    };
    std::error_code ec;
    std::size_t const typed_before = k2.request_count();
    bool const typed = typed_set(k2, cls, session, bytes.data(), null_buffer, len, real, ec);
    if (typed && ec == make_error_code(rule::event_guid_not_kernel_group)) {
        // Issue 21 item 11: the typed API refuses an event SECHOST would drop silently. The input must
        // hold one (a whole CLASSIC_EVENT_ID whose GUID is no kernel group, by the reference), nothing
        // was sent, and the twin kernel then takes the drop-in call so both stay alike.
        bool stray = false;
        for (std::size_t i = 0; i + 24 <= bytes.size() && i + 24 <= len; i += 24) {
            guid g;
            std::memcpy(&g, bytes.data() + i, 16);
            stray = stray || reference_group(g) < 0;
        }
        FUZZ_CHECK(stray);
        FUZZ_CHECK(k2.request_count() == typed_before);
        FUZZ_CHECK(drop_in_on_twin() == r1);
    } else if (typed && ec == make_error_code(rule::interval_out_of_bounds)) {
        // A hardware counter's interval outside its bounds: the typed setter refuses what the drop-in
        // function passes on (the kernel clamps it). Nothing was sent; the twin kernel then takes the
        // drop-in call so both stay alike.
        std::uint32_t s, i;
        std::memcpy(&s, bytes.data(), 4);
        std::memcpy(&i, bytes.data() + 4, 4);
        FUZZ_CHECK(cls == static_cast<std::uint32_t>(trace_info_class::sampled_profile_interval) && s != 0);
        auto const* d = listed_source(k2, s);
        FUZZ_CHECK(d && (i < d->min_interval || i > d->max_interval));
        FUZZ_CHECK(k2.request_count() == typed_before);
        FUZZ_CHECK(drop_in_on_twin() == r1);
    } else if (typed) {
        if (to_win32(ec) != r1)
            std::fprintf(stderr, "set class %u session %llx length %u: compat %u, typed %s\n", cls,
                         static_cast<unsigned long long>(session), len, r1, ec.message().c_str());
        FUZZ_CHECK(to_win32(ec) == r1);
        FUZZ_CHECK(ec.category() == rule_category() || ec.category() == ntstatus_category() || !ec);
    } else {
        FUZZ_CHECK(drop_in_on_twin() == r1);
    }
    same_requests(k1, n1, k2, n2);

    FUZZ_CHECK(k1.request_count() - n1 <= 1);
    if (k1.request_count() > n1) {
        std::int32_t const s = k1.last_request().status;
        FUZZ_CHECK(r1 == (s < 0 ? nt_status_to_win32(s) : 0U)); // the kernel's status, mapped
    } else {
        FUZZ_CHECK(r1 != 0); // a rule stopped it
    }
    // A kernel failure whose Win32 mapping is 0 (0xC0010000: RtlNtStatusToDosError gives its low word)
    // reads as success, exactly as SECHOST reports it; only a kernel success has a request shape to check.
    bool const kernel_succeeded = k1.request_count() == n1 || k1.last_request().status >= 0;
    if (r1 == 0 && kernel_succeeded)
        check_set_request(k1, n1, cls, session, std::span(reinterpret_cast<std::byte const*>(bytes.data()), len));
}

/// Set when this input made the kernel answer "success" without doing anything (an injected status
/// >= 0): such a reply is accepted as Windows would, but carries none of the kernel's state.
bool g_injected_success = false;
/// Set when this input injected any status. An arbitrary failure can map to the same Win32 code as a
/// "buffer too small" answer (0xC001007A -> 122, 0xC0010018 -> 24) without naming a size, so the
/// size-probe checks below apply only to answers the simulated kernel gave itself.
bool g_injected_any = false;

void do_query(FuzzedDataProvider& in, sim::kernel& k1, sim::kernel& k2) {
    auto const cls = in.ConsumeIntegralInRange<std::uint32_t>(0, 31);
    std::uint64_t const session = pick_session(in);
    bool const null_buffer = in.ConsumeIntegralInRange<int>(0, 7) == 0;
    bool const want_length = in.ConsumeIntegralInRange<int>(0, 7) != 0;
    std::uint32_t const len = null_buffer && in.ConsumeBool() ? in.ConsumeIntegral<std::uint32_t>()
                                                               : in.ConsumeIntegralInRange<std::uint32_t>(0, 70000);
    std::size_t const real_size = null_buffer ? 0 : len;
    auto const bytes = draw_bytes(in, real_size);
    guarded_buffer buf(real_size), buf2(real_size);
    copy_into(buf, bytes);
    copy_into(buf2, bytes);
    void* const info = null_buffer ? nullptr : buf.data();

    std::size_t const n1 = k1.request_count(), n2 = k2.request_count();
    std::uint32_t ret = sentinel;
    std::uint32_t r1;
    {
        poisoned_scope guard(buf);
        r1 = compat::trace_query_information(k1, session, cls, info, len, want_length ? &ret : nullptr);
    }
    auto const* out = buf.data();
    // A kernel failure that RtlNtStatusToDosError maps to 0 (0xC0010000) reads as success, as in SECHOST,
    // but produced no data: the output checks below apply to kernel successes.
    bool const kernel_ok = (k1.request_count() == n1 || k1.last_request().status >= 0) && !g_injected_success;

    // ReturnLength and output, class by class.
    switch (static_cast<trace_info_class>(cls)) {
    case trace_info_class::system_trace_enable_flags:
        if (want_length) FUZZ_CHECK(ret == 32);
        if (len < 32) FUZZ_CHECK(r1 == win32::bad_length);
        break;
    case trace_info_class::sampled_profile_interval:
        if (session != 0) FUZZ_CHECK(r1 == win32::invalid_parameter && ret == sentinel);
        else if (want_length) FUZZ_CHECK(ret == 8);
        if (r1 == 0) FUZZ_CHECK(std::memcmp(out, bytes.data(), 4) == 0); // Source is input only
        break;
    case trace_info_class::profile_source_list:
        if (session != 0) FUZZ_CHECK(r1 == win32::invalid_parameter && ret == sentinel);
        if (r1 == 0 && want_length && kernel_ok) {
            FUZZ_CHECK(ret <= len);
            FUZZ_CHECK(ret == 0 || info != nullptr);
            if (ret) FUZZ_CHECK(check_profile_source_chain({reinterpret_cast<std::byte const*>(out), ret}) == rule::ok);
        }
        if (r1 == win32::bad_length && want_length && !g_injected_any) FUZZ_CHECK(ret > 8 && (info == nullptr || ret > len));
        break;
    case trace_info_class::version:
        if (session != 0) FUZZ_CHECK(r1 == win32::invalid_parameter && ret == sentinel);
        else if (want_length) FUZZ_CHECK(ret == 8);
        if (r1 == 0) {
            std::uint32_t v;
            std::memcpy(&v, out, 4);
            FUZZ_CHECK(v == etw_trace_processing_version && std::memcmp(out + 4, bytes.data() + 4, 4) == 0);
        }
        break;
    case trace_info_class::disallow_list_query:
        if (r1 == 0 && want_length && kernel_ok) {
            FUZZ_CHECK(ret <= len && ret % 16 == 0);
            auto const list = k1.disallow_list(static_cast<std::uint16_t>(session & 0xFFFF));
            FUZZ_CHECK(ret == list.size_bytes());
            if (ret) FUZZ_CHECK(std::memcmp(out, list.data(), ret) == 0);
        }
        if (r1 == win32::insufficient_buffer && want_length && !g_injected_any) FUZZ_CHECK(ret > len);
        if (r1 == win32::invalid_data) FUZZ_CHECK(k1.request_count() == n1 + 1); // the kernel's reply was refused
        break;
    default:
        FUZZ_CHECK(r1 == win32::not_supported && ret == sentinel);
        FUZZ_CHECK(k1.request_count() == n1);
        break;
    }

    // The typed equivalent, on the twin kernel.
    bool const null_iff_empty = null_buffer == (len == 0);
    bool typed = false;
    switch (static_cast<trace_info_class>(cls)) {
    case trace_info_class::system_trace_enable_flags:
        if (!null_buffer && len >= 32) {
            typed = true;
            auto const r = query<system_trace_enable_flags>(k2, session);
            FUZZ_CHECK(to_win32(r.error()) == r1);
            if (r) FUZZ_CHECK(std::memcmp(out, r->masks, 32) == 0);
        }
        break;
    case trace_info_class::sampled_profile_interval:
        if (!null_buffer && len == 8 && session == 0) {
            typed = true;
            std::uint32_t source;
            std::memcpy(&source, bytes.data(), 4);
            auto const r = query<sampled_profile_interval>(k2, static_cast<profile_source>(source));
            FUZZ_CHECK(to_win32(r.error()) == r1);
            if (r) {
                std::uint32_t got;
                std::memcpy(&got, out + 4, 4);
                FUZZ_CHECK(got == r->count());
            }
        }
        break;
    case trace_info_class::profile_source_list:
        if (session == 0 && null_iff_empty) {
            typed = true;
            std::uint32_t needed = sentinel;
            std::span<std::byte> storage(reinterpret_cast<std::byte*>(buf2.data()), real_size);
            poisoned_scope guard(buf2);
            auto const r = query<profile_source_list>(k2, storage, &needed);
            FUZZ_CHECK(to_win32(r.error()) == r1);
            if (want_length) FUZZ_CHECK(needed == ret);
            if (r) {
                FUZZ_CHECK(r->bytes().size() == needed);
                FUZZ_CHECK(r->bytes().empty() || r->bytes().data() == storage.data());
                std::size_t count = 0;
                for (auto e : *r) {
                    FUZZ_CHECK(k2.interval(e.source_id()) != 0);
                    char name[64];
                    (void)e.description_ascii(name);
                    ++count;
                }
                FUZZ_CHECK(count == k2.profile_sources().size());
            }
        }
        break;
    case trace_info_class::version:
        if (session == 0 && len == 8 && !null_buffer) {
            typed = true;
            auto const r = query<version>(k2);
            FUZZ_CHECK(r1 == 0 && r && *r == etw_trace_processing_version);
        }
        break;
    case trace_info_class::disallow_list_query:
        if (null_iff_empty && len % 16 == 0) {
            typed = true;
            std::uint32_t needed = sentinel;
            std::vector<guid> storage(len / 16);
            auto const r = query<disallow_list_query>(k2, session, std::span<guid>(storage), &needed);
            FUZZ_CHECK(to_win32(r.error()) == r1);
            if (r) {
                FUZZ_CHECK(r->size_bytes() == needed && (!want_length || needed == ret));
                if (needed) FUZZ_CHECK(std::memcmp(r->data(), out, needed) == 0);
            }
        }
        break;
    default:
        break;
    }
    if (!typed) {
        std::uint32_t ret2 = sentinel;
        std::uint32_t const r2 = compat::trace_query_information(k2, session, cls, null_buffer ? nullptr : buf2.data(),
                                                                 len, want_length ? &ret2 : nullptr);
        FUZZ_CHECK(r2 == r1 && ret2 == ret);
    }
    same_requests(k1, n1, k2, n2);
}


/// The one request compat::current sent for a class of 16-28 since n (if any): decoded by the request
/// layer as the row's kind, well formed; the result is its status mapped, or a rule's code.
void check_current_request(sim::kernel const& k, std::size_t n, std::uint32_t cls, bool query, std::uint32_t r) {
    FUZZ_CHECK(k.request_count() - n <= 1);
    auto const* row = find_traits(cls);
    if (k.request_count() == n) {
        // refused by a rule before the kernel, or answered without one (class 17: the kernel's limits)
        bool const local = r == 0 && query && row != nullptr && row->query.request == request_kind::capture_limits;
        FUZZ_CHECK(r != 0 || local);
        return;
    }
    auto const& req = k.last_request();
    FUZZ_CHECK(r == (req.status < 0 ? nt_status_to_win32(req.status) : 0U));
    FUZZ_CHECK(row != nullptr);
    direction_rules const& d = query ? row->query : row->set;
    decoded_request const dr = decode_request(req.function, req.code, req.bytes);
    FUZZ_CHECK(dr.kind == d.request);
    // A query's buffer is the caller's output (its length is the caller's); a set request is etwctl's own.
    if (!query || d.request == request_kind::stream_count || d.request == request_kind::control_ulong ||
        d.request == request_kind::pmc_sessions)
        FUZZ_CHECK(dr.well_formed);
}

void do_current(FuzzedDataProvider& in, sim::kernel& k1, sim::kernel& k2, bool query) {
    auto const cls = in.ConsumeIntegralInRange<std::uint32_t>(0, 31);
    std::uint64_t const session = pick_session(in);
    bool const null_buffer = in.ConsumeIntegralInRange<int>(0, 7) == 0;
    bool const want_length = in.ConsumeBool();
    std::uint32_t const len = null_buffer && in.ConsumeBool() ? in.ConsumeIntegral<std::uint32_t>()
                                                               : in.ConsumeIntegralInRange<std::uint32_t>(0, 600);
    std::size_t const real_size = null_buffer ? 0 : len;
    auto const bytes = draw_bytes(in, real_size);
    guarded_buffer buf(real_size), buf2(real_size);
    copy_into(buf, bytes);
    copy_into(buf2, bytes);
    std::size_t const n1 = k1.request_count(), n2 = k2.request_count();
    std::uint32_t ret1 = sentinel, ret2 = sentinel;
    std::uint32_t r1;
    {
        poisoned_scope guard(buf);
        r1 = query ? compat::current::trace_query_information(k1, session, cls, null_buffer ? nullptr : buf.data(), len,
                                                              want_length ? &ret1 : nullptr)
                   : compat::current::trace_set_information(k1, session, cls, null_buffer ? nullptr : buf.data(), len);
    }
    if (!query) FUZZ_CHECK(real_size == 0 || std::memcmp(buf.data(), bytes.data(), real_size) == 0); // input is const
    if (cls < 16) {
        std::uint32_t const r2 =
            query ? compat::trace_query_information(k2, session, cls, null_buffer ? nullptr : buf2.data(), len,
                                                    want_length ? &ret2 : nullptr)
                  : compat::trace_set_information(k2, session, cls, null_buffer ? nullptr : buf2.data(), len);
        if (r2 != r1 || ret2 != ret1)
            std::fprintf(stderr, "current %s class %u session %llx length %u: current %u/%u, compat %u/%u\n",
                         query ? "query" : "set", cls, static_cast<unsigned long long>(session), len, r1, ret1, r2, ret2);
        FUZZ_CHECK(r2 == r1 && ret2 == ret1);
        same_requests(k1, n1, k2, n2);
        return;
    }
    // the default drop-in refuses every class >= 16, sending nothing; the opt-in on the twin kernel
    // answers as on the first (and keeps the two kernels' states, injected statuses included, alike)
    std::uint32_t const rtm = query ? compat::trace_query_information(k2, session, cls, nullptr, 0, nullptr)
                                    : compat::trace_set_information(k2, session, cls, nullptr, 0);
    FUZZ_CHECK(rtm == win32::not_supported && k2.request_count() == n2);
    std::uint32_t const r2 =
        query ? compat::current::trace_query_information(k2, session, cls, null_buffer ? nullptr : buf2.data(), len,
                                                         want_length ? &ret2 : nullptr)
              : compat::current::trace_set_information(k2, session, cls, null_buffer ? nullptr : buf2.data(), len);
    FUZZ_CHECK(r2 == r1 && ret2 == ret1);
    same_requests(k1, n1, k2, n2);
    check_current_request(k1, n1, cls, query, r1);
    if (query && want_length && r1 == 0 && !g_injected_any && real_size >= 4 &&
        (cls == 19 || cls == 22 || cls == 23))
        FUZZ_CHECK(ret1 == 4); // a ULONG answer
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    g_injected_success = false;
    g_injected_any = false;
    auto& k1 = etwctl_fuzz::fresh_sim<1>();
    auto& k2 = etwctl_fuzz::fresh_sim<2>();
    std::uint8_t const setup = in.ConsumeIntegral<std::uint8_t>();
    prepare(k1, setup);
    prepare(k2, setup);
    for (int op = 0; op < 8 && in.remaining_bytes() > 0; ++op) {
        switch (in.ConsumeIntegralInRange<int>(0, 11)) {
        case 0: { // the kernel fails (or "succeeds" without doing anything) for the next calls
            auto const i = in.ConsumeIntegralInRange<std::size_t>(0, std::size(interesting_status));
            std::int32_t const s = i < std::size(interesting_status) ? interesting_status[i] : in.ConsumeIntegral<std::int32_t>();
            auto const n = in.ConsumeIntegralInRange<std::uint32_t>(1, 3);
            k1.inject(s, n);
            k2.inject(s, n);
            if (s >= 0) g_injected_success = true; // "success" with nothing done: replies carry no data
            g_injected_any = true;
            break;
        }
        case 1: case 2: case 3: case 4: case 5:
            do_set(in, k1, k2);
            break;
        case 10: case 11:
            do_current(in, k1, k2, in.ConsumeBool());
            break;
        default:
            do_query(in, k1, k2);
            break;
        }
    }
    return 0;
}
