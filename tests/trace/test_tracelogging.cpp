// TraceLogging self-describing events (etwctl/trace/tracelogging.hpp): provider traits, event metadata and
// payloads built by hand for every InType, array kind, struct nesting, OutType, tag length and custom
// field; the worked example of SelfDescribingSingleEvent.etl; the five events of the real trace
// primitive-types.etl against TraceEvent's baseline; every malformed case with its rule, offset and field.
#include "etwctl_test.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "etwctl/trace/tracelogging.hpp"

namespace doctest {
template <>
struct StringMaker<etwctl::trace::tl_system_time> {
    static String convert(etwctl::trace::tl_system_time const& t) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%u-%u-%u (day of week %u) %u:%u:%u.%u", t.year, t.month, t.day, t.day_of_week, t.hour, t.minute,
                      t.second, t.milliseconds);
        return buf;
    }
};
} // namespace doctest

namespace tl_tests { // named (not anonymous): the tests are built as unity batches with other files

using namespace etwctl;
using namespace etwctl::trace;
using bytes = std::vector<std::byte>;

/// Little-endian byte writer for metadata and payloads.
struct writer {
    bytes b;
    writer& u8(std::uint64_t v) {
        b.push_back(static_cast<std::byte>(v & 0xFF));
        return *this;
    }
    writer& u16(std::uint64_t v) { return u8(v).u8((v >> 8) & 0xFF); }
    writer& u32(std::uint64_t v) { return u16(v & 0xFFFF).u16((v >> 16) & 0xFFFF); }
    writer& u64(std::uint64_t v) { return u32(v & 0xFFFFFFFF).u32(v >> 32); }
    writer& raw(std::vector<unsigned> const& v) {
        for (unsigned x : v) u8(x);
        return *this;
    }
    writer& append(bytes const& v) {
        b.insert(b.end(), v.begin(), v.end());
        return *this;
    }
    /// 8-bit text and its NUL.
    writer& str(std::string_view s) {
        for (char c : s) u8(static_cast<unsigned char>(c));
        return u8(0);
    }
    /// 8-bit text without a NUL.
    writer& chars(std::string_view s) {
        for (char c : s) u8(static_cast<unsigned char>(c));
        return *this;
    }
    /// UTF-16LE text (ASCII here) without a NUL.
    writer& wchars(std::string_view s) {
        for (char c : s) u16(static_cast<unsigned char>(c));
        return *this;
    }
    writer& wstr(std::string_view s) { return wchars(s).u16(0); }
    writer& guid_le(guid const& g) {
        u32(g.data1).u16(g.data2).u16(g.data3);
        for (auto x : g.data4) u8(x);
        return *this;
    }
    std::size_t size() const { return b.size(); }
};

/// Event metadata: the size field (patched by done()), the tag bytes, the event name.
struct meta : writer {
    explicit meta(std::string_view event_name, std::vector<unsigned> const& tag_bytes = {0}) {
        u16(0);
        raw(tag_bytes);
        str(event_name);
    }
    bytes done() {
        bytes out = b;
        out[0] = static_cast<std::byte>(out.size() & 0xFF);
        out[1] = static_cast<std::byte>(out.size() >> 8);
        return out;
    }
};

std::string hex(std::span<std::byte const> s) {
    std::string out;
    char buf[4];
    for (std::byte x : s) {
        std::snprintf(buf, sizeof buf, "%02x", std::to_integer<unsigned>(x));
        out += buf;
    }
    return out;
}

std::string utf8(utf16_text t) {
    std::string s(t.to_utf8({}), '\0');
    t.to_utf8(s);
    return s;
}

std::string text_of(guid const& g) {
    char buf[37];
    g.format(buf);
    return buf;
}

/// "literal" + std::string without operator+(char const*, std::string&&): g++ 12 at -O3 reports a false
/// -Wrestrict in the insert that operator uses (GCC bug 105329).
inline std::string tl_cat(char const* a, std::string const& b) {
    std::string s(a);
    s += b;
    return s;
}

/// Every accessor's answer for a value in one line of text, by its category.
std::string value_text(tl_value const& v) {
    char buf[64];
    switch (v.category()) {
    case tl_value_category::signed_integer: return tl_cat("i:", std::to_string(v.as_int64()));
    case tl_value_category::unsigned_integer: return tl_cat("u:", std::to_string(v.as_uint64()));
    case tl_value_category::floating_point: std::snprintf(buf, sizeof buf, "d:%g", v.as_double()); return buf;
    case tl_value_category::boolean: return std::string("b:") + (v.as_bool() ? "true" : "false");
    case tl_value_category::guid: return "g:" + text_of(v.as_guid());
    case tl_value_category::pointer: std::snprintf(buf, sizeof buf, "p:%llx", static_cast<unsigned long long>(v.as_pointer())); return buf;
    case tl_value_category::file_time: return tl_cat("ft:", std::to_string(v.as_filetime()));
    case tl_value_category::system_time: {
        tl_system_time const t = v.as_systemtime();
        std::snprintf(buf, sizeof buf, "st:%u-%u-%u(%u) %u:%u:%u.%u", t.year, t.month, t.day, t.day_of_week, t.hour, t.minute, t.second, t.milliseconds);
        return buf;
    }
    case tl_value_category::utf16_string: return "w:" + utf8(v.as_utf16());
    case tl_value_category::ansi_string: return tl_cat("a:", std::string(v.as_ansi()));
    case tl_value_category::sid: return "sid:" + hex(v.as_sid());
    case tl_value_category::binary: return "bin:" + hex(v.as_binary());
    case tl_value_category::custom: return "cust:" + hex(v.as_binary()) + "/" + hex(v.field.schema);
    }
    return "?";
}

/// Writes every callback as a line; checks each callback's depth against the nesting it has seen.
struct recorder {
    std::vector<std::string> out;
    std::size_t open_structs = 0;
    bool depth_ok = true;

