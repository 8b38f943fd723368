// etwctl stackcache SESSION SIZE BUCKETS [--unified] [--clamp]: TraceStackCachingInfo (class 24) or,
// with --unified, TraceUnifiedStackCachingInfo (26): the session's stack cache, kernel classes 0x10 /
// 0x1A. The kernel clamps CacheSize to 3..50 MiB and BucketCount to 256..4096 without saying so; the
// tool refuses a value outside instead (exit 2), or with --clamp uses the nearest one and says which.
// Stack caching cannot be switched off (the kernel refuses Enabled = 0) and a second enable for the
// same session is refused (STATUS_WMI_ALREADY_ENABLED).
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/status_codes.hpp"

#include "../annotate.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

/// SIZE: bytes (decimal or 0x), or a whole number with an IEC unit: B, KiB, MiB, GiB (any case).
/// KB / MB / GB and K / M / G are refused as ambiguous (1000- or 1024-based?).
bool parse_byte_size(std::string_view s, std::uint64_t& bytes, std::string& error) {
    std::size_t i = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        i = s.size(); // hex: bytes, no unit
    } else {
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    std::string_view const number = s.substr(0, i), unit = s.substr(i);
    std::uint64_t n = 0;
    if (!parse_uint(number, 0xFFFFFFFFULL, n)) {
        error = "bad SIZE '" + std::string(s) + "': give bytes (16777216) or a whole number with a unit (16MiB, 4096KiB)";
        return false;
    }
    std::uint64_t scale = 1;
    if (unit.empty() || iequals(unit, "b")) scale = 1;
    else if (iequals(unit, "kib")) scale = 1024;
    else if (iequals(unit, "mib")) scale = 1024 * 1024;
    else if (iequals(unit, "gib")) scale = 1024 * 1024 * 1024;
    else if (iequals(unit, "k") || iequals(unit, "kb") || iequals(unit, "m") || iequals(unit, "mb") || iequals(unit, "g") ||
             iequals(unit, "gb")) {
        char const prefix = unit[0] >= 'a' ? static_cast<char>(unit[0] - 'a' + 'A') : unit[0];
        std::uint64_t const iec_scale = prefix == 'K' ? 1024ULL : prefix == 'M' ? 1024ULL * 1024 : 1024ULL * 1024 * 1024;
        error = "SIZE '" + std::string(s) + "' is ambiguous (1000- or 1024-based?): write " + std::string(number) + prefix +
                "iB for " + std::to_string(n * iec_scale) + " bytes, or give the bytes";
        return false;
    } else {
        error = "bad SIZE '" + std::string(s) + "': unknown unit '" + std::string(unit) + "' (B, KiB, MiB, GiB)";
        return false;
    }
    bytes = n * scale;
    return true;
}

} // namespace

