// Fuzz harness: TraceLogging metadata, payloads and provider traits (etwctl/trace/tracelogging.hpp).
// Input: flags u8, metadata length u16 (little-endian), the metadata (or traits) blob, then the payload.
//  flags bit 0: pointer size 4 (else 8); bit 1: patch the blob's size field to its length (to get past
//  the first check more often); bit 2: traits mode (the blob is a provider traits blob).
// Properties:
//  - nothing is read outside the blob or the payload (each lives in a guarded_buffer whose surroundings
//    are poisoned while the library runs);
//  - parse_event_metadata accepts exactly what a slow recursive reference written here accepts, and the
//    field iteration agrees with it;
//  - decode_tracelogging makes the same callbacks (names, indexes, payload offsets, value bytes) as the
//    reference decoder, stops with the same rule at the same offset, and consumes the same bytes;
//  - every accessor of every value is called, and agrees with the value's bytes where it applies;
//  - parse_provider_traits agrees with a reference, and its trait walk with the reference's.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "etwctl/trace/tracelogging.hpp"

using namespace etwctl;
using namespace etwctl::trace;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

using ubytes = std::vector<unsigned char>;

std::string hex(unsigned char const* p, std::size_t n) {
    static char const digits[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// ---- reference: metadata ------------------------------------------------------------------------------

struct ref_field {
    std::string name;
    unsigned in = 0, kind = 0, out = 0, count = 0;
    bool has_out = false;
    std::uint32_t tags = 0;
    std::size_t offset = 0, schema_at = 0, schema_size = 0;
    bool is_struct() const { return in == 24 && kind != 3; }
    unsigned members() const { return has_out ? out : 0; }
};

struct ref_metadata {
    bool ok = false;
    std::size_t size = 0;
    std::string name;
    std::uint32_t tags = 0;
    std::vector<ref_field> fields;
};

bool ref_tags(ubytes const& md, std::size_t size, std::size_t& p, std::uint32_t& tags) {
    tags = 0;
    for (unsigned i = 0;; ++i) {
        if (p >= size || i == 4) return false;
        unsigned const b = md[p++];
        tags |= static_cast<std::uint32_t>(b & 0x7F) << (21 - 7 * i);
        if ((b & 0x80) == 0) return true;
    }
}

bool ref_name(ubytes const& md, std::size_t size, std::size_t& p, std::string& name) {
    std::size_t const start = p;
    while (p < size && md[p] != 0) ++p;
    if (p >= size) return false;
    name.assign(reinterpret_cast<char const*>(md.data()) + start, p - start);
    ++p;
    return true;
}

// The item at fields[i] (a struct with its members) at nesting `depth`: the index after it, or -1.
long ref_item(std::vector<ref_field> const& f, std::size_t i, unsigned depth) {
    if (i >= f.size()) return -1;
    if (!f[i].is_struct()) return static_cast<long>(i + 1);
    if (depth >= 32) return -1;
    long j = static_cast<long>(i + 1);
    for (unsigned k = 0; k < f[i].members(); ++k) {
        j = ref_item(f, static_cast<std::size_t>(j), depth + 1);
        if (j < 0) return -1;
    }
    return j;
}

ref_metadata ref_parse(ubytes const& md) {
    ref_metadata r;
    if (md.size() < 2) return r;
    std::size_t const size = md[0] | (std::size_t{md[1]} << 8);
    if (size > md.size() || size < 4) return r;
    r.size = size;
    std::size_t p = 2;
    if (!ref_tags(md, size, p, r.tags) || !ref_name(md, size, p, r.name)) return r;
    while (p < size) {
        ref_field f;
        f.offset = p;
        if (!ref_name(md, size, p, f.name) || p >= size) return r;
        unsigned const in = md[p++];
        f.in = in & 31;
        f.kind = (in >> 5) & 3;
        if (in & 0x80) {
            if (p >= size) return r;
            unsigned const out = md[p++];
            f.has_out = true;
            f.out = out & 0x7F;
            if ((out & 0x80) && !ref_tags(md, size, p, f.tags)) return r;
        }
        if (f.is_struct() && f.members() == 0) return r;
        if (f.kind == 1) {
            if (size - p < 2) return r;
            f.count = md[p] | (unsigned{md[p + 1]} << 8);
            p += 2;
            if (f.count == 0) return r;
        } else if (f.kind == 3) {
            if (size - p < 2) return r;
            f.schema_size = md[p] | (std::size_t{md[p + 1]} << 8);
            p += 2;
            if (f.schema_size > size - p) return r;
            f.schema_at = p;
            p += f.schema_size;
        }
        r.fields.push_back(f);
    }
    for (std::size_t i = 0; i < r.fields.size();) {
        long const j = ref_item(r.fields, i, 0);
        if (j < 0) return r;
        i = static_cast<std::size_t>(j);
    }
    r.ok = true;
    return r;
}

// ---- reference: payload -------------------------------------------------------------------------------

struct ref_decoder {
    std::vector<ref_field> const& f;
    ubytes const& payload;
    std::size_t pointer_size;
    std::size_t at = 0;
    std::vector<std::string> log;
    rule broken = rule::ok;
    std::size_t fault_offset = 0;

    bool fail(rule r, std::size_t offset) {
        broken = r;
        fault_offset = offset;
        return false;
    }
    bool read_u16(std::size_t& v) {
        if (payload.size() - at < 2) return fail(rule::tracelogging_payload, at);
        v = payload[at] | (std::size_t{payload[at + 1]} << 8);
        at += 2;
        return true;
    }
    static std::string idx(long i) { return i < 0 ? "" : "[" + std::to_string(i) + "]"; }
    // One value of field d at `at`: its bytes [first, first + n), the payload afterwards at `next`.
    bool value(ref_field const& d, long index) {
        std::size_t const start = at, left = payload.size() - at;
        std::size_t first = at, n = 0, next = 0;
        auto counted = [&]() {
            if (left < 2) return false;
            n = payload[at] | (std::size_t{payload[at + 1]} << 8);
            if (n > left - 2) return false;
            first = at + 2;
            next = first + n;
            return true;
        };
        bool ok = true;
        if (d.kind == 3) ok = counted();
        else {
            switch (d.in) {
            case 1: {
                std::size_t i = at;
                while (i + 1 < payload.size() && !(payload[i] == 0 && payload[i + 1] == 0)) i += 2;
                ok = i + 1 < payload.size();
                n = i - at;
                next = i + 2;
                break;
            }
            case 2: {
                std::size_t i = at;
                while (i < payload.size() && payload[i] != 0) ++i;
                ok = i < payload.size();
                n = i - at;
                next = i + 1;
                break;
            }
            case 14: case 22: case 23: case 25: ok = counted(); break;
            case 19:
                if (left < 8) ok = false;
                else {
                    n = 8 + 4 * std::size_t{payload[at + 1]};
                    ok = n <= left;
                    next = at + n;
                }
                break;
            default: {
                static unsigned char const sizes[26] = {0, 0, 0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 0, 16, 0, 8, 16, 0, 4, 8, 0, 0, 0, 0};
                n = d.in == 16 ? pointer_size : sizes[d.in];
                ok = n <= left;
                next = at + n;
            }
            }
        }
        if (!ok) return fail(rule::tracelogging_payload, start);
        log.push_back(d.name + idx(index) + "@" + std::to_string(start) + "=" + hex(payload.data() + first, n));
        at = next;
        return true;
    }
    // The field at f[i] and, for a struct, its members; i is left past them.
    bool item(std::size_t& i) {
        ref_field const& d = f[i++];
        if (d.is_struct()) {
            if (d.kind == 0) {
                log.push_back("{" + d.name + "@" + std::to_string(at));
                for (unsigned k = 0; k < d.members(); ++k)
                    if (!item(i)) return false;
                log.push_back("}");
                return true;
            }
            std::size_t const array_at = at;
            std::size_t count = d.count;
            if (d.kind == 2 && !read_u16(count)) return false;
            log.push_back("[" + d.name + " " + std::to_string(count) + "@" + std::to_string(array_at));
            std::size_t const members = i;
            std::size_t end = i;
            for (unsigned k = 0; k < d.members(); ++k) end = static_cast<std::size_t>(ref_item(f, end, 0)); // depth checked already
            for (std::size_t e = 0; e < count; ++e) {
                i = members;
                log.push_back("{" + d.name + idx(static_cast<long>(e)) + "@" + std::to_string(at));
                for (unsigned k = 0; k < d.members(); ++k)
                    if (!item(i)) return false;
                log.push_back("}");
            }
            i = end;
            log.push_back("]");
            return true;
        }
        if (d.kind != 3 && (d.in == 0 || d.in > 25 || (d.in == 14 && (d.kind == 1 || d.kind == 2))))
            return fail(rule::tracelogging_metadata, d.offset);
        if (d.kind == 0 || d.kind == 3) return value(d, -1);
        std::size_t const array_at = at;
        std::size_t count = d.count;
        if (d.kind == 2 && !read_u16(count)) return false;
        log.push_back("[" + d.name + " " + std::to_string(count) + "@" + std::to_string(array_at));
        for (std::size_t e = 0; e < count; ++e)
            if (!value(d, static_cast<long>(e))) return false;
        log.push_back("]");
        return true;
    }
    bool run() {
        for (std::size_t i = 0; i < f.size();)
            if (!item(i)) return false;
        return true;
    }
};

// ---- the library under test ---------------------------------------------------------------------------

/// Logs what the reference logs, and calls every accessor on every value.
struct visitor {
    std::span<std::byte const> payload;
    std::vector<std::string> log;
    std::size_t open = 0;

    static std::string idx(std::size_t i) { return i == tl_no_index ? "" : "[" + std::to_string(i) + "]"; }
    bool inside(std::span<std::byte const> s) const {
        return s.empty() || (s.data() >= payload.data() && s.data() + s.size() <= payload.data() + payload.size());
    }
    void field(tl_value const& v) {
        FUZZ_CHECK(v.field.depth == open);
        FUZZ_CHECK(inside(v.bytes));
        FUZZ_CHECK(v.payload_offset <= payload.size());
        auto const* p = reinterpret_cast<unsigned char const*>(v.bytes.data());
        // Every accessor, with what it must say about the bytes.
        std::uint64_t le = 0;
        for (std::size_t i = v.bytes.size(); i-- > 0;) le = (le << 8) | p[i];
        tl_value_category const c = v.category();
        std::uint64_t const u = v.as_uint64();
        std::int64_t const s = v.as_int64();
        bool const integer = c == tl_value_category::signed_integer || c == tl_value_category::unsigned_integer ||
                             c == tl_value_category::boolean || c == tl_value_category::pointer || c == tl_value_category::file_time;
        FUZZ_CHECK(u == (integer && v.bytes.size() <= 8 ? le : 0));
        if (c != tl_value_category::signed_integer) FUZZ_CHECK(static_cast<std::uint64_t>(s) == u);
        else if (v.bytes.size() == 1) FUZZ_CHECK(s == static_cast<std::int8_t>(p[0]));
        (void)v.as_double();
        FUZZ_CHECK(v.as_bool() == (u != 0));
        guid const g = v.as_guid();
        if (c == tl_value_category::guid) FUZZ_CHECK(std::memcmp(&g.data4, p + 8, 8) == 0);
        else FUZZ_CHECK(g == guid{});
        utf16_text const w = v.as_utf16();
        FUZZ_CHECK(inside(w.bytes()));
        char utf8[64];
        std::size_t const need = w.to_utf8(utf8);
        FUZZ_CHECK(need >= w.size()); // each code unit takes at least one UTF-8 byte
        for (std::size_t i = 0; i < w.size(); ++i) (void)w[i];
        std::string_view const a = v.as_ansi();
        if (!a.empty()) FUZZ_CHECK(a.data() == reinterpret_cast<char const*>(p) && a.size() == v.bytes.size());
        std::uint64_t const ft = v.as_filetime();
        tl_system_time const t = tl_system_time_from_filetime(ft);
        FUZZ_CHECK(t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= 31 && t.hour < 24 && t.day_of_week < 7);
        tl_system_time const st = v.as_systemtime();
        if (c == tl_value_category::system_time) FUZZ_CHECK(st.year == (p[0] | (p[1] << 8)));
        FUZZ_CHECK(inside(v.as_sid()) && inside(v.as_binary()));
        if (c == tl_value_category::sid) FUZZ_CHECK(v.as_sid().size() == 8 + 4 * std::size_t{p[1]});
        (void)v.as_pointer();
        if (c == tl_value_category::custom) FUZZ_CHECK(v.as_binary().size() == v.bytes.size());
        log.push_back(std::string(v.name()) + idx(v.index) + "@" + std::to_string(v.payload_offset) + "=" + hex(p, v.bytes.size()));
    }
    void begin_struct(tl_struct_info const& s) {
        FUZZ_CHECK(s.field.depth == open);
        FUZZ_CHECK(s.member_count() >= 1);
        ++open;
        log.push_back("{" + std::string(s.name()) + idx(s.index) + "@" + std::to_string(s.payload_offset));
    }
    void end_struct() {
        FUZZ_CHECK(open > 0);
        --open;
        log.push_back("}");
    }
    void begin_array(tl_array_info const& a) {
        FUZZ_CHECK(a.field.depth == open);
        log.push_back("[" + std::string(a.name()) + " " + std::to_string(a.element_count) + "@" + std::to_string(a.payload_offset));
    }
    void end_array() { log.push_back("]"); }
};

void metadata_mode(ubytes const& blob, ubytes const& pay, unsigned pointer_size) {
    guarded_buffer mb(blob.size()), pb(pay.size());
    if (!blob.empty()) std::memcpy(mb.data(), blob.data(), blob.size());
    if (!pay.empty()) std::memcpy(pb.data(), pay.data(), pay.size());
    std::span<std::byte const> const md_span(reinterpret_cast<std::byte const*>(mb.data()), blob.size());
    std::span<std::byte const> const payload(reinterpret_cast<std::byte const*>(pb.data()), pay.size());

    ref_metadata const ref = ref_parse(blob);
    tl_event_metadata_result r;
    {
        poisoned_scope g(mb);
        r = parse_event_metadata(md_span);
    }
    FUZZ_CHECK(r.ok() == ref.ok);
    if (!r.ok()) {
        FUZZ_CHECK(r.fault.what == rule::tracelogging_metadata);
        FUZZ_CHECK(r.fault.offset <= blob.size());
        char text[200];
        (void)r.fault.describe(text);
        return;
    }
    tl_event_metadata const& md = r.metadata;
    FUZZ_CHECK(md.bytes().size() == ref.size && md.name() == ref.name && md.tags() == ref.tags);
    FUZZ_CHECK(md.field_count() == ref.fields.size());
    {
        poisoned_scope g(mb);
        std::size_t i = 0;
        for (tl_field const& f : md.fields()) {
            FUZZ_CHECK(i < ref.fields.size());
            ref_field const& e = ref.fields[i++];
            FUZZ_CHECK(f.name == e.name && f.offset == e.offset && static_cast<unsigned>(f.in_type) == e.in &&
                       static_cast<unsigned>(f.kind) == e.kind && f.tags == e.tags && f.depth <= tl_max_struct_depth);
            FUZZ_CHECK(f.is_struct() ? f.member_count == e.members() : static_cast<unsigned>(f.out_type) == e.out);
            if (f.kind == tl_field_kind::constant_count_array) FUZZ_CHECK(f.count == e.count);
            FUZZ_CHECK(f.schema.size() == e.schema_size);
            if (!f.schema.empty()) FUZZ_CHECK(f.schema.data() == md_span.data() + e.schema_at);
        }
        FUZZ_CHECK(i == ref.fields.size());
    }

    ref_decoder rd{ref.fields, pay, pointer_size, 0, {}, rule::ok, 0};
    bool const ref_ok = rd.run();
    visitor v{payload, {}, 0};
    tl_decode_result d;
    {
        poisoned_scope g1(mb);
        poisoned_scope g2(pb);
        d = decode_tracelogging(md, payload, pointer_size, v);
    }
    FUZZ_CHECK(d.ok() == ref_ok);
    FUZZ_CHECK(v.log == rd.log);
    if (ref_ok) {
        FUZZ_CHECK(d.consumed == rd.at);
        FUZZ_CHECK(v.open == 0);
    } else {
        FUZZ_CHECK(d.fault.what == rd.broken);
        FUZZ_CHECK(d.fault.offset == rd.fault_offset);
        FUZZ_CHECK(d.consumed <= pay.size());
    }
}

// ---- provider traits ----------------------------------------------------------------------------------

void traits_mode(ubytes const& blob) {
    // Reference: size in 3..blob.size(), a NUL-terminated name inside, traits of >= 3 bytes filling the rest.
    bool ok = false;
    std::size_t size = 0, name_end = 0;
    std::vector<std::pair<unsigned, std::string>> ref_traits;
    if (blob.size() >= 2) {
        size = blob[0] | (std::size_t{blob[1]} << 8);
        if (size >= 3 && size <= blob.size()) {
            std::size_t p = 2;
            while (p < size && blob[p] != 0) ++p;
            if (p < size) {
                name_end = p;
                ok = true;
                for (++p; p < size && ok;) {
                    std::size_t const t = size - p < 3 ? 0 : blob[p] | (std::size_t{blob[p + 1]} << 8);
                    if (t < 3 || t > size - p) ok = false;
                    else ref_traits.emplace_back(blob[p + 2], hex(blob.data() + p + 3, t - 3));
                    p += t;
                }
            }
        }
    }
    guarded_buffer b(blob.size());
    if (!blob.empty()) std::memcpy(b.data(), blob.data(), blob.size());
    std::span<std::byte const> const s(reinterpret_cast<std::byte const*>(b.data()), blob.size());
    poisoned_scope g(b);
    tl_provider_traits_result const r = parse_provider_traits(s);
    FUZZ_CHECK(r.ok() == ok);
    if (!ok) {
        FUZZ_CHECK(r.fault.what == rule::tracelogging_metadata && r.fault.offset <= blob.size());
        return;
    }
    FUZZ_CHECK(r.value.provider_name.data() == reinterpret_cast<char const*>(b.data()) + 2);
    FUZZ_CHECK(r.value.provider_name.size() == name_end - 2);
    std::vector<std::pair<unsigned, std::string>> seen;
    for (tl_provider_trait t : r.value.each_trait())
        seen.emplace_back(t.type, hex(reinterpret_cast<unsigned char const*>(t.data.data()), t.data.size()));
    FUZZ_CHECK(seen == ref_traits);
    guid group;
    bool has_group = false;
    for (auto const& t : ref_traits) has_group = has_group || (t.first == 1 && t.second.size() == 32);
    FUZZ_CHECK(r.value.provider_group(group) == has_group);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    if (size < 3) return 0;
    unsigned const flags = data[0];
    std::size_t const length = std::min<std::size_t>(data[1] | (std::size_t{data[2]} << 8), size - 3);
    ubytes blob(data + 3, data + 3 + length);
    ubytes const payload(data + 3 + length, data + size);
    if ((flags & 2) != 0 && blob.size() >= 2) {
        blob[0] = static_cast<unsigned char>(blob.size() & 0xFF);
        blob[1] = static_cast<unsigned char>((blob.size() >> 8) & 0xFF);
    }
    if ((flags & 4) != 0) traits_mode(blob);
    else metadata_mode(blob, payload, (flags & 1) != 0 ? 4 : 8);
    return 0;
}