    static std::string index_text(std::size_t i) { return i == tl_no_index ? "" : tl_cat("[", std::to_string(i)) + "]"; }
    void field(tl_value const& v) {
        if (v.field.depth != open_structs) depth_ok = false;
        std::string line = std::string(v.name()) + index_text(v.index) + "=" + value_text(v);
        if (v.out_type() != tl_out_type::null) line += tl_cat(" out=", std::to_string(static_cast<unsigned>(v.out_type())));
        if (v.field.tags != 0) line += tl_cat(" tags=", std::to_string(v.field.tags));
        out.push_back(line);
    }
    void begin_struct(tl_struct_info const& s) {
        if (s.field.depth != open_structs) depth_ok = false;
        ++open_structs;
        out.push_back(tl_cat("{", std::string(s.name())) + index_text(s.index) + tl_cat(" n=", std::to_string(s.member_count())));
    }
    void end_struct() {
        --open_structs;
        out.push_back("}");
    }
    void begin_array(tl_array_info const& a) {
        if (a.field.depth != open_structs) depth_ok = false;
        out.push_back(tl_cat("[", std::string(a.name())) + tl_cat(" n=", std::to_string(a.element_count)));
    }
    void end_array() { out.push_back("]"); }
};

tl_event_metadata parsed(bytes&&) = delete; // it would view a destroyed blob
tl_event_metadata parsed(bytes const& md) {
    tl_event_metadata_result const r = parse_event_metadata(md);
    INFO("metadata fault: " << r.fault.reason << " at " << r.fault.offset << " field " << r.fault.field);
    REQUIRE(r.ok());
    return r.metadata;
}

/// Decodes and returns the lines; the decode must succeed and consume the whole payload.
std::vector<std::string> decoded(bytes const& md, bytes const& payload, unsigned pointer_size = 8) {
    tl_event_metadata const m = parsed(md);
    recorder rec;
    tl_decode_result const r = decode_tracelogging(m, payload, pointer_size, rec);
    INFO("payload fault: " << r.fault.reason << " at " << r.fault.offset << " field " << r.fault.field);
    REQUIRE(r.ok());
    CHECK(r.consumed == payload.size());
    CHECK(rec.open_structs == 0);
    CHECK(rec.depth_ok);
    return rec.out;
}

using lines = std::vector<std::string>;

/// One sample value of an InType: its payload bytes and the line the recorder writes for it.
struct sample {
    bytes payload;
    std::string text;
};
sample sample_of(tl_in_type t, unsigned k) {
    writer w;
    std::string text;
    auto const kk = std::to_string(k);
    switch (t) {
    case tl_in_type::unicode_string: w.wstr("s" + kk); text = "w:s" + kk; break;
    case tl_in_type::ansi_string: w.str("a" + kk); text = "a:a" + kk; break;
    case tl_in_type::int8: w.u8(0x100 - (k + 1)); text = tl_cat("i:-", std::to_string(k + 1)); break;
    case tl_in_type::uint8: w.u8(200 + k); text = tl_cat("u:", std::to_string(200 + k)); break;
    case tl_in_type::int16: w.u16(0x10000 - (1000 + k)); text = tl_cat("i:-", std::to_string(1000 + k)); break;
    case tl_in_type::uint16: w.u16(60000 + k); text = tl_cat("u:", std::to_string(60000 + k)); break;
    case tl_in_type::int32: w.u32(0x100000000ULL - (100000 + k)); text = tl_cat("i:-", std::to_string(100000 + k)); break;
    case tl_in_type::uint32: w.u32(4000000000U + k); text = tl_cat("u:", std::to_string(4000000000ULL + k)); break;
    case tl_in_type::int64: w.u64(0 - ((1ULL << 40) + k)); text = tl_cat("i:-", std::to_string((1ULL << 40) + k)); break;
    case tl_in_type::uint64: w.u64((1ULL << 63) + k); text = tl_cat("u:", std::to_string((1ULL << 63) + k)); break;
    case tl_in_type::float32: { float const f = static_cast<float>(k) + 0.5f; std::uint32_t u; std::memcpy(&u, &f, 4); w.u32(u); text = "d:" + kk + ".5"; break; }
    case tl_in_type::float64: { double const d = static_cast<double>(k) + 0.25; std::uint64_t u; std::memcpy(&u, &d, 8); w.u64(u); text = "d:" + kk + ".25"; break; }
    case tl_in_type::bool32: w.u32(k % 2 == 0 ? 0 : 7); text = k % 2 == 0 ? "b:false" : "b:true"; break;
    case tl_in_type::binary:
    case tl_in_type::counted_binary: w.u16(k + 1); for (unsigned i = 0; i <= k; ++i) w.u8(0xA0 + i); text = "bin:"; for (unsigned i = 0; i <= k; ++i) text += tl_cat("a", std::to_string(i)); break;
    case tl_in_type::guid: {
        w.guid_le(guid(0x01020304 + k, 0x0506, 0x0708, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, static_cast<std::uint8_t>(0x10 + k)));
        char b[64];
        std::snprintf(b, sizeof b, "g:%08x-0506-0708-090a-0b0c0d0e0f%02x", 0x01020304 + k, 0x10 + k);
        text = b;
        break;
    }
    case tl_in_type::pointer: w.u64(0x7FF612340000ULL + k); text = "p:7ff61234000" + kk; break;
    case tl_in_type::file_time: w.u64(132757535757990000ULL + k); text = tl_cat("ft:", std::to_string(132757535757990000ULL + k)); break;
    case tl_in_type::system_time: w.u16(2021).u16(9).u16(4).u16(9).u16(14).u16(59).u16(35).u16(k); text = "st:2021-9-9(4) 14:59:35." + kk; break;
    case tl_in_type::sid: // S-1-5-21-..., k sub-authorities
        w.u8(1).u8(k).raw({0, 0, 0, 0, 0, 5});
        text = tl_cat("sid:01", std::string(k < 10 ? "0" : "")) + kk + "000000000005";
        for (unsigned i = 0; i < k; ++i) { w.u32(21 + i); char b[16]; std::snprintf(b, sizeof b, "%02x000000", 21 + i); text += b; }
        break;
    case tl_in_type::hex_int32: w.u32(0xDEAD0000U + k); text = tl_cat("u:", std::to_string(0xDEAD0000ULL + k)); break;
    case tl_in_type::hex_int64: w.u64(0xFEED000000000000ULL + k); text = tl_cat("u:", std::to_string(0xFEED000000000000ULL + k)); break;
    case tl_in_type::counted_string: w.u16(2 * (2 + static_cast<unsigned>(kk.size()))).wchars("cs" + kk); text = "w:cs" + kk; break;
    case tl_in_type::counted_ansi_string: w.u16(2 + static_cast<unsigned>(kk.size())).chars("ca" + kk); text = "a:ca" + kk; break;
    default: FAIL("no sample for this InType");
    }
    return {w.b, text};
}

/// Every InType with a payload encoding (all but Null and Struct), as written in metadata.
std::vector<tl_in_type> value_in_types() {
    std::vector<tl_in_type> out;
    for (unsigned t = 1; t <= 25; ++t)
        if (t != 24) out.push_back(static_cast<tl_in_type>(t));
    return out;
}

/// A fault with its field name copied (the fault's own view points into the metadata blob).
struct owned_fault {
    rule what = rule::ok;
    std::size_t offset = 0;
    std::uint64_t value = 0;
    std::uint64_t limit = 0;
    std::string field;
};
owned_fault owned(tl_fault const& f) {
    CHECK_FALSE(f.reason.empty());
    return {f.what, f.offset, f.value, f.limit, std::string(f.field)};
}

/// The fault of parsing `md`, which must fail.
owned_fault metadata_fault(bytes const& md) {
    bytes const exact(md.begin(), md.end()); // exact size: a read past its end is a heap overflow ASan reports
    tl_event_metadata_result const r = parse_event_metadata(exact);
    REQUIRE_FALSE(r.ok());
    CHECK(r.fault.what == rule::tracelogging_metadata);
    return owned(r.fault);
}

/// The fault of decoding `payload` against `md` (which parses), which must fail.
owned_fault payload_fault(bytes const& md, bytes const& payload, unsigned pointer_size = 8) {
    tl_event_metadata const m = parsed(md);
    recorder rec;
    bytes const exact(payload.begin(), payload.end());
    tl_decode_result const r = decode_tracelogging(m, exact, pointer_size, rec);
    REQUIRE_FALSE(r.ok());
    CHECK(r.consumed <= payload.size());
    return owned(r.fault);
}

// ---- a minimal walk of an uncompressed .etl (the reader in trace/ replaces it) ----------------------

struct etl_event {
    std::span<std::byte const> traits, schema, payload;
    unsigned pointer_size = 8;
};

bytes read_file(char const* path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes out(raw.size());
    std::memcpy(out.data(), raw.data(), raw.size());
    return out;
}

/// The EVENT_HEADER records of 8 KB buffers: records from +0x48, 8-aligned, to the end of data at +0x30;
/// extended items from +0x50, each 8-aligned, while their linkage bit says another follows; the payload
/// from the 8-aligned end of the last item to the record's end.
std::vector<etl_event> events_of(bytes const& file) {
    constexpr std::size_t buffer_size = 8192;
    REQUIRE(file.size() % buffer_size == 0);
    auto u16 = [&](std::size_t at) { return std::to_integer<std::size_t>(file[at]) | (std::to_integer<std::size_t>(file[at + 1]) << 8); };
    std::vector<etl_event> out;
    for (std::size_t buffer = 0; buffer < file.size(); buffer += buffer_size) {
        std::size_t const end = u16(buffer + 0x30) | (u16(buffer + 0x32) << 16);
        REQUIRE(end <= buffer_size);
        for (std::size_t off = 0x48; off + 4 <= end;) {
            std::size_t const rec = buffer + off;
            unsigned const type = std::to_integer<unsigned>(file[rec + 2]);
            REQUIRE(std::to_integer<unsigned>(file[rec + 3]) == 0xC0);
            bool const event_header = type == 0x12 || type == 0x13;
            std::size_t const size = event_header ? u16(rec) : u16(rec + 4);
            REQUIRE(size > 0);
            REQUIRE(off + size <= end);
            if (event_header) {
                etl_event e;
                e.pointer_size = type == 0x12 ? 4 : 8;
                std::size_t p = rec + 0x50;
                if ((u16(rec + 4) & 1) != 0) {
                    for (bool more = true; more;) {
                        std::size_t const ext_type = u16(p + 2), data_size = u16(p + 6);
                        more = (u16(p + 4) & 1) != 0;
                        REQUIRE(p + 8 + data_size <= rec + size);
                        std::span<std::byte const> const data(file.data() + p + 8, data_size);
                        if (ext_type == 0x000C) e.traits = data;
                        if (ext_type == 0x000B) e.schema = data;
                        p = (p + 8 + data_size + 7) & ~std::size_t{7};
                    }
                }
                REQUIRE(p <= rec + size);
                e.payload = std::span<std::byte const>(file.data() + p, rec + size - p);
                out.push_back(e);
            }
            off += (size + 7) & ~std::size_t{7};
        }
    }
    return out;
}

/// The fields of TraceEvent's baseline line for each "solar_system/PrimitiveTypesTest" event.
std::vector<std::map<std::string, std::string>> baseline_events(char const* path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::map<std::string, std::string>> out;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("EVENT ", 0) != 0 || line.find("solar_system/PrimitiveTypesTest") == std::string::npos) continue;
        std::map<std::string, std::string> fields;
        std::size_t at = line.find(' ', line.find("PrimitiveTypesTest"));
        while (at != std::string::npos && at + 1 < line.size()) {
            std::size_t const end = line.find("; ", at + 1);
            std::string const item = line.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
            if (std::size_t const eq = item.find('='); eq != std::string::npos) fields[item.substr(0, eq)] = item.substr(eq + 1);
            at = end == std::string::npos ? end : end + 1;
        }
        out.push_back(fields);
    }
    return out;
}

