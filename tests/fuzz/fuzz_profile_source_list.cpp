// Fuzz harness: the profile-source-list reply.
//  mode 0: arbitrary bytes as a PROFILE_SOURCE_INFO chain. check_profile_source_chain must agree with a
//          slow reference checker written here; a checked chain is walked completely through the view
//          (every field, every description character, ASCII copies into small buffers, find) and every
//          access stays inside the bytes (the bytes sit in an exactly-sized heap block with poisoned
//          canaries), the walk ends, and each entry's record lies inside the reply.
//  mode 1: query_profile_sources through compat and typed paths against a kernel whose reply is
//          fuzzed (status, return length, bytes, how much it writes). The results must agree, a
//          success must hand back a checked chain of at most the buffer's size, a "too small" must
//          give a bigger size, a malformed reply must be kernel_reply_malformed, and nothing outside
//          the caller's buffer is touched.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"

using namespace etwctl;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

/// Reference: the chain rules of profile_source_list.hpp, written independently and plainly.
bool reference_chain_ok(std::vector<unsigned char> const& b) {
    std::size_t const size = b.size();
    if (size == 0) return true;
    std::size_t off = 0;
    for (std::size_t guard = 0; guard <= size; ++guard) {
        if (off + 0x1A > size) return false;
        std::uint32_t next = static_cast<std::uint32_t>(b[off]) | (static_cast<std::uint32_t>(b[off + 1]) << 8) |
                             (static_cast<std::uint32_t>(b[off + 2]) << 16) | (static_cast<std::uint32_t>(b[off + 3]) << 24);
        std::size_t record_end;
        if (next == 0) {
            record_end = size;
        } else {
            if (next % 8 != 0) return false;
            if (next < 0x1A) return false;
            if (static_cast<std::uint64_t>(off) + next > size) return false;
            record_end = off + next;
        }
        bool nul = false;
        for (std::size_t c = off + 0x18; c + 2 <= record_end; c += 2)
            if (b[c] == 0 && b[c + 1] == 0) {
                nul = true;
                break;
            }
        if (!nul) return false;
        if (next == 0) return true;
        off += next;
        if (off >= size) return false;
    }
    return false; // cannot happen: offsets strictly increase
}

/// A kernel whose profile-source reply is scripted by the fuzzer.
struct scripted_kernel {
    std::int32_t status = 0;
    std::uint32_t returned = 0;
    bool set_returned = true;
    std::vector<unsigned char> reply; // written from offset 0 of the kernel buffer (the 8-byte head included)
    std::uint32_t calls = 0;

    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t) noexcept { return ntstatus::not_implemented; }
    std::int32_t nt_query_system_information(std::uint32_t, void* buf, std::uint32_t len, std::uint32_t* ret) noexcept {
        ++calls;
        std::size_t const n = reply.size() < len ? reply.size() : len; // a kernel never writes past len
        if (n) std::memcpy(buf, reply.data(), n);
        if (set_returned && ret) *ret = returned;
        return status;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return ntstatus::not_implemented; }
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t*) noexcept { return ntstatus::not_implemented; }
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept {
        return ntstatus::not_implemented;
    }
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept { return 50; }
};
static_assert(etwctl::kernel<scripted_kernel>);

void walk(std::span<std::byte const> bytes) {
    profile_source_list_view v;
    rule const r = profile_source_list_view::parse(bytes, v);
    FUZZ_CHECK(r == check_profile_source_chain(bytes));
    if (r != rule::ok) {
        FUZZ_CHECK(r == rule::kernel_reply_malformed && v.empty());
        return;
    }
    std::size_t count = 0;
    std::byte const* prev = nullptr;
    for (auto it = v.begin(); it != v.end(); ++it) {
        FUZZ_CHECK(++count <= bytes.size() / 0x1A + 1); // the walk ends
        auto const e = *it;
        (void)e.source();
        std::uint32_t const sum = e.source_id() ^ e.min_interval() ^ e.max_interval();
        (void)sum;
        std::size_t const n = e.description_size();
        FUZZ_CHECK(n < bytes.size() / 2);
        std::uint32_t acc = 0;
        for (std::size_t i = 0; i < n; ++i) {
            char16_t const c = e.description_at(i);
            FUZZ_CHECK(c != 0);
            acc += c;
        }
        (void)acc;
        char small[1], mid[5], big[300];
        FUZZ_CHECK(e.description_ascii(std::span<char>(small, 0)) == 0);
        FUZZ_CHECK(e.description_ascii(small) == 0 && small[0] == '\0');
        std::size_t const m = e.description_ascii(mid);
        FUZZ_CHECK(m == (n < 4 ? n : 4) && mid[m] == '\0');
        std::size_t const b = e.description_ascii(big);
        FUZZ_CHECK(b == (n < 299 ? n : 299) && big[b] == '\0');
        profile_source_entry found;
        FUZZ_CHECK(v.find(e.source_id(), found));
        prev = bytes.data();
    }
    (void)prev;
    FUZZ_CHECK(count == v.size());
    FUZZ_CHECK(count >= 1 || bytes.empty());
}

