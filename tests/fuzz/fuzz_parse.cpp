// Fuzz harness: run-time parsing of stack-walk names and kernel-flag strings (names/parse.hpp).
//  - arbitrary text (in an exactly-sized buffer with poisoned surroundings) into an output span of
//    fuzzed capacity (also guarded): never out of bounds; an error locates a range inside the text;
//    count never exceeds the capacity (nor 256); parsed ids are distinct;
//  - round trips: text -> parse -> format -> parse gives the same ids / the same mask; and an arbitrary
//    id list (distinct) or group mask -> format -> parse gives it back; format with a short buffer
//    returns the full length, writes only what fits and NUL-terminates when there is room.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

#include "etwctl/names/parse.hpp"

using namespace etwctl;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

/// Formats into an exactly-sized guarded buffer; checks the size-probe convention on the way.
template <class Format>
std::string format_checked(FuzzedDataProvider& in, Format fmt) {
    std::size_t const full = fmt(std::span<char>{});
    std::size_t const cap = in.ConsumeBool() ? full + 1 : in.ConsumeIntegralInRange<std::size_t>(0, full + 1);
    guarded_buffer buf(cap);
    std::memset(buf.data(), 0x7F, cap);
    std::size_t n;
    {
        poisoned_scope g(buf);
        n = fmt(std::span<char>(reinterpret_cast<char*>(buf.data()), cap));
    }
    FUZZ_CHECK(n == full);
    if (n < cap) FUZZ_CHECK(buf.data()[n] == '\0');
    guarded_buffer exact(full + 1);
    {
        poisoned_scope g(exact);
        FUZZ_CHECK(fmt(std::span<char>(reinterpret_cast<char*>(exact.data()), full + 1)) == full);
    }
    std::string s(reinterpret_cast<char const*>(exact.data()), full);
    FUZZ_CHECK(s.find('\0') == std::string::npos);
    std::size_t const stored = cap < full ? cap : full;
    FUZZ_CHECK(stored == 0 || std::memcmp(buf.data(), exact.data(), stored) == 0);
    return s;
}

void stack_walk_round_trip(FuzzedDataProvider& in, std::vector<hook_id> const& ids) {
    std::string const text = format_checked(in, [&](std::span<char> out) {
        return format_stack_walk(std::span<hook_id const>(ids), out);
    });
    std::vector<hook_id> back(ids.size() + 1);
    std::size_t count = 0;
    parse_error e;
    FUZZ_CHECK(parse_stack_walk(text, back, count, &e) == rule::ok);
    FUZZ_CHECK(count == ids.size());
    for (std::size_t i = 0; i < count; ++i) FUZZ_CHECK(back[i] == ids[i]);
}

void flags_round_trip(FuzzedDataProvider& in, group_mask const& m) {
    std::string const text = format_checked(in, [&](std::span<char> out) { return format_kernel_flags(m, out); });
    group_mask back;
    back.masks[0] = 0x5A5A5A5AU;
    parse_error e;
    FUZZ_CHECK(parse_kernel_flags(text, back, &e) == rule::ok);
    FUZZ_CHECK(back == m);
}

void fuzz_stack_walk_text(FuzzedDataProvider& in) {
    std::size_t const cap = in.ConsumeIntegralInRange<std::size_t>(0, 300);
    std::string const text = in.ConsumeRandomLengthString(70000);
    guarded_buffer tb(text.size()), ob(cap * sizeof(hook_id));
    if (!text.empty()) std::memcpy(tb.data(), text.data(), text.size());
    std::string_view const view(reinterpret_cast<char const*>(tb.data()), text.size());
    std::span<hook_id> out(reinterpret_cast<hook_id*>(ob.data()), cap);
    std::size_t count = 12345;
    parse_error e;
    rule r;
    {
        poisoned_scope g1(tb), g2(ob);
        r = parse_stack_walk(view, out, count, &e);
    }
    FUZZ_CHECK(e.why == r);
    FUZZ_CHECK(count <= cap && count <= 256);
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j) FUZZ_CHECK(!(out[i] == out[j]));
    if (r != rule::ok) {
        FUZZ_CHECK(r == rule::parse_empty_name || r == rule::parse_unknown_name || r == rule::parse_duplicate_name ||
                   r == rule::parse_too_many_names || r == rule::parse_input_too_long);
        FUZZ_CHECK(e.offset <= text.size() && e.length <= text.size() - e.offset);
        if (r == rule::parse_empty_name) FUZZ_CHECK(e.length == 0);
        // a non-empty name, or the part beyond a cap (empty when the text ends in the 1025th '+')
        if (e.length == 0) FUZZ_CHECK(r == rule::parse_empty_name || r == rule::parse_too_many_names);
        FUZZ_CHECK((r == rule::parse_input_too_long) == (text.size() > limits::max_parse_length));
        FUZZ_CHECK(r == rule::parse_unknown_name || e.suggestion.empty());
        return;
    }
    std::vector<hook_id> ids(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count));
    stack_walk_round_trip(in, ids);
}

void fuzz_flags_text(FuzzedDataProvider& in) {
    std::string const text = in.ConsumeRandomLengthString(70000);
    guarded_buffer tb(text.size());
    if (!text.empty()) std::memcpy(tb.data(), text.data(), text.size());
    std::string_view const view(reinterpret_cast<char const*>(tb.data()), text.size());
    group_mask m;
    m.masks[3] = 0xA5A5A5A5U;
    group_mask const before = m;
    parse_error e;
    rule r;
    {
        poisoned_scope g(tb);
        r = parse_kernel_flags(view, m, &e);
    }
    FUZZ_CHECK(e.why == r);
    if (r != rule::ok) {
        FUZZ_CHECK(m == before); // written only on success
        FUZZ_CHECK(r == rule::parse_empty_name || r == rule::parse_unknown_name || r == rule::parse_duplicate_name ||
                   r == rule::parse_too_many_names || r == rule::parse_input_too_long);
        FUZZ_CHECK((r == rule::parse_input_too_long) == (text.size() > limits::max_parse_length));
        FUZZ_CHECK(e.offset <= text.size() && e.length <= text.size() - e.offset);
        return;
    }
    flags_round_trip(in, m);
}

void fuzz_ids(FuzzedDataProvider& in) {
    std::vector<hook_id> ids;
    std::size_t const n = in.ConsumeIntegralInRange<std::size_t>(0, 256);
    for (std::size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
        hook_id const h{in.ConsumeIntegral<std::uint16_t>()};
        bool dup = false;
        for (auto const& x : ids) dup = dup || x == h;
        if (!dup) ids.push_back(h);
    }
    stack_walk_round_trip(in, ids);
}

void fuzz_mask(FuzzedDataProvider& in) {
    group_mask m;
    for (auto& w : m.masks) w = in.ConsumeBool() ? in.ConsumeIntegral<std::uint32_t>() : 0U;
    flags_round_trip(in, m);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: fuzz_stack_walk_text(in); break;
    case 1: fuzz_flags_text(in); break;
    case 2: fuzz_ids(in); break;
    default: fuzz_mask(in); break;
    }
    return 0;
}