/// TraceEvent's way of printing a value cut to 20 characters: the text, then "..." when longer.
std::string cut20(std::string s) { return s.size() > 20 ? s.substr(0, 20) + "..." : s; }

std::string yymmdd_hhmmss_fff(tl_system_time const& t) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%02u/%02u/%02u %02u:%02u:%02u.%03u", t.year % 100U, t.month, t.day, t.hour, t.minute, t.second,
                  t.milliseconds);
    return buf;
}


// ---- provider traits ---------------------------------------------------------------------------------

TEST_CASE("tracelogging: provider traits name, group GUID and custom traits") {
    // The traits item of primitive-types.etl: 0F 00 "solar_system" 00.
    writer plain;
    plain.u16(15).str("solar_system");
    tl_provider_traits_result const p = parse_provider_traits(plain.b);
    REQUIRE(p.ok());
    CHECK(p.value.provider_name == "solar_system");
    CHECK(p.value.traits.empty());
    guid g;
    CHECK_FALSE(p.value.provider_group(g));

    guid const group = guid::from_string("faaf2f61-9b26-4591-9bb1-b9b8bae2d34c");
    writer w;
    w.u16(0).str("P").u16(3 + 4).u8(200).u32(0xAABBCCDD).u16(19).u8(1).guid_le(group).u16(3).u8(2);
    w.b[0] = static_cast<std::byte>(w.size());
    tl_provider_traits_result const r = parse_provider_traits(w.b);
    REQUIRE(r.ok());
    CHECK(r.value.provider_name == "P");
    std::vector<std::pair<unsigned, std::string>> seen;
    for (tl_provider_trait t : r.value.each_trait()) seen.emplace_back(t.type, hex(t.data));
    std::string const group_bytes = hex(std::span<std::byte const>(w.b).subspan(14, 16));
    std::vector<std::pair<unsigned, std::string>> const expected{{200U, "ddccbbaa"}, {1U, group_bytes}, {2U, ""}};
    CHECK(seen == expected);
    REQUIRE(r.value.provider_group(g));
    CHECK(g == group);

    // Bytes after the size field's extent are not part of the blob.
    writer padded = plain;
    padded.u8(0xEE).u8(0xEE);
    tl_provider_traits_result const q = parse_provider_traits(padded.b);
    REQUIRE(q.ok());
    CHECK(q.value.traits.empty());
}