int cmd_stackcache(context const& ctx, tool_kernel& k, json_object& out) {
    if (int const rc = only_options(ctx, {}, {"--unified", "--clamp"}); rc != exit_ok) return rc;
    auto const& p = ctx.cl.positional;
    bool const unified = ctx.cl.has("--unified"), clamp = ctx.cl.has("--clamp");
    std::string_view const class_name = unified ? "TraceUnifiedStackCachingInfo" : "TraceStackCachingInfo";
    if (p.size() == 3 && (iequals(p[2], "off") || iequals(p[2], "disable") || iequals(p[2], "none"))) {
        failure f{exit_refused, etwctl::win32_error_code(etwctl::win32::not_supported),
                  "stack caching cannot be switched off: the kernel refuses Enabled = 0 (STATUS_NOT_SUPPORTED); "
                  "nothing was sent",
                  {}, {}};
        f.hint = "the stack cache ends with the session: stop the session to drop it";
        return report_failure(ctx, f);
    }
    if (p.size() != 4) return usage_error(ctx, "expected SESSION SIZE BUCKETS");
    std::uint64_t size = 0, buckets = 0;
    std::string error;
    if (!parse_byte_size(p[2], size, error)) return usage_error(ctx, error);
    if (!parse_uint(p[3], 0xFFFFFFFFULL, buckets))
        return usage_error(ctx, "bad BUCKETS '" + p[3] + "': give a whole number (256..4096)");

    // The kernel's clamps, as the library states them (stack_cache_size_bounds / stack_cache_bucket_bounds;
    // set<stack_caching> refuses values outside them): refused here, before the session is looked up,
    // with every value outside named at once, unless --clamp.
    auto const& size_bounds = etwctl::stack_cache_size_bounds;
    auto const& bucket_bounds = etwctl::stack_cache_bucket_bounds;
    auto clamp64 = [](etwctl::interval_bounds b, std::uint64_t v) -> std::uint64_t {
        return v > b.max ? b.max : b.clamp(static_cast<std::uint32_t>(v));
    };
    std::uint64_t const used_size = clamp64(size_bounds, size);
    std::uint64_t const used_buckets = clamp64(bucket_bounds, buckets);
    std::uint32_t const stack_cache_min_bytes = size_bounds.min, stack_cache_max_bytes = size_bounds.max;
    std::uint32_t const stack_cache_min_buckets = bucket_bounds.min, stack_cache_max_buckets = bucket_bounds.max;
    std::vector<std::string> outside;
    if (used_size != size)
        outside.push_back("cache size " + std::to_string(size) + " bytes" +
                          (byte_size_text(size).find("bytes") == std::string::npos ? " (" + byte_size_text(size) + ")" : "") +
                          " is outside the kernel's 3 MiB..50 MiB (" + std::to_string(stack_cache_min_bytes) + ".." +
                          std::to_string(stack_cache_max_bytes) + " bytes)");
    if (used_buckets != buckets)
        outside.push_back("bucket count " + std::to_string(buckets) + " is outside the kernel's " +
                          std::to_string(stack_cache_min_buckets) + ".." + std::to_string(stack_cache_max_buckets));
    if (!outside.empty() && !clamp) {
        std::string m;
        for (auto const& o : outside) m += (m.empty() ? "" : "; ") + o;
        failure f{exit_refused, make_error_code(etwctl::rule::stack_cache_out_of_bounds),
                  m + " (the kernel would clamp it silently); nothing was sent", {}, {}};
        f.hint = "give SIZE within 3MiB..50MiB and BUCKETS within 256..4096, or add --clamp to use " +
                 std::string(used_size != size ? byte_size_text(used_size) : std::string()) +
                 (used_size != size && used_buckets != buckets ? " and " : "") +
                 (used_buckets != buckets ? std::to_string(used_buckets) + " buckets" : std::string());
        f.details.num("size", size).num("size_min", stack_cache_min_bytes).num("size_max", stack_cache_max_bytes);
        f.details.num("buckets", buckets).num("buckets_min", stack_cache_min_buckets).num("buckets_max", stack_cache_max_buckets);
        return report_failure(ctx, f);
    }
    if (used_size != size)
        std::cerr << "etwctl: stackcache: cache size " << byte_size_text(size) << " is outside 3 MiB..50 MiB; using "
                  << byte_size_text(used_size) << " (" << used_size << " bytes, --clamp)\n";
    if (used_buckets != buckets)
        std::cerr << "etwctl: stackcache: bucket count " << buckets << " is outside 256..4096; using " << used_buckets
                  << " (--clamp)\n";

    session_arg s;
    if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
    etwctl::stack_cache_size const cache{static_cast<std::uint32_t>(used_size)};
    etwctl::stack_cache_buckets const count{static_cast<std::uint32_t>(used_buckets)};
    std::error_code const ec = unified ? etwctl::set<etwctl::unified_stack_caching>(k, s.handle, cache, count)
                                       : etwctl::set<etwctl::stack_caching>(k, s.handle, cache, count);
    if (ec) {
        failure f{exit_code_of(ec), ec, "cannot enable stack caching for " + s.text, {}, {}};
        if (not_on_this_windows(ec)) {
            f.message = std::string(class_name) + " is not on this Windows: cannot enable stack caching for " + s.text;
            f.hint = "this Windows release lacks " + std::string(class_name) +
                     (unified ? " (kernel class 0x1A); TraceStackCachingInfo may be there: try without --unified" : " (kernel class 0x10)") + "; nothing was changed";
        } else if (ec == etwctl::ntstatus_error_code(etwctl::ntstatus::wmi_already_enabled)) {
            f.message = "stack caching" + std::string(unified ? " (unified)" : "") + " is already enabled for " + s.text;
            f.hint = "a session has one stack cache, classic or unified: it can be enabled once per session, and neither "
                     "changed nor switched off; restart the session to use other values";
        }
        f.details.str("class", class_name);
        return report_failure(ctx, f);
    }
    out.num("session", s.handle.value).str("class", class_name).boolean("unified", unified);
    out.num("size", used_size).num("buckets", used_buckets);
    if (used_size != size || used_buckets != buckets)
        out.boolean("clamped", true).num("requested_size", size).num("requested_buckets", buckets);
    if (!ctx.cl.json)
        std::cout << s.text << ": stack caching" << (unified ? " (unified)" : "") << " on, cache " << byte_size_text(used_size)
                  << " (" << used_size << " bytes), " << used_buckets << " buckets\n";
    return exit_ok;
}

} // namespace etwctl_tool
