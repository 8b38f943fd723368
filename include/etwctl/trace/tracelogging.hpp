// SPDX-License-Identifier: MIT
// etwctl/trace/tracelogging.hpp - TraceLogging self-describing events, decoded with no OS: the provider
// traits blob, the event metadata blob, and the payload walked against that metadata (typed values,
// arrays and nested structs) as calls on a caller's visitor. Views over the caller's bytes only: no heap,
// no exceptions, no recursion; every size and offset is checked before it is used (a trace is untrusted).
//
// Where the blobs are: an EVENT_HEADER record of a TraceLogging event carries two extended data items,
// EVENT_HEADER_EXT_TYPE_PROV_TRAITS (0x000C: the provider traits blob) and EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL
// (0x000B: the event metadata blob); the payload is the record's user data (Windows SDK evntcons.h; Microsoft
// Learn "EVENT_HEADER_EXTENDED_DATA_ITEM"). Providers hand both blobs to ETW as EVENT_DATA_DESCRIPTORs of
// Type 2 (provider metadata) and 1 (event metadata) (Microsoft Learn "EVENT_DATA_DESCRIPTOR").
//
// Formats (public sources):
//   - Provider traits: u16 size (itself included), NUL-terminated UTF-8 provider name, then traits
//     {u16 TraitSize (these 3 bytes included), u8 TraitType, data} until the size is used up; trait type 1
//     = provider group GUID (Microsoft Learn "Provider Traits"; SDK EtwGetTraitFromProviderTraits;
//     microsoft/tracelogging TraceLoggingDynamic.h, ProviderMetadataBuilder comment, ProviderTraitType).
//   - Event metadata: u16 size (itself included); event tags (bytes until one with bit 7 clear, 7 bits
//     each, most significant group first, at most 28 bits); NUL-terminated UTF-8 event name; then field
//     definitions to the end: NUL-terminated UTF-8 name, InMeta u8 (bits 0-4 InType, bits 5-6 0x00 scalar /
//     0x20 constant count / 0x40 variable count / 0x60 custom, bit 7 = OutMeta follows), OutMeta u8 (bits
//     0-6 OutType, bit 7 = field tags follow), field tags (same scheme), u16 count (constant count only),
//     u16 schema size + schema bytes (custom only) (TraceLoggingDynamic.h, EventMetadataBuilder comment,
//     AddTags, AddFieldInfo, AddStructInfo; the same bit values are TraceLoggingProvider.h's TlgIn_t
//     _TlgInCcount / TlgInVcount / _TlgInCustom / _TlgInChain).
//   - Struct: InType 24 whose OutType slot holds N = the next N fields (a nested struct counting as one)
//     are its members; an array of structs repeats all N members per element (TraceLoggingDynamic.h,
//     InTypeStruct comment; IncrementU7 counts into the immediate parent only).
//   - Payload: values packed with no alignment or padding; NUL-terminated UTF-16 / 8-bit strings; Binary,
//     CountedString, CountedAnsiString, CountedBinary and custom fields = u16 byte count + bytes; a
//     variable-count array = u16 element count + elements; a constant-count array = the metadata's count of
//     elements; SID = 8 + 4 * SubAuthorityCount (the byte at offset 1) (TraceLoggingDynamic.h, comments of
//     enum Type, InType, EventDataBuilder, AddFieldCustom "The payload is encoded as a UINT16 byte count
//     followed by the data"; SID layout: Windows SDK winnt.h SID).
//   - InType / OutType values: TraceLoggingDynamic.h enum InType / OutType, the SDK's
//     TraceLoggingProvider.h TlgIn_t / TlgOut_t.
// Inferred, not published (checked on the bytes of real traces written by Windows): Pointer (InType 16,
// "not supported" in TraceLoggingDynamic.h) takes the event's pointer size (EVENT_HEADER32 -> 4,
// EVENT_HEADER64 -> 8), as the decoders that read it do.
//
// Strictness (documented choices): TraceLoggingDynamic.h says "Do not create structs with 0 fields" and
// "Do not use 0 for itemCount". Metadata doing either is refused: those are the only ways a field could
// take no payload bytes, and an array of such fields would make the decoder repeat work without reading
// anything. With them refused, every field reads at least one byte, so the work of a decode is bounded
// by the payload's size times the nesting depth. Structs nest at most tl_max_struct_depth deep.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/trace/text.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

// ---- types -------------------------------------------------------------------------------------------

/// How a field's value is encoded (TraceLoggingDynamic.h enum InType; SDK TlgIn_t). Names follow
/// TraceLoggingDynamic.h; three are C++ keywords there and are spelled float32, float64, structure.
enum class tl_in_type : std::uint8_t {
    null = 0,                 ///< invalid: has no payload encoding
    unicode_string = 1,       ///< NUL-terminated UTF-16LE
    ansi_string = 2,          ///< NUL-terminated 8-bit (MBCS, or UTF-8 with OutType utf8)
    int8 = 3,
    uint8 = 4,
    int16 = 5,
    uint16 = 6,
    int32 = 7,
    uint32 = 8,
    int64 = 9,
    uint64 = 10,
    float32 = 11,             ///< TraceLoggingDynamic.h InTypeFloat
    float64 = 12,             ///< TraceLoggingDynamic.h InTypeDouble
    bool32 = 13,
    binary = 14,              ///< u16 byte count + bytes; arrays of it are not supported
    guid = 15,
    pointer = 16,             ///< InTypePointer_PlatformSpecific: the event's pointer size
    file_time = 17,
    system_time = 18,
    sid = 19,
    hex_int32 = 20,
    hex_int64 = 21,
    counted_string = 22,      ///< u16 byte count + UTF-16LE
    counted_ansi_string = 23, ///< u16 byte count + 8-bit
    structure = 24,           ///< TraceLoggingDynamic.h InTypeStruct: no bytes, the next N fields are members
    counted_binary = 25,      ///< u16 byte count + bytes; arrays supported
};

/// Formatting hints (TraceLoggingDynamic.h enum OutType; SDK TlgOut_t). They never change how many
/// bytes a value takes; a decoder that does not know a combination formats by the InType.
enum class tl_out_type : std::uint8_t {
    null = 0x00, ///< OutTypeDefault / TlgOutNULL: format by the InType
    no_print = 0x01,
    string = 0x02,  ///< an 8- or 16-bit integer holding a character
    boolean = 0x03, ///< an 8-bit integer holding true / false
    hex = 0x04,
    pid = 0x05,
    tid = 0x06,
    port = 0x07, ///< a big-endian 16-bit port
    ipv4 = 0x08,
    ipv6 = 0x09,
    socket_address = 0x0A,
    xml = 0x0B,
    json = 0x0C,
    win32_error = 0x0D,
    nt_status = 0x0E,
    hresult = 0x0F,
    file_time = 0x10,
    signed_integer = 0x11,   ///< OutTypeSigned
    unsigned_integer = 0x12, ///< OutTypeUnsigned
    date_time_culture_insensitive = 0x21,
    utf8 = 0x23,
    pkcs7_with_type_info = 0x24,
    code_pointer = 0x25,
    date_time_utc = 0x26,
};