TEST_CASE("tracelogging: malformed provider traits") {
    auto fault = [](bytes const& b) {
        tl_provider_traits_result const r = parse_provider_traits(b);
        REQUIRE_FALSE(r.ok());
        CHECK(r.fault.what == rule::tracelogging_metadata);
        return r.fault;
    };
    CHECK(fault(bytes{std::byte{3}}).offset == 0); // shorter than the size field
    {
        writer w; // size larger than the blob
        w.u16(40).str("P");
        tl_fault const f = fault(w.b);
        CHECK((f.offset == 0 && f.value == 40 && f.limit == 4));
    }
    {
        writer w; // size below 3
        w.u16(2).str("P");
        CHECK(fault(w.b).value == 2);
    }
    {
        writer w; // name without NUL inside the size
        w.u16(5).chars("abc");
        CHECK(fault(w.b).offset == 2);
    }
    {
        writer w; // a trait header cut
        w.u16(6).str("P").u16(3);
        tl_fault const f = fault(w.b);
        CHECK((f.offset == 4 && f.value == 2 && f.limit == 3));
    }
    {
        writer w; // a trait size below 3
        w.u16(7).str("P").u16(2).u8(1);
        CHECK(fault(w.b).offset == 4);
    }
    {
        writer w; // a trait past the end
        w.u16(8).str("P").u16(5).u8(1).u8(0);
        tl_fault const f = fault(w.b);
        CHECK((f.offset == 4 && f.value == 5 && f.limit == 4));
    }
}

// ---- metadata ----------------------------------------------------------------------------------------

TEST_CASE("tracelogging: event tags of 1 to 4 bytes, most significant 7 bits first") {
    struct row {
        std::vector<unsigned> bytes;
        std::uint32_t tags;
    };
    for (row const& r : {row{{0x00}, 0}, row{{0x01}, 0x200000}, row{{0x80, 0x01}, 0x4000}, row{{0x80, 0x80, 0x01}, 0x80},
                         row{{0x80, 0x80, 0x80, 0x01}, 1}, row{{0xFF, 0xFF, 0xFF, 0x7F}, 0x0FFFFFFF}, row{{0x8A, 0x05}, 0x1414000}}) {
        meta m("Ev", r.bytes);
        m.str("f").u8(0x88).u8(0x80 | 0x04).raw(r.bytes); // the same tags on a field (UInt32, OutType Hex)
        bytes const blob = m.done();
        tl_event_metadata const md = parsed(blob);
        CHECK(md.name() == "Ev");
        CHECK(md.tags() == r.tags);
        REQUIRE(md.field_count() == 1);
        tl_field const f = *md.fields().begin();
        CHECK(f.name == "f");
        CHECK(f.in_type == tl_in_type::uint32);
        CHECK(f.out_type == tl_out_type::hex);
        CHECK(f.tags == r.tags);
    }
}

TEST_CASE("tracelogging: field definitions: kinds, OutTypes, tags, counts, schemas, depth") {
    meta m("Defs");
    m.str("plain").u8(0x07);                                      // Int32
    m.str("hexed").u8(0x84).u8(0x04);                             // UInt8, OutType Hex
    m.str("tagged").u8(0x86).u8(0x80 | 0x07).raw({0x80, 0x01});   // UInt16, OutType Port, tags 0x4000
    m.str("fixed").u8(0x20 | 0x08).u16(3);                        // UInt32[3]
    m.str("var").u8(0x40 | 0x01);                                 // UnicodeString[]
    m.str("cust").u8(0x60 | 0x05).u16(3).raw({0xC1, 0xC2, 0xC3}); // custom, protocol 5, schema 3 bytes
    m.str("s").u8(0x98).u8(2);                                    // struct of 2
    m.str("inner").u8(0xD8).u8(0x81).raw({0x05});                 // variable array of struct of 1, tags
    m.str("leaf").u8(0x02);                                       // AnsiString
    m.str("after").u8(0x0F);                                      // Guid, member 2 of s
    m.str("top").u8(0x04);
    bytes const blob = m.done();
    tl_event_metadata const md = parsed(blob);
    CHECK(md.field_count() == 11);
    std::vector<std::string> seen;
    for (tl_field const& f : md.fields()) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.*s in=%u out=%u kind=%u n=%u count=%u tags=%x schema=%s depth=%zu",
                      static_cast<int>(f.name.size()), f.name.data(), static_cast<unsigned>(f.in_type),
                      static_cast<unsigned>(f.out_type), static_cast<unsigned>(f.kind), static_cast<unsigned>(f.member_count),
                      static_cast<unsigned>(f.count), static_cast<unsigned>(f.tags), hex(f.schema).c_str(), f.depth);
        seen.push_back(buf);
    }
    CHECK(seen == lines{
                      "plain in=7 out=0 kind=0 n=0 count=0 tags=0 schema= depth=0",
                      "hexed in=4 out=4 kind=0 n=0 count=0 tags=0 schema= depth=0",
                      "tagged in=6 out=7 kind=0 n=0 count=0 tags=4000 schema= depth=0",
                      "fixed in=8 out=0 kind=1 n=0 count=3 tags=0 schema= depth=0",
                      "var in=1 out=0 kind=2 n=0 count=0 tags=0 schema= depth=0",
                      "cust in=5 out=0 kind=3 n=0 count=0 tags=0 schema=c1c2c3 depth=0",
                      "s in=24 out=0 kind=0 n=2 count=0 tags=0 schema= depth=0",
                      "inner in=24 out=0 kind=2 n=1 count=0 tags=a00000 schema= depth=1",
                      "leaf in=2 out=0 kind=0 n=0 count=0 tags=0 schema= depth=2",
                      "after in=15 out=0 kind=0 n=0 count=0 tags=0 schema= depth=1",
                      "top in=4 out=0 kind=0 n=0 count=0 tags=0 schema= depth=0",
                  });
    // Offsets: each definition starts where the previous one ended.
    std::size_t expected = md.first_field_offset();
    for (tl_field const& f : md.fields()) {
        CHECK(f.offset == expected);
        expected = f.next;
    }
    CHECK(expected == md.bytes().size());
}

TEST_CASE("tracelogging: bytes after the metadata's size field are not part of it") {
    meta m("E");
    m.str("a").u8(0x04);
    bytes md = m.done();
    md.push_back(std::byte{'z'}); // a field name without NUL, outside the size
    tl_event_metadata const parsed_md = parsed(md);
    CHECK(parsed_md.field_count() == 1);
    CHECK(parsed_md.bytes().size() == md.size() - 1);
}

// ---- payload: every InType ---------------------------------------------------------------------------

TEST_CASE("tracelogging: every InType as a scalar") {
    meta m("Scalars");
    writer payload;
    lines expected;
    for (tl_in_type t : value_in_types()) {
        std::string const name = tl_cat("f", std::to_string(static_cast<unsigned>(t)));
        m.str(name).u8(static_cast<unsigned>(t));
        sample const s = sample_of(t, 3);
        payload.append(s.payload);
        expected.push_back(name + "=" + s.text);
    }
    CHECK(decoded(m.done(), payload.b) == expected);
}

TEST_CASE("tracelogging: Pointer takes the event's pointer size") {
    meta m("Ptr");
    m.str("p").u8(0x10).str("after").u8(0x04);
    writer p32;
    p32.u32(0x12345678).u8(9);
    CHECK(decoded(m.done(), p32.b, 4) == lines{"p=p:12345678", "after=u:9"});
    writer p64;
    p64.u64(0x1122334455667788ULL).u8(9);
    CHECK(decoded(m.done(), p64.b, 8) == lines{"p=p:1122334455667788", "after=u:9"});
    // A pointer size other than 4 or 8 is refused before anything is read.
    owned_fault const f = payload_fault(m.done(), p64.b, 5);
    CHECK(f.what == rule::tracelogging_payload);
    CHECK(f.value == 5);
}

