// Fuzz harness: provider traits (EventProviderSetTraits).
//  mode 0 (build): a fuzzed name (may hold NULs, may be long) and optional group GUID are built into a
//          buffer of fuzzed size; success must give a blob that checks, parses back to the same name and
//          group, and has the size provider_traits_size() says; failures must be the precise rule.
//  mode 1 (blob): arbitrary bytes: check_provider_traits must agree with a slow reference written
//          here; parse_provider_traits never reads outside the blob and, on success, returns a name
//          inside it; the compat (TraceLoggingSetInformation) and typed (set<provider_traits>) paths
//          on the simulated kernel agree with the check.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

using namespace etwctl;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

/// Reference (https://learn.microsoft.com/en-us/windows/win32/etw/provider-traits): size field == length
/// (3..0xFFFF), a NUL-terminated name after it,
/// then traits {UINT16 size >= 3, type, data} that exactly fill the rest.
rule reference_check(std::vector<unsigned char> const& b) {
    if (b.size() < 3 || b.size() > 0xFFFF) return rule::traits_length;
    if (static_cast<std::size_t>(b[0] | (b[1] << 8)) != b.size()) return rule::traits_malformed;
    std::size_t i = 2;
    for (;; ++i) {
        if (i >= b.size()) return rule::traits_malformed;
        if (b[i] == 0) break;
    }
    std::size_t rest = b.size() - (i + 1);
    std::size_t p = i + 1;
    while (rest > 0) {
        if (rest < 3) return rule::traits_malformed;
        std::size_t const t = static_cast<std::size_t>(b[p] | (b[p + 1] << 8));
        if (t < 3 || t > rest) return rule::traits_malformed;
        p += t;
        rest -= t;
    }
    return rule::ok;
}

guid consume_guid(FuzzedDataProvider& in) {
    auto const b = in.ConsumeBytes<std::uint8_t>(16);
    std::uint8_t g[16] = {};
    if (!b.empty()) std::memcpy(g, b.data(), b.size());
    return guid(std::uint32_t{g[0]} | (std::uint32_t{g[1]} << 8) | (std::uint32_t{g[2]} << 16) | (std::uint32_t{g[3]} << 24), static_cast<std::uint16_t>(g[4] | (g[5] << 8)),
                static_cast<std::uint16_t>(g[6] | (g[7] << 8)), g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

void mode_build(FuzzedDataProvider& in) {
    bool const with_group = in.ConsumeBool();
    guid const group = consume_guid(in);
    bool const long_name = in.ConsumeIntegralInRange<int>(0, 31) == 0;
    std::string name = in.ConsumeRandomLengthString(300);
    if (long_name) name.resize(0xFFFF - 2 + in.ConsumeIntegralInRange<std::size_t>(0, 30) - 30, 'x');
    std::size_t const needed = provider_traits_size(name, with_group);
    FUZZ_CHECK(needed == 3 + name.size() + (with_group ? 19 : 0));
    std::size_t const cap = in.ConsumeBool() ? needed : in.ConsumeIntegralInRange<std::size_t>(0, needed + 8);
    guarded_buffer buf(cap);
    std::size_t size = 0xBAD;
    rule r;
    {
        poisoned_scope g(buf);
        r = build_provider_traits(name, with_group ? &group : nullptr, std::span(reinterpret_cast<std::byte*>(buf.data()), cap), size);
    }
    bool const has_nul = name.find('\0') != std::string::npos;
    if (needed > cap) { // the buffer is checked first
        FUZZ_CHECK(r == rule::traits_length && size == 0xBAD);
        return;
    }
    if (has_nul) { // then the name (an embedded NUL would cut it)
        FUZZ_CHECK(r == rule::traits_malformed && size == 0xBAD);
        return;
    }
    if (needed > 0xFFFF) {
        FUZZ_CHECK(r == rule::traits_length && size == 0xBAD);
        return;
    }
    FUZZ_CHECK(r == rule::ok && size == needed);
    std::span<std::byte const> blob(reinterpret_cast<std::byte const*>(buf.data()), size);
    FUZZ_CHECK(check_provider_traits(blob) == rule::ok);
    provider_traits_info info;
    FUZZ_CHECK(parse_provider_traits(blob, info) == rule::ok);
    FUZZ_CHECK(info.name == name && info.has_group == with_group);
    if (with_group) FUZZ_CHECK(info.group == group);
    std::vector<unsigned char> copy(buf.data(), buf.data() + size);
    FUZZ_CHECK(reference_check(copy) == rule::ok);
}

void mode_blob(FuzzedDataProvider& in) {
    bool const fix_size = in.ConsumeBool(); // make the size field right, to get past the first check
    auto bytes = in.ConsumeRemainingBytes<unsigned char>();
    if (fix_size && bytes.size() >= 2) {
        bytes[0] = static_cast<unsigned char>(bytes.size() & 0xFF);
        bytes[1] = static_cast<unsigned char>((bytes.size() >> 8) & 0xFF);
    }
    guarded_buffer buf(bytes.size());
    if (!bytes.empty()) std::memcpy(buf.data(), bytes.data(), bytes.size());
    std::span<std::byte const> blob(reinterpret_cast<std::byte const*>(buf.data()), bytes.size());
    rule const ref = reference_check(bytes);
    {
        poisoned_scope g(buf);
        FUZZ_CHECK(check_provider_traits(blob) == ref);
        provider_traits_info info;
        info.name = "untouched";
        rule const pr = parse_provider_traits(blob, info);
        FUZZ_CHECK(pr == ref);
        if (pr == rule::ok) {
            FUZZ_CHECK(info.name.data() == reinterpret_cast<char const*>(buf.data()) + 2);
            FUZZ_CHECK(info.name.size() + 3 <= bytes.size() && bytes[2 + info.name.size()] == 0);
            FUZZ_CHECK(info.name.find('\0') == std::string_view::npos);
        } else {
            FUZZ_CHECK(info.name == "untouched");
        }
    }

    // Through the public entry points on the simulated kernel.
    auto& k = etwctl_fuzz::fresh_sim<1>();
    std::uint64_t const reg = k.register_provider();
    std::int32_t hr;
    {
        poisoned_scope g(buf);
        hr = compat::tracelogging_set_information(k, reg, 2, bytes.empty() ? nullptr : buf.data(),
                                                  static_cast<std::uint32_t>(bytes.size()));
    }
    if (ref == rule::traits_length) {
        FUZZ_CHECK(hr == hresult::from_win32(win32::invalid_parameter));
    } else if (ref == rule::traits_malformed) {
        FUZZ_CHECK(hr == hresult::from_win32(win32::file_corrupt)); // the kernel's check, mapped
    } else {
        FUZZ_CHECK(hr == 0 || (bytes.size() > sim::kernel::max_traits_size &&
                               hr == hresult::from_win32(win32::no_system_resources)));
        if (hr == 0) FUZZ_CHECK(k.traits(reg).size() == bytes.size());
    }
    std::uint64_t const reg2 = k.register_provider();
    std::error_code ec;
    {
        poisoned_scope g(buf);
        ec = set<provider_traits>(k, registration_handle{reg2}, blob);
    }
    if (ref != rule::ok) FUZZ_CHECK(ec == make_error_code(ref));
    else FUZZ_CHECK(to_win32(ec) == hresult::win32_of(hr) || (!ec && hr == 0));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    if (in.ConsumeBool()) mode_build(in);
    else mode_blob(in);
    return 0;
}