/// How many values a field definition stands for (InMeta bits 5-6).
enum class tl_field_kind : std::uint8_t {
    scalar = 0,               ///< one value
    constant_count_array = 1, ///< the metadata's u16 count of values (_TlgInCcount, 0x20)
    variable_count_array = 2, ///< a u16 count in the payload, then the values (TlgInVcount, 0x40)
    custom = 3,               ///< a custom-serialized value: u16 byte count + bytes; schema in the metadata (_TlgInCustom, 0x60)
};

/// Structs nest at most this deep (a struct inside 31 others is the deepest accepted). The limit is ours:
/// the format's only bound is the 32 KB metadata; 32 keeps the decoder's fixed stack small.
inline constexpr std::size_t tl_max_struct_depth = 32;
/// Tags are 28 bits in at most 4 bytes of 7 bits (TraceLoggingDynamic.h AddTags).
inline constexpr std::size_t tl_max_tag_bytes = 4;
/// "Not an array element" for tl_value::index and tl_struct_info::index.
inline constexpr std::size_t tl_no_index = static_cast<std::size_t>(-1);
/// The provider-group trait (TraceLoggingDynamic.h ProviderTraitGroupGuid; Microsoft Learn "Provider Traits").
inline constexpr std::uint8_t tl_trait_provider_group = 1;

// ---- faults ------------------------------------------------------------------------------------------

/// Where and why a blob or a payload broke the format. `offset` counts from the start of the blob the
/// rule is about: the traits or metadata blob for rule::tracelogging_metadata, the payload for
/// rule::tracelogging_payload. `field` names the field definition involved (empty if none), `reason` is
/// the check that failed, `value` what was read and `limit` what it had to stay within, where there is one.
struct tl_fault {
    rule what = rule::ok;
    std::size_t offset = 0;
    std::uint64_t value = 0;
    std::uint64_t limit = 0;
    std::string_view field{};
    std::string_view reason{};

    constexpr explicit operator bool() const noexcept { return what != rule::ok; }
    /// The fault as an error code in rule_category() (compares equal to Win32 ERROR_FILE_CORRUPT).
    std::error_code code() const noexcept { return etwctl::detail::failed(make_error_code(what)); } // no earlier failure's context
    /// `TraceLogging: ... [tracelogging_payload] at offset 0x12, field "b": a UTF-16 string has no NUL
    /// before the end: value 0x.., limit 0x..` into `out` (no allocation); returns the length the whole
    /// text needs and writes only what fits.
    constexpr std::size_t describe(std::span<char> out) const noexcept {
        std::size_t at = etwctl::detail::put(out, 0, info(what).text);
        at = etwctl::detail::put(out, at, " [");
        at = etwctl::detail::put(out, at, info(what).name);
        at = etwctl::detail::put(out, at, "] at offset 0x");
        at = etwctl::detail::put_hex(out, at, offset);
        if (!field.empty()) {
            at = etwctl::detail::put(out, at, ", field \"");
            at = etwctl::detail::put(out, at, field);
            at = etwctl::detail::put(out, at, "\"");
        }
        if (!reason.empty()) {
            at = etwctl::detail::put(out, at, ": ");
            at = etwctl::detail::put(out, at, reason);
        }
        if (value != 0 || limit != 0) {
            at = etwctl::detail::put(out, at, ": value 0x");
            at = etwctl::detail::put_hex(out, at, value);
            at = etwctl::detail::put(out, at, ", limit 0x");
            at = etwctl::detail::put_hex(out, at, limit);
        }
        return at;
    }
};

namespace detail {

using tl_bytes = std::span<std::byte const>;

constexpr std::uint8_t tl_u8(tl_bytes b, std::size_t i) noexcept { return std::to_integer<std::uint8_t>(b[i]); }
// Callers check i + 2 <= b.size() (and so on) first.
inline std::uint16_t tl_u16(tl_bytes b, std::size_t i) noexcept { return etwctl::detail::load<std::uint16_t>(b.data(), i); }
inline std::uint32_t tl_u32(tl_bytes b, std::size_t i) noexcept { return etwctl::detail::load<std::uint32_t>(b.data(), i); }
inline std::uint64_t tl_u64(tl_bytes b, std::size_t i) noexcept { return etwctl::detail::load<std::uint64_t>(b.data(), i); }

/// A GUID in Windows memory order (Data1 u32, Data2 u16, Data3 u16, Data4[8]) at b[i..i+16).
inline guid tl_guid(tl_bytes b, std::size_t i) noexcept {
    guid g;
    g.data1 = tl_u32(b, i);
    g.data2 = tl_u16(b, i + 4);
    g.data3 = tl_u16(b, i + 6);
    for (std::size_t k = 0; k < 8; ++k) g.data4[k] = tl_u8(b, i + 8 + k);
    return g;
}

constexpr tl_fault tl_metadata_fault(std::size_t offset, std::string_view reason, std::string_view field = {},
                                     std::uint64_t value = 0, std::uint64_t limit = 0) noexcept {
    return {rule::tracelogging_metadata, offset, value, limit, field, reason};
}
constexpr tl_fault tl_payload_fault(std::size_t offset, std::string_view reason, std::string_view field,
                                    std::uint64_t value = 0, std::uint64_t limit = 0) noexcept {
    return {rule::tracelogging_payload, offset, value, limit, field, reason};
}

/// Tags at b[at...]: 7 bits a byte, most significant group first, bit 7 = another byte follows
/// (TraceLoggingDynamic.h AddTags writes bits 27..21 first and stops when the rest are zero).
struct tl_tags_read {
    std::uint32_t tags = 0;
    std::size_t next = 0;
    tl_fault fault{};
};
constexpr tl_tags_read tl_read_tags(tl_bytes b, std::size_t at, std::string_view field) noexcept {
    tl_tags_read r;
    for (std::size_t i = 0;; ++i) {
        if (at + i >= b.size())
            return {0, 0, tl_metadata_fault(at + i, "the tags run past the end of the metadata", field, at + i, b.size())};
        if (i == tl_max_tag_bytes)
            return {0, 0, tl_metadata_fault(at + i, "the tags are longer than 4 bytes (28 bits)", field, i + 1, tl_max_tag_bytes)};
        std::uint8_t const byte = tl_u8(b, at + i);
        r.tags |= (byte & 0x7FU) << (21 - 7 * i);
        if ((byte & 0x80U) == 0) {
            r.next = at + i + 1;
            return r;
        }
    }
}

} // namespace detail