TEST_CASE("tracelogging: arrays of every InType, constant and variable count") {
    for (tl_in_type t : value_in_types()) {
        if (t == tl_in_type::binary) continue; // no array encoding (a metadata fault, tested below)
        unsigned const in = static_cast<unsigned>(t);
        CAPTURE(in);
        meta m("Arrays");
        m.str("c").u8(0x20 | in).u16(2);  // constant count 2
        m.str("v").u8(0x40 | in);         // variable count, 3 in the payload
        m.str("e").u8(0x40 | in);         // variable count, 0 in the payload
        writer payload;
        lines expected{"[c n=2"};
        for (unsigned k = 0; k < 2; ++k) {
            sample const s = sample_of(t, k);
            payload.append(s.payload);
            expected.push_back(tl_cat("c[", std::to_string(k)) + "]=" + s.text);
        }
        expected.insert(expected.end(), {"]", "[v n=3"});
        payload.u16(3);
        for (unsigned k = 0; k < 3; ++k) {
            sample const s = sample_of(t, 4 + k);
            payload.append(s.payload);
            expected.push_back(tl_cat("v[", std::to_string(k)) + "]=" + s.text);
        }
        expected.insert(expected.end(), {"]", "[e n=0", "]"});
        payload.u16(0);
        CHECK(decoded(m.done(), payload.b) == expected);
    }
}

TEST_CASE("tracelogging: typed accessors answer only for their category") {
    meta m("Acc");
    m.str("i8").u8(0x03).str("u64").u8(0x0A).str("f").u8(0x0B).str("b8").u8(0x84).u8(0x03).str("s").u8(0x01);
    writer p;
    p.u8(0x80).u64(0xFFFFFFFFFFFFFF34ULL).u32(0x3FC00000).u8(1).wstr("x");
    std::vector<tl_value> values;
    struct keep {
        std::vector<tl_value>& out;
        void field(tl_value const& v) { out.push_back(v); }
    } k{values};
    bytes const blob = m.done();
    tl_event_metadata const md = parsed(blob);
    REQUIRE(decode_tracelogging(md, p.b, 8, k).ok());
    REQUIRE(values.size() == 5);
    CHECK(values[0].as_int64() == -128);
    CHECK(values[0].as_uint64() == 0x80);
    CHECK(values[0].as_double() == -128.0);
    CHECK(values[1].as_int64() == -204); // UInt64 bits read as signed (TraceEvent shows primitive-types' int64_type so)
    CHECK(values[1].as_uint64() == 0xFFFFFFFFFFFFFF34ULL);
    CHECK(values[2].as_double() == 1.5);
    CHECK(values[2].as_uint64() == 0); // a float is not an integer
    CHECK(values[3].as_bool());
    CHECK(values[3].out_type() == tl_out_type::boolean);
    CHECK(values[4].as_utf16().equals_ascii("x"));
    CHECK(values[4].as_ansi().empty());
    CHECK(values[4].as_uint64() == 0);
    CHECK(values[4].as_guid() == guid{});
    CHECK(values[4].as_binary().empty());
    CHECK(values[4].as_sid().empty());
    CHECK(values[4].as_filetime() == 0);
    CHECK(values[4].as_systemtime() == tl_system_time{});
    CHECK(values[4].as_pointer() == 0);
    CHECK(values[0].as_utf16().empty());
    // payload offsets of each value
    CHECK(values[0].payload_offset == 0);
    CHECK(values[1].payload_offset == 1);
    CHECK(values[2].payload_offset == 9);
    CHECK(values[3].payload_offset == 13);
    CHECK(values[4].payload_offset == 14);
    CHECK(values[4].bytes.size() == 2); // without the NUL
}

// ---- structs -----------------------------------------------------------------------------------------

TEST_CASE("tracelogging: the SelfDescribingSingleEvent example decodes to struct a {b, c}") {
    bytes const schema = {std::byte{0x17}, std::byte{0x00}, std::byte{0x00}};
    writer s;
    s.append(schema).chars("TestEvent").u8(0).str("a").raw({0x98, 0x02}).str("b").u8(0x01).str("c").u8(0x01);
    REQUIRE(s.size() == 0x17);
    writer payload;
    payload.wstr("Hello").wstr("World!");
    tl_event_metadata const md = parsed(s.b);
    CHECK(md.name() == "TestEvent");
    CHECK(md.tags() == 0);
    CHECK(decoded(s.b, payload.b) == lines{"{a n=2", "b=w:Hello", "c=w:World!", "}"});
}

TEST_CASE("tracelogging: a struct inside a struct, arrays of structs, empty arrays of structs") {
    meta m("Nested");
    m.str("outer").u8(0x98).u8(3);          // struct of 3: x, inner, y
    m.str("x").u8(0x04);                    //   UInt8
    m.str("inner").u8(0x98).u8(2);          //   struct of 2: s, n
    m.str("s").u8(0x02);                    //     AnsiString
    m.str("n").u8(0x07);                    //     Int32
    m.str("y").u8(0x06);                    //   UInt16
    m.str("list").u8(0xD8).u8(2);           // variable array of struct of 2: id, pts
    m.str("id").u8(0x04);                   //   UInt8
    m.str("pts").u8(0xB8).u8(1).u16(2);     //   constant array (2) of struct of 1: v
    m.str("v").u8(0x05);                    //     Int16
    m.str("none").u8(0xD8).u8(2);           // variable array of struct of 2, empty in the payload
    m.str("skipped").u8(0x98).u8(1);        //   struct of 1 (its definitions are skipped)
    m.str("deep").u8(0x01);                 //     UnicodeString
    m.str("z").u8(0x02);                    //   AnsiString
    m.str("end").u8(0x04);                  // UInt8
    writer p;
    p.u8(1).str("in").u32(0xFFFFFFFE).u16(7);
    p.u16(2);                                   // list: 2 elements
    p.u8(10).u16(100).u16(0x10000 - 101);       //   id 10, pts [100, -101]
    p.u8(20).u16(200).u16(201);                 //   id 20, pts [200, 201]
    p.u16(0);                                   // none: 0 elements
    p.u8(99);
    CHECK(decoded(m.done(), p.b) == lines{
                                         "{outer n=3",
                                         "x=u:1",
                                         "{inner n=2",
                                         "s=a:in",
                                         "n=i:-2",
                                         "}",
                                         "y=u:7",
                                         "}",
                                         "[list n=2",
                                         "{list[0] n=2",
                                         "id=u:10",
                                         "[pts n=2",
                                         "{pts[0] n=1",
                                         "v=i:100",
                                         "}",
                                         "{pts[1] n=1",
                                         "v=i:-101",
                                         "}",
                                         "]",
                                         "}",
                                         "{list[1] n=2",
                                         "id=u:20",
                                         "[pts n=2",
                                         "{pts[0] n=1",
                                         "v=i:200",
                                         "}",
                                         "{pts[1] n=1",
                                         "v=i:201",
                                         "}",
                                         "]",
                                         "}",
                                         "]",
                                         "[none n=0",
                                         "]",
                                         "end=u:99",
                                     });
}