void mode_chain(FuzzedDataProvider& in) {
    auto bytes = in.ConsumeRemainingBytes<unsigned char>();
    guarded_buffer buf(bytes.size());
    if (!bytes.empty()) std::memcpy(buf.data(), bytes.data(), bytes.size());
    std::span<std::byte const> s(reinterpret_cast<std::byte const*>(buf.data()), bytes.size());
    poisoned_scope guard(buf);
    bool const ok = check_profile_source_chain(s) == rule::ok;
    FUZZ_CHECK(ok == reference_chain_ok(bytes));
    walk(s);
}

void mode_query(FuzzedDataProvider& in) {
    scripted_kernel k;
    static constexpr std::int32_t statuses[] = {ntstatus::success, ntstatus::info_length_mismatch, ntstatus::buffer_too_small,
                                                ntstatus::buffer_overflow, ntstatus::more_entries, ntstatus::access_denied,
                                                ntstatus::not_supported};
    auto const si = in.ConsumeIntegralInRange<std::size_t>(0, std::size(statuses));
    k.status = si < std::size(statuses) ? statuses[si] : in.ConsumeIntegral<std::int32_t>();
    k.set_returned = in.ConsumeIntegralInRange<int>(0, 7) != 0;
    bool const null_buffer = in.ConsumeIntegralInRange<int>(0, 7) == 0;
    std::uint32_t const len = in.ConsumeIntegralInRange<std::uint32_t>(0, 2048);
    bool const honest = in.ConsumeBool();
    k.reply = in.ConsumeBytes<unsigned char>(in.ConsumeIntegralInRange<std::size_t>(0, 2100));
    k.returned = honest ? static_cast<std::uint32_t>(k.reply.size()) : in.ConsumeIntegral<std::uint32_t>();

    std::size_t const real = null_buffer ? 0 : len;
    guarded_buffer b1(real), b2(real);
    std::uint32_t ret = 0xDEADBEEFU;
    std::uint32_t r1;
    {
        poisoned_scope g(b1);
        r1 = compat::trace_query_information(k, 0, 7, null_buffer ? nullptr : b1.data(), len, &ret);
    }
    FUZZ_CHECK(k.calls == 1);
    if (r1 == 0) {
        FUZZ_CHECK(ret <= len && (ret == 0 || !null_buffer));
        if (ret) {
            std::span<std::byte const> s(reinterpret_cast<std::byte const*>(b1.data()), ret);
            FUZZ_CHECK(check_profile_source_chain(s) == rule::ok);
            walk(s);
        }
        FUZZ_CHECK(k.status >= 0 || nt_status_to_win32(k.status) == 0); // 0xC0010000 maps to ERROR_SUCCESS
    } else if (r1 == win32::bad_length) {
        // a bigger size to retry with, or the kernel's own mapped failure
        FUZZ_CHECK(ret > 8 || (k.status == ntstatus::info_length_mismatch && ret == 0) || k.status < 0);
    } else if (r1 == win32::invalid_data) {
        FUZZ_CHECK(ret == 0);
    } else {
        FUZZ_CHECK(k.status < 0 && r1 == nt_status_to_win32(k.status));
    }
    if (k.status >= 0 && r1 != 0) FUZZ_CHECK(r1 == win32::invalid_data || r1 == win32::bad_length);

    // typed path, same reply
    if (null_buffer != (len == 0)) return;
    k.calls = 0;
    std::uint32_t needed = 0xDEADBEEFU;
    poisoned_scope g(b2);
    std::span<std::byte> storage(reinterpret_cast<std::byte*>(b2.data()), real);
    auto const r = query<profile_source_list>(k, storage, &needed);
    FUZZ_CHECK(to_win32(r.error()) == r1 && needed == ret);
    if (r) {
        FUZZ_CHECK(r->bytes().size() == ret && std::memcmp(b1.data(), b2.data(), ret) == 0);
        walk(r->bytes());
    } else if (r.error() == make_error_code(rule::source_list_buffer_too_small)) {
        FUZZ_CHECK(needed > len || null_buffer || len < 8);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    if (in.ConsumeBool()) mode_query(in);
    else mode_chain(in);
    return 0;
}