// ---- provider traits ---------------------------------------------------------------------------------

/// One trait: its type (1 = provider group, 2 = decode GUID, 128-255 user-defined) and data.
struct tl_provider_trait {
    std::uint8_t type = 0;
    std::span<std::byte const> data{};
    std::size_t offset = 0; ///< of the trait's TraitSize field in the traits blob
};

/// The traits after the name, one at a time. Stops at the first trait whose size does not fit (a blob
/// from parse_provider_traits has none).
class tl_trait_iterator {
public:
    using value_type = tl_provider_trait;
    using difference_type = std::ptrdiff_t;

    constexpr tl_trait_iterator() noexcept = default;
    constexpr tl_trait_iterator(std::span<std::byte const> blob, std::size_t at) noexcept : blob_(blob), at_(at) { settle(); }

    tl_provider_trait operator*() const noexcept {
        std::size_t const size = detail::tl_u16(blob_, at_);
        return {detail::tl_u8(blob_, at_ + 2), blob_.subspan(at_ + 3, size - 3), at_};
    }
    tl_trait_iterator& operator++() noexcept {
        at_ += detail::tl_u16(blob_, at_);
        settle();
        return *this;
    }
    tl_trait_iterator operator++(int) noexcept {
        tl_trait_iterator old = *this;
        ++*this;
        return old;
    }
    friend constexpr bool operator==(tl_trait_iterator const& a, tl_trait_iterator const& b) noexcept {
        return a.at_ == b.at_ && a.blob_.data() == b.blob_.data() && a.blob_.size() == b.blob_.size();
    }

private:
    // Ends the walk (at = size) where no whole trait starts at `at`.
    constexpr void settle() noexcept {
        if (at_ >= blob_.size() || blob_.size() - at_ < 3) {
            at_ = blob_.size();
            return;
        }
        std::size_t const size = std::size_t{detail::tl_u8(blob_, at_)} | (std::size_t{detail::tl_u8(blob_, at_ + 1)} << 8);
        if (size < 3 || size > blob_.size() - at_) at_ = blob_.size();
    }

    std::span<std::byte const> blob_{};
    std::size_t at_ = 0;
};

struct tl_trait_range {
    tl_trait_iterator first;
    tl_trait_iterator last;
    constexpr tl_trait_iterator begin() const noexcept { return first; }
    constexpr tl_trait_iterator end() const noexcept { return last; }
};

/// A provider traits blob: the provider's name and its traits (the bytes after the name's NUL, each trait
/// with its own size field).
struct tl_provider_traits {
    std::string_view provider_name{};
    std::span<std::byte const> traits{};

    constexpr tl_trait_range each_trait() const noexcept {
        return {tl_trait_iterator(traits, 0), tl_trait_iterator(traits, traits.size())};
    }
    /// The provider group GUID (trait type 1 with 16 bytes of data), if there is one.
    bool provider_group(guid& out) const noexcept {
        for (tl_provider_trait t : each_trait()) {
            if (t.type == tl_trait_provider_group && t.data.size() == 16) {
                out = detail::tl_guid(t.data, 0);
                return true;
            }
        }
        return false;
    }
};

struct tl_provider_traits_result {
    tl_provider_traits value{};
    tl_fault fault{};
    constexpr bool ok() const noexcept { return !fault; }
};

/// Parses a PROV_TRAITS item's data. The size field must be at least 3 (size + an empty name) and at most
/// blob.size() (bytes after it are not part of the blob); the name must end with a NUL inside it; the
/// traits must fill the rest exactly, each at least 3 bytes. Faults are rule::tracelogging_metadata with
/// the offset in `blob`.
inline tl_provider_traits_result parse_provider_traits(std::span<std::byte const> blob) noexcept {
    using detail::tl_metadata_fault;
    if (blob.size() < 2) return {{}, tl_metadata_fault(0, "the traits blob is shorter than its size field", {}, blob.size(), 2)};
    std::size_t const size = detail::tl_u16(blob, 0);
    if (size > blob.size()) return {{}, tl_metadata_fault(0, "the traits size field is larger than the blob", {}, size, blob.size())};
    if (size < 3) return {{}, tl_metadata_fault(0, "the traits size field is below 3 (size and an empty name)", {}, size, 3)};
    std::span<std::byte const> const b = blob.first(size);
    ansi_field const name = read_ansiz(b, 2);
    if (!name.terminated) return {{}, tl_metadata_fault(2, "the provider name has no NUL before the end of the traits", {}, size, size)};
    for (std::size_t at = name.next; at < size;) {
        if (size - at < 3) return {{}, tl_metadata_fault(at, "a trait's 3-byte header runs past the end of the traits", {}, size - at, 3)};
        std::size_t const trait = detail::tl_u16(b, at);
        if (trait < 3) return {{}, tl_metadata_fault(at, "a trait's size is below its own 3-byte header", {}, trait, 3)};
        if (trait > size - at) return {{}, tl_metadata_fault(at, "a trait runs past the end of the traits", {}, trait, size - at)};
        at += trait;
    }
    return {{name.text, b.subspan(name.next)}, {}};
}

// ---- event metadata ----------------------------------------------------------------------------------

/// One field definition of an event's metadata.
struct tl_field {
    std::string_view name{};
    /// InMeta bits 0-4. For a custom field the same bits hold the field's type or serializer protocol as
    /// its provider wrote them (TraceLoggingProvider.h puts a protocol 0-31 there).
    tl_in_type in_type = tl_in_type::null;
    /// OutMeta bits 0-6 (null when there is no OutMeta byte). Zero for a struct, whose slot is member_count.
    tl_out_type out_type = tl_out_type::null;
    tl_field_kind kind = tl_field_kind::scalar;
    std::uint8_t member_count = 0; ///< a struct's member fields (1-127)
    std::uint16_t count = 0;       ///< the element count of a constant_count_array
    std::uint32_t tags = 0;        ///< the field's 28-bit tags (0 if none)
    std::span<std::byte const> schema{}; ///< a custom field's schema bytes
    std::size_t offset = 0; ///< of the field's name in the metadata blob
    std::size_t next = 0;   ///< just past the definition in the metadata blob
    std::size_t depth = 0;  ///< structs around the field (0 = top level); set by iteration and decoding

    constexpr bool is_struct() const noexcept { return in_type == tl_in_type::structure && kind != tl_field_kind::custom; }
    constexpr bool is_array() const noexcept {
        return kind == tl_field_kind::constant_count_array || kind == tl_field_kind::variable_count_array;
    }
};