TEST_CASE("tracelogging: structs nested to the limit decode; one deeper is refused") {
    auto chain = [](std::size_t levels) {
        meta m("Deep");
        for (std::size_t i = 0; i < levels; ++i) m.str(tl_cat("s", std::to_string(i))).u8(0x98).u8(1);
        m.str("leaf").u8(0x04);
        return m.done();
    };
    lines expected;
    for (std::size_t i = 0; i < tl_max_struct_depth; ++i) expected.push_back(tl_cat("{s", std::to_string(i)) + " n=1");
    expected.push_back("leaf=u:42");
    for (std::size_t i = 0; i < tl_max_struct_depth; ++i) expected.push_back("}");
    CHECK(decoded(chain(tl_max_struct_depth), bytes{std::byte{42}}) == expected);

    for (std::size_t levels : {tl_max_struct_depth + 1, std::size_t{100}}) {
        bytes const md = chain(levels);
        owned_fault const f = metadata_fault(md);
        CHECK(f.field == "s32"); // the 33rd struct
        CHECK(f.value == tl_max_struct_depth + 1);
        CHECK(f.limit == tl_max_struct_depth);
        CHECK(f.offset == 2 + 1 + 5 + 10 * 5 + 22 * 6); // size, tag, "Deep\0", s0..s9 of 5 bytes, s10..s31 of 6
    }
}

// ---- OutTypes, tags and custom fields in the payload -------------------------------------------------

TEST_CASE("tracelogging: OutType chaining and field tags reach the visitor") {
    meta m("Hints", {0x80, 0x80, 0x01}); // event tags 0x80 in 3 bytes
    m.str("flag").u8(0x84).u8(0x03);                             // UInt8 Boolean
    m.str("ch").u8(0x84).u8(0x02);                               // UInt8 String
    m.str("port").u8(0x86).u8(0x87).raw({0x01});                 // UInt16 Port, tags 1 byte
    m.str("err").u8(0x88).u8(0x8D).raw({0x80, 0x01});            // UInt32 Win32Error, tags 2 bytes
    m.str("u8s").u8(0x82).u8(0xA3).raw({0xFF, 0xFF, 0xFF, 0x7F}); // AnsiString Utf8, tags 4 bytes
    m.str("nohint").u8(0x87).u8(0x80).raw({0x00});               // Int32, OutType 0 but tags (0)
    writer p;
    p.u8(1).u8('M').u16(0x5000).u32(5).str("h\xC3\xA9").u32(0xFFFFFFFF);
    bytes const md = m.done();
    CHECK(parsed(md).tags() == 0x80);
    CHECK(decoded(md, p.b) == lines{
                                  "flag=u:1 out=3",
                                  "ch=u:77 out=2",
                                  "port=u:20480 out=7 tags=2097152",
                                  "err=u:5 out=13 tags=16384",
                                  "u8s=a:h\xC3\xA9 out=35 tags=268435455",
                                  "nohint=i:-1",
                              });
}

TEST_CASE("tracelogging: custom-schema fields carry their schema and a counted payload") {
    meta m("Custom");
    m.str("bond").u8(0x60 | 0x05).u16(4).raw({0x0B, 0x0A, 0x0D, 0x00}); // protocol 5
    m.str("tagged").u8(0xE0 | 0x1F).u8(0x80).raw({0x01}).u16(0);        // protocol 31, field tags, empty schema
    writer p;
    p.u16(3).raw({0x01, 0x02, 0x03}).u16(0);
    CHECK(decoded(m.done(), p.b) == lines{"bond=cust:010203/0b0a0d00", "tagged=cust:/ tags=2097152"});
}

// ---- the real trace ----------------------------------------------------------------------------------

TEST_CASE("tracelogging: primitive-types.etl decodes to TraceEvent's baseline") {
    bytes const file = read_file(ETWCTL_TRACE_DATA "/primitive-types.etl");
    std::vector<etl_event> const events = events_of(file);
    auto const baseline = baseline_events(ETWCTL_TRACE_DATA "/primitive-types.baseline.txt");
    REQUIRE(events.size() == 5);
    REQUIRE(baseline.size() == 5);
    for (std::size_t e = 0; e < events.size(); ++e) {
        CAPTURE(e);
        auto const& want = baseline[e];
        tl_provider_traits_result const traits = parse_provider_traits(events[e].traits);
        REQUIRE(traits.ok());
        CHECK(traits.value.provider_name == "solar_system");
        bytes const schema(events[e].schema.begin(), events[e].schema.end());
        tl_event_metadata const md = parsed(schema);
        CHECK(md.name() == "PrimitiveTypesTest");
        CHECK(md.field_count() == 12);
        CHECK(events[e].pointer_size == 8);
        CHECK(std::to_string(events[e].payload.size()) == want.at("DataLen"));

        std::map<std::string, tl_value> got;
        struct collect {
            std::map<std::string, tl_value>& out;
            void field(tl_value const& v) { out[std::string(v.name())] = v; }
        } c{got};
        tl_decode_result const r = decode_tracelogging(md, events[e].payload, events[e].pointer_size, c);
        REQUIRE(r.ok());
        CHECK(r.consumed == events[e].payload.size()); // 75..78 bytes, to the last one
        REQUIRE(got.size() == 12);

        CHECK(got.at("string_type").in_type() == tl_in_type::ansi_string);
        CHECK(std::string(got.at("string_type").as_ansi()) == want.at("string_type"));
        CHECK(got.at("boolean_type").out_type() == tl_out_type::boolean);
        CHECK((got.at("boolean_type").as_bool() ? "True" : "False") == want.at("boolean_type"));
        CHECK(got.at("char_type").out_type() == tl_out_type::string);
        CHECK(std::to_string(got.at("char_type").as_uint64()) == want.at("char_type"));
        for (char const* name : {"int16_type", "int32_type", "int64_type"})
            CHECK(std::to_string(got.at(name).as_int64()) == want.at(name));
        CHECK(got.at("int64_type").in_type() == tl_in_type::uint64); // the provider declared it UInt64
        for (char const* name : {"uint16_type", "uint32_type", "uint64_type"})
            CHECK(std::to_string(got.at(name).as_uint64()) == want.at(name));
        CHECK(cut20(text_of(got.at("guid_type").as_guid())) == want.at("guid_type"));

        // FILETIME: the baseline prints the file's UTC value unshifted (TraceEvent printed the consumer's
        // local time, and the baseline's machine was on UTC); UtcOffsetMinutes=-120 is the recording
        // machine's TIME_ZONE_INFORMATION.Bias (local = UTC + 2 h), which would have read 16:59. The
        // header's StartTime prints the same way (14:59:32.85 for the raw UTC 14:59:32.857).
        tl_system_time const ft = tl_system_time_from_filetime(got.at("file_time_type").as_filetime());
        CHECK(cut20(yymmdd_hhmmss_fff(ft)) == want.at("file_time_type"));
        // SYSTEMTIME: equal to the baseline to the second; TraceEvent prints ".03" as every event's fraction
        // although the milliseconds field holds 799, 239, 671, 48, 484. The provider wrote the same instant
        // into both fields: the SYSTEMTIME equals the FILETIME's calendar fields to the millisecond.
        tl_system_time const st = got.at("system_time_type").as_systemtime();
        CHECK(yymmdd_hhmmss_fff(st).substr(0, 17) == want.at("system_time_type").substr(0, 17));
        CHECK(st == ft);
    }
}

TEST_CASE("tracelogging: FILETIME to calendar fields") {
    // {year, month, day_of_week (0 = Sunday), day, hour, minute, second, milliseconds}
    CHECK(tl_system_time_from_filetime(0) == tl_system_time{1601, 1, 1, 1, 0, 0, 0, 0}); // a Monday
    CHECK(tl_system_time_from_filetime(116444736000000000ULL) == tl_system_time{1970, 1, 4, 1, 0, 0, 0, 0});
    // 2000-02-29 12:34:56.789 (a Tuesday): 951827696 s after 1970
    CHECK(tl_system_time_from_filetime(116444736000000000ULL + 951827696ULL * 10000000ULL + 7890000ULL) ==
          tl_system_time{2000, 2, 2, 29, 12, 34, 56, 789});
    // 2100-03-01 (not a leap year: 2100-02-28 is followed by March 1st), a Monday
    CHECK(tl_system_time_from_filetime(116444736000000000ULL + 4107542400ULL * 10000000ULL) == tl_system_time{2100, 3, 1, 1, 0, 0, 0, 0});
    // 2020-12-31 23:59:59.999 (day 366 of a leap year), a Thursday
    CHECK(tl_system_time_from_filetime(116444736000000000ULL + 1609459199999ULL * 10000ULL) ==
          tl_system_time{2020, 12, 4, 31, 23, 59, 59, 999});
    tl_system_time const last = tl_system_time_from_filetime(~std::uint64_t{0});
    CHECK(last.year == 60056);
}

// ---- malformed metadata ------------------------------------------------------------------------------

TEST_CASE("tracelogging: malformed metadata: sizes, tags and names") {
    {
        owned_fault const f = metadata_fault(bytes{std::byte{4}});
        CHECK((f.offset == 0 && f.value == 1 && f.limit == 2));
    }
    {
        writer w; // size field larger than the blob
        w.u16(0x20).u8(0).str("E");
        owned_fault const f = metadata_fault(w.b);
        CHECK((f.offset == 0 && f.value == 0x20 && f.limit == 5));
    }
    {
        writer w; // size field below the smallest metadata
        w.u16(3).u8(0).str("E");
        CHECK(metadata_fault(w.b).value == 3);
    }
    {
        writer w; // event name without NUL inside the size
        w.u16(7).u8(0).chars("Even");
        owned_fault const f = metadata_fault(w.b);
        CHECK(f.offset == 3);
        CHECK(f.field.empty());
    }
    {
        writer w; // event tags that never end
        w.u16(4).raw({0x81, 0x82});
        CHECK(metadata_fault(w.b).offset == 4);
    }
    {
        meta m("E", {0x81, 0x82, 0x83, 0x84, 0x05}); // 5 tag bytes
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 6 && f.value == 5 && f.limit == 4));
    }
    {
        meta m("E"); // field name without NUL
        m.chars("abc");
        owned_fault const f = metadata_fault(m.done());
        CHECK(f.offset == 5);
    }
    {
        meta m("E"); // field name, then the end
        m.str("abc");
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 9 && f.field == "abc"));
    }
    {
        meta m("E"); // InType chain bit on the last byte
        m.str("f").u8(0x87);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 8 && f.field == "f"));
    }
    {
        meta m("E"); // OutType chain bit on the last byte (field tags missing)
        m.str("f").u8(0x87).u8(0x80);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 9 && f.field == "f"));
    }
    {
        meta m("E"); // field tags of 5 bytes
        m.str("f").u8(0x87).u8(0x80).raw({0x81, 0x81, 0x81, 0x81, 0x01});
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 13 && f.field == "f" && f.value == 5));
    }
}

TEST_CASE("tracelogging: malformed metadata: structs, counts and schemas") {
    {
        meta m("E"); // struct of 3 with 2 fields after it
        m.str("s").u8(0x98).u8(3).str("a").u8(0x07).str("b").u8(0x07);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 5 && f.field == "s" && f.value == 3 && f.limit == 2));
    }
    {
        meta m("E"); // the inner struct is the one left open
        m.str("s1").u8(0x98).u8(1).str("s2").u8(0x98).u8(2).str("a").u8(0x07);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 10 && f.field == "s2" && f.value == 2 && f.limit == 1));
    }
    {
        meta m("E"); // struct with 0 members
        m.str("s").u8(0x98).u8(0).str("a").u8(0x07);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 5 && f.field == "s"));
    }
    {
        meta m("E"); // struct without an OutType byte: no member count
        m.str("s").u8(0x18).str("a").u8(0x07);
        CHECK(metadata_fault(m.done()).field == "s");
    }
    {
        meta m("E"); // CCOUNT without its count
        m.str("a").u8(0x27);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 8 && f.field == "a" && f.value == 2 && f.limit == 0));
    }
    {
        meta m("E"); // CCOUNT with half its count
        m.str("a").u8(0x27).u8(1);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 8 && f.field == "a" && f.limit == 1));
    }
    {
        meta m("E"); // CCOUNT of 0
        m.str("a").u8(0x27).u16(0);
        CHECK(metadata_fault(m.done()).field == "a");
    }
    {
        meta m("E"); // custom schema size cut
        m.str("c").u8(0x65).u8(2);
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 8 && f.field == "c"));
    }
    {
        meta m("E"); // custom schema past the end
        m.str("c").u8(0x65).u16(5).raw({0x78, 0x79});
        owned_fault const f = metadata_fault(m.done());
        CHECK((f.offset == 8 && f.field == "c" && f.value == 5 && f.limit == 2));
    }
}

TEST_CASE("tracelogging: fields no payload can hold are metadata faults at decode") {
    {
        meta m("E"); // InType Null
        m.str("a").u8(0x04).str("n").u8(0x00);
        owned_fault const f = payload_fault(m.done(), bytes{std::byte{1}, std::byte{2}});
        CHECK(f.what == rule::tracelogging_metadata);
        CHECK((f.offset == 8 && f.field == "n"));
    }
    {
        meta m("E"); // InType 26 (undefined)
        m.str("u").u8(0x1A);
        owned_fault const f = payload_fault(m.done(), bytes{std::byte{1}});
        CHECK((f.what == rule::tracelogging_metadata && f.offset == 5 && f.field == "u" && f.value == 26));
    }
    for (unsigned kind : {0x20U, 0x40U}) {
        meta m("E"); // an array of Binary
        m.str("bin").u8(kind | 0x0E);
        if (kind == 0x20) m.u16(1);
        owned_fault const f = payload_fault(m.done(), bytes{std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0}});
        CHECK((f.what == rule::tracelogging_metadata && f.offset == 5 && f.field == "bin"));
    }
}