namespace detail {

struct tl_field_read {
    tl_field field{};
    tl_fault fault{};
};

/// The field definition at md[at...] (md = the metadata blob cut to its size field). Checks that every
/// byte of the definition is inside md, tags fit 28 bits, a constant count and a struct's member count
/// are not zero.
inline tl_field_read tl_read_field(tl_bytes md, std::size_t at) noexcept {
    tl_field_read r;
    tl_field& f = r.field;
    f.offset = at;
    ansi_field const name = read_ansiz(md, at);
    if (!name.terminated) {
        r.fault = tl_metadata_fault(at, "a field name has no NUL before the end of the metadata", {}, md.size(), md.size());
        return r;
    }
    f.name = name.text;
    std::size_t p = name.next;
    if (p >= md.size()) {
        r.fault = tl_metadata_fault(p, "a field definition ends before its InType byte", f.name);
        return r;
    }
    std::uint8_t const in_meta = tl_u8(md, p++);
    f.in_type = static_cast<tl_in_type>(in_meta & 0x1FU);
    f.kind = static_cast<tl_field_kind>((in_meta >> 5) & 0x3U);
    bool const is_struct = f.is_struct();
    if ((in_meta & 0x80U) != 0) {
        if (p >= md.size()) {
            r.fault = tl_metadata_fault(p, "the InType's chain bit is set but the metadata ends before the OutType byte", f.name);
            return r;
        }
        std::uint8_t const out_meta = tl_u8(md, p++);
        if (is_struct) f.member_count = static_cast<std::uint8_t>(out_meta & 0x7FU);
        else f.out_type = static_cast<tl_out_type>(out_meta & 0x7FU);
        if ((out_meta & 0x80U) != 0) {
            tl_tags_read const t = tl_read_tags(md, p, f.name);
            if (t.fault) {
                r.fault = t.fault;
                return r;
            }
            f.tags = t.tags;
            p = t.next;
        }
    }
    if (is_struct && f.member_count == 0) {
        // "N should not be 0" (TraceLoggingDynamic.h): an empty struct reads no payload (see the header comment).
        r.fault = tl_metadata_fault(f.offset, "a struct has no member fields (its OutType slot is 0 or absent)", f.name);
        return r;
    }
    if (f.kind == tl_field_kind::constant_count_array) {
        if (md.size() - p < 2) {
            r.fault = tl_metadata_fault(p, "a constant-count array's u16 count runs past the end of the metadata", f.name, 2, md.size() - p);
            return r;
        }
        f.count = tl_u16(md, p);
        if (f.count == 0) {
            r.fault = tl_metadata_fault(p, "a constant-count array has a count of 0", f.name);
            return r;
        }
        p += 2;
    } else if (f.kind == tl_field_kind::custom) {
        if (md.size() - p < 2) {
            r.fault = tl_metadata_fault(p, "a custom field's u16 schema size runs past the end of the metadata", f.name, 2, md.size() - p);
            return r;
        }
        std::size_t const schema = tl_u16(md, p);
        p += 2;
        if (schema > md.size() - p) {
            r.fault = tl_metadata_fault(p - 2, "a custom field's schema runs past the end of the metadata", f.name, schema, md.size() - p);
            return r;
        }
        f.schema = md.subspan(p, schema);
        p += schema;
    }
    f.next = p;
    return r;
}

} // namespace detail

/// The field definitions in metadata order (a struct first, then its members), each with its depth.
class tl_field_iterator {
public:
    using value_type = tl_field;
    using difference_type = std::ptrdiff_t;

    constexpr tl_field_iterator() noexcept = default;
    tl_field_iterator(std::span<std::byte const> md, std::size_t at) noexcept : md_(md), at_(at) { load(); }

    constexpr tl_field const& operator*() const noexcept { return field_; }
    constexpr tl_field const* operator->() const noexcept { return &field_; }
    tl_field_iterator& operator++() noexcept {
        // The next field belongs to the innermost struct that still has members to come.
        if (field_.is_struct() && depth_ < tl_max_struct_depth) remaining_[depth_++] = field_.member_count;
        else
            while (depth_ > 0 && remaining_[depth_ - 1] == 0) --depth_;
        at_ = field_.next;
        load();
        return *this;
    }
    tl_field_iterator operator++(int) noexcept {
        tl_field_iterator old = *this;
        ++*this;
        return old;
    }
    friend constexpr bool operator==(tl_field_iterator const& a, tl_field_iterator const& b) noexcept { return a.at_ == b.at_; }

private:
    void load() noexcept {
        if (at_ >= md_.size()) {
            at_ = md_.size();
            return;
        }
        detail::tl_field_read const r = detail::tl_read_field(md_, at_);
        if (r.fault) { // not for metadata from parse_event_metadata, which checked every definition
            at_ = md_.size();
            return;
        }
        field_ = r.field;
        field_.depth = depth_;
        if (depth_ > 0) --remaining_[depth_ - 1];
    }

    std::span<std::byte const> md_{};
    std::size_t at_ = 0;
    tl_field field_{};
    std::size_t depth_ = 0;
    std::uint8_t remaining_[tl_max_struct_depth] = {};
};

struct tl_field_range {
    tl_field_iterator first;
    tl_field_iterator last;
    tl_field_iterator begin() const noexcept { return first; }
    tl_field_iterator end() const noexcept { return last; }
};

struct tl_event_metadata_result;
tl_event_metadata_result parse_event_metadata(std::span<std::byte const> blob) noexcept;

/// An event's metadata (EVENT_SCHEMA_TL), checked once by parse_event_metadata. Views the caller's blob.
class tl_event_metadata {
public:
    constexpr tl_event_metadata() noexcept = default;

    /// The event name (UTF-8).
    constexpr std::string_view name() const noexcept { return name_; }
    /// The event tags (28 bits).
    constexpr std::uint32_t tags() const noexcept { return tags_; }
    /// The blob as far as its size field reaches.
    constexpr std::span<std::byte const> bytes() const noexcept { return md_; }
    /// Every field definition, struct members included.
    constexpr std::size_t field_count() const noexcept { return field_count_; }
    /// Offset of the first field definition in bytes().
    constexpr std::size_t first_field_offset() const noexcept { return first_field_; }
    /// The field definitions in order (see tl_field_iterator).
    tl_field_range fields() const noexcept { return {tl_field_iterator(md_, first_field_), tl_field_iterator(md_, md_.size())}; }

private:
    friend tl_event_metadata_result parse_event_metadata(std::span<std::byte const> blob) noexcept;

    std::span<std::byte const> md_{};
    std::string_view name_{};
    std::uint32_t tags_ = 0;
    std::size_t first_field_ = 0;
    std::size_t field_count_ = 0;
};

struct tl_event_metadata_result {
    tl_event_metadata metadata{};
    tl_fault fault{};
    constexpr bool ok() const noexcept { return !fault; }
};