// ---- short payloads ----------------------------------------------------------------------------------

TEST_CASE("tracelogging: payloads too short for each kind of field") {
    auto check = [](bytes const& md, bytes const& payload, std::size_t offset, std::string_view field, std::uint64_t value,
                    std::uint64_t limit) {
        owned_fault const f = payload_fault(md, payload);
        CHECK(f.what == rule::tracelogging_payload);
        CHECK(f.offset == offset);
        CHECK(f.field == field);
        CHECK(f.value == value);
        CHECK(f.limit == limit);
    };
    meta fixed("E");
    fixed.str("a").u8(0x04).str("n").u8(0x07);
    check(fixed.done(), bytes(4, std::byte{1}), 1, "n", 4, 3);

    meta wide("E");
    wide.str("a").u8(0x04).str("w").u8(0x01);
    writer w;
    w.u8(1).wchars("Hi").u8(0); // a half NUL
    check(wide.done(), w.b, 1, "w", 5, 5);

    meta ansi("E");
    ansi.str("s").u8(0x02);
    check(ansi.done(), bytes(3, std::byte{'x'}), 0, "s", 3, 3);

    meta counted("E");
    counted.str("a").u8(0x04).str("cs").u8(0x16);
    writer c;
    c.u8(1).u16(10).wchars("ab");
    check(counted.done(), c.b, 1, "cs", 10, 4);
    check(counted.done(), bytes{std::byte{1}, std::byte{10}}, 1, "cs", 2, 1); // the count itself cut

    meta vcount("E");
    vcount.str("a").u8(0x04).str("v").u8(0x47);
    writer v;
    v.u8(1).u16(3).u32(1).u32(2).u16(3);
    check(vcount.done(), v.b, 11, "v", 4, 2); // the third element
    check(vcount.done(), bytes{std::byte{1}, std::byte{3}}, 1, "v", 2, 1);
    meta vstructs("E");
    vstructs.str("vs").u8(0xD8).u8(1).str("m").u8(0x04);
    check(vstructs.done(), bytes{std::byte{3}}, 0, "vs", 2, 1);
    writer vs;
    vs.u16(2).u8(7);
    check(vstructs.done(), vs.b, 3, "m", 1, 0); // the second element's member

    meta sid("E");
    sid.str("a").u8(0x04).str("sid").u8(0x13);
    writer s;
    s.u8(1).u8(1).u8(2).raw({0, 0, 0, 0, 0, 5}).u32(21);
    check(sid.done(), s.b, 1, "sid", 16, 12);
    check(sid.done(), bytes(6, std::byte{1}), 1, "sid", 8, 5); // the 8-byte header cut

    meta custom("E");
    custom.str("c").u8(0x65).u16(0);
    check(custom.done(), bytes{std::byte{9}, std::byte{0}, std::byte{1}}, 0, "c", 9, 1);

    meta ccount("E");
    ccount.str("c").u8(0x25).u16(3);
    check(ccount.done(), bytes(5, std::byte{1}), 4, "c", 2, 1);
}

TEST_CASE("tracelogging: every truncation of a payload faults inside it, never reads past it") {
    meta m("All");
    writer full;
    for (tl_in_type t : value_in_types()) {
        m.str(tl_cat("s", std::to_string(static_cast<unsigned>(t)))).u8(static_cast<unsigned>(t));
        full.append(sample_of(t, 2).payload);
    }
    m.str("st").u8(0x98).u8(2).str("x").u8(0x01).str("arr").u8(0xD8).u8(1).str("y").u8(0x57); // struct {x, arr[] of {y[]}}
    full.wstr("hi").u16(2).u16(1).u16(0).u16(0); // x, arr: 2 elements: y = [""], y = []
    bytes const blob = m.done();
    tl_event_metadata const md = parsed(blob);
    for (std::size_t n = 0; n <= full.size(); ++n) {
        CAPTURE(n);
        bytes const cut(full.b.begin(), full.b.begin() + static_cast<std::ptrdiff_t>(n));
        recorder rec;
        tl_decode_result const r = decode_tracelogging(md, cut, 8, rec);
        if (n == full.size()) {
            CHECK(r.ok());
            CHECK(r.consumed == n);
        } else {
            REQUIRE_FALSE(r.ok());
            CHECK(r.fault.what == rule::tracelogging_payload);
            CHECK(r.fault.offset <= n);
            CHECK(r.consumed <= n);
            CHECK_FALSE(r.fault.field.empty());
        }
    }
}

TEST_CASE("tracelogging: every truncation of metadata parses or faults inside it") {
    meta m("Trunc", {0x81, 0x02});
    m.str("a").u8(0x87).u8(0x8F).raw({0x81, 0x01});
    m.str("s").u8(0xB8).u8(2).u16(2).str("b").u8(0x02).str("c").u8(0x65).u16(2).raw({1, 2});
    bytes const full = m.done();
    REQUIRE(parse_event_metadata(full).ok());
    std::size_t parsed_ok = 0;
    for (std::size_t n = 0; n < full.size(); ++n) {
        CAPTURE(n);
        bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        if (n >= 2) { // the size field says the cut length, so the parse reads only the cut bytes
            cut[0] = static_cast<std::byte>(n);
            cut[1] = std::byte{0};
        }
        tl_event_metadata_result const r = parse_event_metadata(cut);
        if (r.ok()) {
            ++parsed_ok;
            continue;
        }
        CHECK(r.fault.what == rule::tracelogging_metadata);
        CHECK(r.fault.offset <= n);
    }
    CHECK(parsed_ok == 2); // the cuts after the name (no fields) and after field "a"; "s" claims 2 members
}

TEST_CASE("tracelogging: fault text names the rule, offset, field and values") {
    meta m("E");
    m.str("n").u8(0x07);
    bytes const blob = m.done();
    tl_event_metadata const md = parsed(blob);
    recorder rec;
    tl_fault const f = decode_tracelogging(md, bytes(3, std::byte{0}), 8, rec).fault;
    char text[256] = {};
    std::size_t const n = f.describe(text);
    REQUIRE(n < sizeof text);
    std::string const s(text, n);
    CHECK(s.find("[tracelogging_payload] at offset 0x0, field \"n\"") != std::string::npos);
    CHECK(s.find("value 0x4, limit 0x3") != std::string::npos);
    CHECK(f.code() == make_error_code(rule::tracelogging_payload));
    char tiny[8] = {};
    CHECK(f.describe(tiny) == n); // the needed length, whatever fits
}

} // namespace tl_tests