/// Parses and checks an EVENT_SCHEMA_TL item's data: the size field (4 at least: size, one tag byte, an
/// empty name; at most blob.size(), bytes after it are ignored), the event tags (1-4 bytes), the name's
/// NUL, every field definition inside the size, struct member counts that the following fields fill,
/// nesting of at most tl_max_struct_depth. Faults are rule::tracelogging_metadata with the offset in `blob`.
inline tl_event_metadata_result parse_event_metadata(std::span<std::byte const> blob) noexcept {
    using detail::tl_metadata_fault;
    tl_event_metadata_result r;
    if (blob.size() < 2) {
        r.fault = tl_metadata_fault(0, "the metadata is shorter than its size field", {}, blob.size(), 2);
        return r;
    }
    std::size_t const size = detail::tl_u16(blob, 0);
    if (size > blob.size()) {
        r.fault = tl_metadata_fault(0, "the metadata size field is larger than the blob", {}, size, blob.size());
        return r;
    }
    if (size < 4) {
        r.fault = tl_metadata_fault(0, "the metadata size field is below 4 (size, a tag byte, an empty name)", {}, size, 4);
        return r;
    }
    std::span<std::byte const> const md = blob.first(size);
    detail::tl_tags_read const tags = detail::tl_read_tags(md, 2, {});
    if (tags.fault) {
        r.fault = tags.fault;
        return r;
    }
    ansi_field const name = read_ansiz(md, tags.next);
    if (!name.terminated) {
        r.fault = tl_metadata_fault(tags.next, "the event name has no NUL before the end of the metadata", {}, size, size);
        return r;
    }

    // Struct membership: remaining[d] = members the struct at depth d still expects. A fixed stack, no
    // recursion; a struct that would nest deeper than the limit is refused.
    struct open_struct {
        std::size_t offset;
        std::string_view name;
        std::uint8_t claimed;
        std::uint8_t remaining;
    };
    open_struct open[tl_max_struct_depth] = {};
    std::size_t depth = 0;
    std::size_t count = 0;
    for (std::size_t at = name.next; at < size;) {
        detail::tl_field_read const f = detail::tl_read_field(md, at);
        if (f.fault) {
            r.fault = f.fault;
            return r;
        }
        ++count;
        if (depth > 0) --open[depth - 1].remaining;
        if (f.field.is_struct()) {
            if (depth == tl_max_struct_depth) {
                r.fault = tl_metadata_fault(at, "structs nest deeper than the limit", f.field.name, depth + 1, tl_max_struct_depth);
                return r;
            }
            open[depth++] = {at, f.field.name, f.field.member_count, f.field.member_count};
        } else {
            while (depth > 0 && open[depth - 1].remaining == 0) --depth;
        }
        at = f.field.next;
    }
    if (depth > 0) {
        open_struct const& s = open[depth - 1];
        r.fault = tl_metadata_fault(s.offset, "a struct claims more member fields than follow it", s.name, s.claimed,
                                    static_cast<std::uint64_t>(s.claimed - s.remaining));
        return r;
    }
    r.metadata.md_ = md;
    r.metadata.name_ = name.text;
    r.metadata.tags_ = tags.tags;
    r.metadata.first_field_ = name.next;
    r.metadata.field_count_ = count;
    return r;
}

// ---- values ------------------------------------------------------------------------------------------

/// SYSTEMTIME's eight u16 fields (Windows SDK minwinbase.h), for InType SystemTime and FILETIME conversion.
struct tl_system_time {
    std::uint16_t year = 0;
    std::uint16_t month = 0;       ///< 1-12
    std::uint16_t day_of_week = 0; ///< 0 = Sunday
    std::uint16_t day = 0;         ///< 1-31
    std::uint16_t hour = 0;
    std::uint16_t minute = 0;
    std::uint16_t second = 0;
    std::uint16_t milliseconds = 0;
    friend constexpr bool operator==(tl_system_time const&, tl_system_time const&) noexcept = default;
};

/// A FILETIME (100 ns intervals since 1601-01-01 00:00 UTC) as calendar fields of the same time zone
/// (proleptic Gregorian calendar; every u64 value gives a year below 65536).
constexpr tl_system_time tl_system_time_from_filetime(std::uint64_t filetime) noexcept {
    std::uint64_t const ms_total = filetime / 10'000;
    std::uint64_t days = ms_total / 86'400'000;
    std::uint64_t const ms_of_day = ms_total % 86'400'000;
    tl_system_time t;
    t.day_of_week = static_cast<std::uint16_t>((days + 1) % 7); // 1601-01-01 was a Monday
    // 1601 starts a 400-year Gregorian cycle: 146097 days, of 100-year parts of 36524 days (the last
    // one a day longer), of 4-year parts of 1461 days, of years of 365 days (the last a day longer).
    std::uint64_t year = 1601 + 400 * (days / 146'097);
    days %= 146'097;
    std::uint64_t const centuries = days / 36'524 < 3 ? days / 36'524 : 3;
    days -= centuries * 36'524;
    std::uint64_t const quads = days / 1'461;
    days %= 1'461;
    std::uint64_t const years = days / 365 < 3 ? days / 365 : 3;
    days -= years * 365;
    year += 100 * centuries + 4 * quads + years;
    bool const leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    constexpr std::uint8_t month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    std::uint16_t month = 0;
    for (; month < 11; ++month) {
        std::uint64_t const length = month_days[month] + (month == 1 && leap ? 1U : 0U);
        if (days < length) break;
        days -= length;
    }
    t.year = static_cast<std::uint16_t>(year);
    t.month = static_cast<std::uint16_t>(month + 1);
    t.day = static_cast<std::uint16_t>(days + 1);
    t.hour = static_cast<std::uint16_t>(ms_of_day / 3'600'000);
    t.minute = static_cast<std::uint16_t>(ms_of_day / 60'000 % 60);
    t.second = static_cast<std::uint16_t>(ms_of_day / 1'000 % 60);
    t.milliseconds = static_cast<std::uint16_t>(ms_of_day % 1'000);
    return t;
}

/// What kind of value a tl_value holds (from its InType; the OutType is a formatting hint on top).
enum class tl_value_category : std::uint8_t {
    signed_integer,   ///< int8..int64: as_int64()
    unsigned_integer, ///< uint8..uint64, hex_int32/64: as_uint64()
    floating_point,   ///< float32, float64: as_double()
    boolean,          ///< bool32: as_bool()
    guid,             ///< as_guid()
    pointer,          ///< as_pointer() (4 or 8 bytes)
    file_time,        ///< as_filetime()
    system_time,      ///< as_systemtime()
    utf16_string,     ///< unicode_string, counted_string: as_utf16()
    ansi_string,      ///< ansi_string, counted_ansi_string: as_ansi()
    sid,              ///< as_sid()
    binary,           ///< binary, counted_binary: as_binary()
    custom,           ///< a custom-serialized field: as_binary() and field.schema
};

/// One decoded value (a scalar field, or one element of an array), as the visitor's field() sees it.
struct tl_value {
    tl_field field{};                       ///< its definition (name, InType, OutType, tags, kind, depth)
    std::span<std::byte const> bytes{};     ///< the value's bytes: without a string's NUL or a count prefix
    std::size_t index = tl_no_index;        ///< the element index in its array, tl_no_index for a scalar
    std::size_t payload_offset = 0;         ///< where the value starts in the payload (its count prefix if any)

    constexpr std::string_view name() const noexcept { return field.name; }
    constexpr tl_in_type in_type() const noexcept { return field.in_type; }
    constexpr tl_out_type out_type() const noexcept { return field.out_type; }

    constexpr tl_value_category category() const noexcept {
        if (field.kind == tl_field_kind::custom) return tl_value_category::custom;
        switch (field.in_type) {
        case tl_in_type::int8:
        case tl_in_type::int16:
        case tl_in_type::int32:
        case tl_in_type::int64: return tl_value_category::signed_integer;
        case tl_in_type::float32:
        case tl_in_type::float64: return tl_value_category::floating_point;
        case tl_in_type::bool32: return tl_value_category::boolean;
        case tl_in_type::guid: return tl_value_category::guid;
        case tl_in_type::pointer: return tl_value_category::pointer;
        case tl_in_type::file_time: return tl_value_category::file_time;
        case tl_in_type::system_time: return tl_value_category::system_time;
        case tl_in_type::unicode_string:
        case tl_in_type::counted_string: return tl_value_category::utf16_string;
        case tl_in_type::ansi_string:
        case tl_in_type::counted_ansi_string: return tl_value_category::ansi_string;
        case tl_in_type::sid: return tl_value_category::sid;
        case tl_in_type::binary:
        case tl_in_type::counted_binary: return tl_value_category::binary;
        default: return tl_value_category::unsigned_integer; // uint8..uint64, hex_int32, hex_int64
        }
    }

    /// The value as an unsigned number, zero-extended: for every integer, bool32, pointer and file_time
    /// value (a signed one gives its two's complement bits); 0 for anything else.
    std::uint64_t as_uint64() const noexcept {
        switch (category()) {
        case tl_value_category::signed_integer:
        case tl_value_category::unsigned_integer:
        case tl_value_category::boolean:
        case tl_value_category::pointer:
        case tl_value_category::file_time: return raw_le();
        default: return 0;
        }
    }
    /// The value as a signed number: sign-extended for int8..int64, the same bits as as_uint64() otherwise.
    std::int64_t as_int64() const noexcept {
        std::uint64_t const v = as_uint64();
        if (category() != tl_value_category::signed_integer || bytes.empty() || bytes.size() >= 8) return static_cast<std::int64_t>(v);
        std::size_t const bits = 8 * bytes.size();
        std::uint64_t const sign = std::uint64_t{1} << (bits - 1);
        return static_cast<std::int64_t>((v ^ sign) - sign); // sign extension without a shift of a negative value
    }
    /// float32 / float64 as a double; an integer converted; 0 for anything else.
    double as_double() const noexcept {
        if (field.in_type == tl_in_type::float32 && bytes.size() == 4 && field.kind != tl_field_kind::custom)
            return static_cast<double>(std::bit_cast<float>(detail::tl_u32(bytes, 0)));
        if (field.in_type == tl_in_type::float64 && bytes.size() == 8 && field.kind != tl_field_kind::custom)
            return std::bit_cast<double>(detail::tl_u64(bytes, 0));
        if (category() == tl_value_category::signed_integer) return static_cast<double>(as_int64());
        return static_cast<double>(as_uint64());
    }
    /// Non-zero: bool32, and an integer with OutType boolean.
    bool as_bool() const noexcept { return as_uint64() != 0; }
    /// A 16-byte GUID (Windows memory order); the nil GUID for anything else.
    guid as_guid() const noexcept {
        if (category() != tl_value_category::guid || bytes.size() != 16) return guid{};
        return detail::tl_guid(bytes, 0);
    }
    /// unicode_string / counted_string text (no NUL); empty for anything else.
    utf16_text as_utf16() const noexcept {
        return category() == tl_value_category::utf16_string ? utf16_text(bytes) : utf16_text();
    }
    /// ansi_string / counted_ansi_string text (no NUL; UTF-8 when the OutType is utf8); empty otherwise.
    std::string_view as_ansi() const noexcept {
        if (category() != tl_value_category::ansi_string) return {};
        return std::string_view(reinterpret_cast<char const*>(bytes.data()), bytes.size());
    }
    /// A FILETIME's 100 ns intervals since 1601 (UTC unless the provider wrote local time); 0 otherwise.
    std::uint64_t as_filetime() const noexcept { return category() == tl_value_category::file_time ? raw_le() : 0; }
    /// A SYSTEMTIME's eight fields; all zero for anything else.
    tl_system_time as_systemtime() const noexcept {
        if (category() != tl_value_category::system_time || bytes.size() != 16) return {};
        auto at = [&](std::size_t i) { return detail::tl_u16(bytes, 2 * i); };
        return {at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)};
    }
    /// A SID's bytes (Revision, SubAuthorityCount, IdentifierAuthority[6], SubAuthority[]); empty otherwise.
    std::span<std::byte const> as_sid() const noexcept {
        return category() == tl_value_category::sid ? bytes : std::span<std::byte const>{};
    }
    /// Binary, CountedBinary and custom fields' bytes; empty otherwise.
    std::span<std::byte const> as_binary() const noexcept {
        tl_value_category const c = category();
        return c == tl_value_category::binary || c == tl_value_category::custom ? bytes : std::span<std::byte const>{};
    }
    /// A pointer value (4 or 8 bytes, zero-extended); 0 otherwise.
    std::uint64_t as_pointer() const noexcept { return category() == tl_value_category::pointer ? raw_le() : 0; }

private:
    std::uint64_t raw_le() const noexcept {
        switch (bytes.size()) {
        case 1: return detail::tl_u8(bytes, 0);
        case 2: return detail::tl_u16(bytes, 0);
        case 4: return detail::tl_u32(bytes, 0);
        case 8: return detail::tl_u64(bytes, 0);
        default: return 0;
        }
    }
};

/// A struct the decoder enters (a scalar struct field, or one element of an array of structs).
struct tl_struct_info {
    tl_field field{};
    std::size_t index = tl_no_index; ///< the element index in its array, tl_no_index for a scalar struct
    std::size_t payload_offset = 0;
    constexpr std::string_view name() const noexcept { return field.name; }
    constexpr std::size_t member_count() const noexcept { return field.member_count; }
};

/// An array the decoder enters (of values, or of structs: field.is_struct()).
struct tl_array_info {
    tl_field field{};
    std::size_t element_count = 0;
    std::size_t payload_offset = 0; ///< of the array's count (variable count) or first element
    constexpr std::string_view name() const noexcept { return field.name; }
};

struct tl_decode_result {
    tl_fault fault{};
    std::size_t consumed = 0; ///< payload bytes the fields took (the rest, if any, is not described by the metadata)
    constexpr bool ok() const noexcept { return !fault; }
};

// ---- decoding ----------------------------------------------------------------------------------------

namespace detail {

/// A field's InType is one a payload can hold (not Null, not an unknown value); arrays of Binary are
/// refused as TraceLoggingDynamic.h says decoders cannot read them.
constexpr tl_fault tl_check_encodable(tl_field const& f) noexcept {
    if (f.kind == tl_field_kind::custom) return {};
    if (f.in_type == tl_in_type::null) return tl_metadata_fault(f.offset, "InType Null has no payload encoding", f.name);
    if (static_cast<std::uint8_t>(f.in_type) > static_cast<std::uint8_t>(tl_in_type::counted_binary))
        return tl_metadata_fault(f.offset, "the InType is not one TraceLogging defines (0-25)", f.name,
                                 static_cast<std::uint8_t>(f.in_type), static_cast<std::uint8_t>(tl_in_type::counted_binary));
    if (f.in_type == tl_in_type::binary && f.is_array())
        return tl_metadata_fault(f.offset, "an array of InType Binary has no payload encoding (use CountedBinary)", f.name);
    return {};
}

/// Bytes of a fixed-size InType (0 for the variable ones).
constexpr std::size_t tl_fixed_size(tl_in_type t, std::size_t pointer_size) noexcept {
    switch (t) {
    case tl_in_type::int8:
    case tl_in_type::uint8: return 1;
    case tl_in_type::int16:
    case tl_in_type::uint16: return 2;
    case tl_in_type::int32:
    case tl_in_type::uint32:
    case tl_in_type::float32:
    case tl_in_type::bool32:
    case tl_in_type::hex_int32: return 4;
    case tl_in_type::int64:
    case tl_in_type::uint64:
    case tl_in_type::float64:
    case tl_in_type::file_time:
    case tl_in_type::hex_int64: return 8;
    case tl_in_type::guid:
    case tl_in_type::system_time: return 16;
    case tl_in_type::pointer: return pointer_size;
    default: return 0;
    }
}

struct tl_value_read {
    std::span<std::byte const> bytes{};
    std::size_t next = 0;
    tl_fault fault{};
};

/// One value of field f at payload[at...] (f is encodable, not a struct).
inline tl_value_read tl_read_value(tl_bytes payload, std::size_t at, tl_field const& f, std::size_t pointer_size) noexcept {
    std::size_t const left = payload.size() - at; // at <= payload.size() always
    auto counted = [&](std::string_view what_short) -> tl_value_read {
        if (left < 2) return {{}, 0, tl_payload_fault(at, what_short, f.name, 2, left)};
        std::size_t const n = tl_u16(payload, at);
        if (n > left - 2) return {{}, 0, tl_payload_fault(at, "a u16 byte count runs past the end of the payload", f.name, n, left - 2)};
        return {payload.subspan(at + 2, n), at + 2 + n, {}};
    };
    if (f.kind == tl_field_kind::custom) return counted("a custom field's u16 byte count runs past the end of the payload");
    switch (f.in_type) {
    case tl_in_type::unicode_string: {
        utf16_field const s = read_utf16z(payload, at);
        if (!s.terminated) return {{}, 0, tl_payload_fault(at, "a UTF-16 string has no NUL before the end of the payload", f.name, left, left)};
        return {s.text.bytes(), s.next, {}};
    }
    case tl_in_type::ansi_string: {
        ansi_field const s = read_ansiz(payload, at);
        if (!s.terminated) return {{}, 0, tl_payload_fault(at, "an 8-bit string has no NUL before the end of the payload", f.name, left, left)};
        return {payload.subspan(at, s.text.size()), s.next, {}};
    }
    case tl_in_type::binary:
    case tl_in_type::counted_string:
    case tl_in_type::counted_ansi_string:
    case tl_in_type::counted_binary: return counted("a u16 byte count runs past the end of the payload");
    case tl_in_type::sid: {
        // Revision, SubAuthorityCount, IdentifierAuthority[6], then SubAuthorityCount u32s (winnt.h SID).
        if (left < 8) return {{}, 0, tl_payload_fault(at, "a SID's 8-byte header runs past the end of the payload", f.name, 8, left)};
        std::size_t const n = 8 + 4 * std::size_t{tl_u8(payload, at + 1)};
        if (n > left) return {{}, 0, tl_payload_fault(at, "a SID's sub-authorities run past the end of the payload", f.name, n, left)};
        return {payload.subspan(at, n), at + n, {}};
    }
    default: {
        std::size_t const n = tl_fixed_size(f.in_type, pointer_size);
        if (n > left) return {{}, 0, tl_payload_fault(at, "a fixed-size value runs past the end of the payload", f.name, n, left)};
        return {payload.subspan(at, n), at + n, {}};
    }
    }
}

/// The decoder's explicit stack: a sequence of fields (the top level, a struct's members, one element of
/// an array of structs) or an array of structs being repeated.
struct tl_frame {
    enum class kind : std::uint8_t { top, struct_members, element_members, struct_array };
    kind k = kind::top;
    std::uint32_t remaining = 0;     // sequences: fields still to come
    std::uint32_t field_offset = 0;  // struct_array: the array's definition in the metadata
    std::uint32_t members_start = 0; // struct_array: the first member's definition
    std::uint32_t count = 0;         // struct_array: elements
    std::uint32_t index = 0;         // struct_array: the element being decoded
};
// Each struct level takes at most two frames (the array and one element's members), plus the top.
inline constexpr std::size_t tl_frame_capacity = 1 + 2 * tl_max_struct_depth;

/// The definition at md[at], which parse_event_metadata checked (a fault here means the metadata object
/// was not made by it).
inline tl_field_read tl_field_at(tl_event_metadata const& md, std::size_t at) noexcept { return tl_read_field(md.bytes(), at); }

template <class Visitor>
void tl_begin_struct(Visitor& v, tl_struct_info const& s) {
    if constexpr (requires { v.begin_struct(s); }) v.begin_struct(s);
}
template <class Visitor>
void tl_end_struct(Visitor& v) {
    if constexpr (requires { v.end_struct(); }) v.end_struct();
}
template <class Visitor>
void tl_begin_array(Visitor& v, tl_array_info const& a) {
    if constexpr (requires { v.begin_array(a); }) v.begin_array(a);
}
template <class Visitor>
void tl_end_array(Visitor& v) {
    if constexpr (requires { v.end_array(); }) v.end_array();
}

} // namespace detail

/// Walks `payload` against `metadata`, calling, in payload order:
///   v.field(tl_value const&)                for each scalar value and each array element of values,
///   v.begin_struct(tl_struct_info const&) / v.end_struct()   around a struct's members (per element
///                                           for an array of structs),
///   v.begin_array(tl_array_info const&)  / v.end_array()     around an array's elements.
/// field() is required; the other four are optional. `pointer_size` is the event's (4 for EVENT_HEADER32,
/// 8 for EVENT_HEADER64; anything else is refused). Stops at the first fault: rule::tracelogging_payload
/// (offset in the payload, the field being read) when the payload is too short for a field;
/// rule::tracelogging_metadata (offset in the metadata) for a field no payload can hold (InType Null or
/// 26-31, an array of Binary). Callbacks already made stand. Iterative: no recursion however deep. The
/// visitor must not throw (this function is noexcept); views it receives live as long as the blob and payload.
template <class Visitor>
tl_decode_result decode_tracelogging(tl_event_metadata const& metadata, std::span<std::byte const> payload,
                                     unsigned pointer_size, Visitor&& v) noexcept {
    using detail::tl_frame;
    using frame_kind = detail::tl_frame::kind;
    tl_decode_result result;
    if (pointer_size != 4 && pointer_size != 8) {
        result.fault = detail::tl_payload_fault(0, "the event's pointer size is neither 4 nor 8", {}, pointer_size, 8);
        return result;
    }
    std::span<std::byte const> const md = metadata.bytes();
    tl_frame stack[detail::tl_frame_capacity];
    std::size_t depth = 0;       // frames in use
    std::size_t struct_depth = 0; // structs open, for tl_field::depth
    std::size_t cursor = metadata.first_field_offset(); // next definition in the metadata
    std::size_t at = 0;                                  // next payload byte
    auto fail = [&](tl_fault const& f) {
        result.fault = f;
        result.consumed = at;
        return result;
    };
    auto broken_metadata = [](std::size_t offset) {
        return detail::tl_metadata_fault(offset, "the metadata object was not made by parse_event_metadata");
    };
    // Starts element array_frame.index of an array of structs: its begin_struct, then its members' frame.
    auto begin_element = [&](tl_field const& array_field, tl_frame& array_frame) -> bool {
        if (depth == detail::tl_frame_capacity) return false;
        cursor = array_frame.members_start;
        tl_field element = array_field;
        element.depth = struct_depth;
        detail::tl_begin_struct(v, tl_struct_info{element, array_frame.index, at});
        ++struct_depth;
        stack[depth++] = {frame_kind::element_members, array_field.member_count, 0, 0, 0, 0};
        return true;
    };

    stack[depth++] = {frame_kind::top, 0, 0, 0, 0, 0};
    while (depth > 0) {
        tl_frame& top = stack[depth - 1];
        if (top.k == frame_kind::struct_array) { // only reached when an element just ended
            tl_frame& arr = top;
            detail::tl_field_read const def = detail::tl_field_at(metadata, arr.field_offset);
            if (def.fault) return fail(broken_metadata(arr.field_offset));
            if (++arr.index < arr.count) {
                if (!begin_element(def.field, arr)) return fail(broken_metadata(arr.field_offset));
                continue;
            }
            --depth; // cursor is past the last element's members: past the whole array definition
            detail::tl_end_array(v);
            continue;
        }
        bool const done = top.k == frame_kind::top ? cursor >= md.size() : top.remaining == 0;
        if (done) {
            frame_kind const k = top.k;
            --depth;
            if (k == frame_kind::struct_members || k == frame_kind::element_members) {
                --struct_depth;
                detail::tl_end_struct(v);
            }
            continue; // an element's end is handled by its array frame, now on top
        }
        detail::tl_field_read const def = detail::tl_field_at(metadata, cursor);
        if (def.fault) return fail(broken_metadata(cursor));
        tl_field f = def.field;
        f.depth = struct_depth;
        cursor = f.next;
        if (top.k != frame_kind::top) --top.remaining;

        if (f.is_struct()) {
            if (f.kind == tl_field_kind::scalar) {
                if (depth == detail::tl_frame_capacity) return fail(broken_metadata(f.offset));
                detail::tl_begin_struct(v, tl_struct_info{f, tl_no_index, at});
                ++struct_depth;
                stack[depth++] = {frame_kind::struct_members, f.member_count, 0, 0, 0, 0};
                continue;
            }
            std::size_t const array_at = at;
            std::size_t count = f.count;
            if (f.kind == tl_field_kind::variable_count_array) {
                if (payload.size() - at < 2)
                    return fail(detail::tl_payload_fault(at, "an array's u16 element count runs past the end of the payload", f.name, 2, payload.size() - at));
                count = detail::tl_u16(payload, at);
                at += 2;
            }
            detail::tl_begin_array(v, tl_array_info{f, count, array_at});
            if (count == 0) {
                // Skip the member definitions: one counter is enough, as members come in order and a
                // nested struct's members directly follow it.
                for (std::size_t pending = f.member_count; pending > 0; --pending) {
                    detail::tl_field_read const m = detail::tl_field_at(metadata, cursor);
                    if (m.fault) return fail(broken_metadata(cursor));
                    if (m.field.is_struct()) pending += m.field.member_count;
                    cursor = m.field.next;
                }
                detail::tl_end_array(v);
                continue;
            }
            if (depth == detail::tl_frame_capacity) return fail(broken_metadata(f.offset));
            stack[depth++] = {frame_kind::struct_array, 0, static_cast<std::uint32_t>(f.offset),
                              static_cast<std::uint32_t>(cursor), static_cast<std::uint32_t>(count), 0};
            if (!begin_element(f, stack[depth - 1])) return fail(broken_metadata(f.offset));
            continue;
        }

        if (tl_fault const bad = detail::tl_check_encodable(f)) return fail(bad);
        if (!f.is_array()) {
            detail::tl_value_read const r = detail::tl_read_value(payload, at, f, pointer_size);
            if (r.fault) return fail(r.fault);
            v.field(tl_value{f, r.bytes, tl_no_index, at});
            at = r.next;
            continue;
        }
        std::size_t const array_at = at;
        std::size_t count = f.count;
        if (f.kind == tl_field_kind::variable_count_array) {
            if (payload.size() - at < 2)
                return fail(detail::tl_payload_fault(at, "an array's u16 element count runs past the end of the payload", f.name, 2, payload.size() - at));
            count = detail::tl_u16(payload, at);
            at += 2;
        }
        detail::tl_begin_array(v, tl_array_info{f, count, array_at});
        for (std::size_t i = 0; i < count; ++i) {
            detail::tl_value_read const r = detail::tl_read_value(payload, at, f, pointer_size);
            if (r.fault) return fail(r.fault);
            v.field(tl_value{f, r.bytes, i, at});
            at = r.next;
        }
        detail::tl_end_array(v);
    }
    result.consumed = at;
    return result;
}

} // namespace trace
ETWCTL_END_NAMESPACE
