// SPDX-License-Identifier: MIT
// etwctl/trace/lz77.hpp - the Plain LZ77 decompressor for the compressed buffers of an ETW trace.
//
// A trace recorded or relogged with EVENT_TRACE_COMPRESSED_MODE (phnt ntwmi.h) holds buffers whose
// 72-byte WMI_BUFFER_HEADER is stored plain and whose remaining bytes are one compressed stream. The
// stream is Microsoft's "Plain LZ77", the Xpress variant the Windows SDK (winnt.h) numbers
// COMPRESSION_FORMAT_XPRESS (3) and [MS-XCA] "Xpress Compression Algorithm" specifies in section 2.3
// (compression) and section 2.4 (decompression; 2.4.4 is the normative pseudocode). That ETW uses this
// variant and not LZ77+Huffman (COMPRESSION_FORMAT_XPRESS_HUFF, [MS-XCA] 2.1) is inferred, not documented:
// every compressed buffer of the public traces we read decodes with it to exactly the size its header
// announces (tests/trace/test_lz77.cpp checks one such trace).
//
// The format in our words:
//  * Items come in groups of 32. Each group starts with a 32-bit little-endian flag word; its bits, taken
//    from the most significant down, say what the next items are: 0 = a literal (one byte, copied to the
//    output as it is), 1 = a match (a copy of bytes the output already holds).
//  * A match starts with a 16-bit little-endian token: the high 13 bits are the distance back minus 1
//    (1 to 8192 bytes), the low 3 bits a length code. Every match is at least 3 bytes long: codes 0 to 6
//    mean lengths 3 to 9.
//  * Code 7 says the length needs more bits, taken from a 4-bit nibble (length = 10 + nibble). Two matches
//    share one nibble byte: the first match that needs a nibble reads a new byte right after its token and
//    uses its low half; the next such match uses the high half of that same byte and reads nothing.
//  * Nibble 15 adds one more byte (length = 25 + byte). Byte 255 says the length minus 3 follows whole, as
//    a 16-bit value, or, when that value is 0, as a 32-bit value after it. A whole value below 22 is
//    malformed ([MS-XCA] rejects it: such lengths have the shorter encodings above).
//  * A match may be longer than its distance: it overlaps the bytes it writes and repeats a pattern
//    (distance 1, length 10 = ten more copies of the last byte). It is defined as a front-to-back copy.
//  * There is no size and no end marker: the stream ends where a flag bit says "match" and the input is
//    used up. [MS-XCA]'s compressor (2.3) sets the unused bits of its last flag word for that, and starts
//    a new flag word as soon as one is full, so a well-formed stream never ends anywhere else (every
//    compressed buffer of the real traces we read ends so).
// Everything else is malformed ([MS-XCA] 2.4.4: an implementation "MUST return an error" rather than read
// or write outside the buffers): the input ending where a flag word, a literal, a token or a length byte
// is due, a match reaching before the start of the output, or output that does not fit the caller's span.
//
// Speed. Most of a trace is compressed, so this loop sets the reader's pace. Far from both ends of the
// buffers a group of 32 items is decoded without a bounds check per item (the group's start checks room
// for the most a group can read and write; a match with a longer length checks its own), a run of zero
// flag bits is one block copy of 32 literal bytes, and a match is copied 8 or 16 bytes at a time (its
// source and destination blocks never overlap: a match closer than 8 bytes writes its first 4 bytes one by
// one and the next 4 from a copy of them, after which it repeats a period of 8 or more). A block may write
// up to 31 bytes past the item it decodes, inside the caller's output, where later items overwrite them.
// Near the end of either buffer every item is checked before it is read or written. So:
//  * nothing outside `in` is read and nothing outside `out` is written, for any input;
//  * bytes of `out` past `written` are unspecified (block copies may have scribbled there), even on success.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/rules.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

/// What decompress_plain_lz77 did.
struct lz77_result {
    std::size_t written = 0;       ///< bytes written to `out` (all of them are the stream's output)
    rule error = rule::ok;         ///< rule::ok; rule::trace_compressed_stream: the stream is malformed (a
                                   ///< match reaches before the start of `out`, the input ends inside an
                                   ///< item, a long length below its minimum); rule::trace_compressed_size:
                                   ///< the stream writes more than `out` holds (`out` is then filled: written
                                   ///< == out.size())
    std::size_t input_offset = 0;  ///< on error: offset in `in` of the flag word, literal or match token that failed
    explicit operator bool() const noexcept { return error == rule::ok; }
};

namespace detail {

/// Block sizes of the fast paths (see the header comment): a literal run is copied as one 32-byte block,
/// a match in 8- or 16-byte blocks, so a match needs 16 bytes of room past its end to take the fast path.
inline constexpr std::size_t lz77_literal_block = 32;
inline constexpr std::size_t lz77_match_slack = 16;

/// A group of 32 items is decoded without per-item bounds checks when this much input follows its flag
/// word and this much room is left in the output. Its items read at most 4 bytes each (a token, a nibble
/// byte, one more length byte; a match whose length is given whole leaves the fast loop before anything
/// is read) and a literal block reads 32 bytes: 32 * 4 + 32 < 192. Its literals write at most 32 bytes in
/// all and each match of a length below 25 at most 24 (length 10 + nibble 14), with a block's overrun of at
/// most 31 bytes past the last item: 32 + 32 * 24 + 31 < 1024. A longer match is taken only when it leaves
/// that much room after it, so the bound holds again from there.
inline constexpr std::size_t lz77_fast_group_input = 192;
inline constexpr std::size_t lz77_fast_group_room = 1024;

/// For a match distance d < 8: the smallest multiple of d that is at least 8. Once a match has written
/// its first 8 bytes, the output repeats with that period, so the rest can be copied from that far back
/// in 8-byte blocks that do not overlap. (It is below 8 + d, so the source never starts before the
/// pattern's first byte.)
inline constexpr unsigned char lz77_short_period[8] = {0, 8, 8, 9, 8, 10, 12, 14};
/// For a match distance d < 8 whose first 4 bytes are written: where, counted back from the match's
/// 5th byte, 4 bytes equal to its 5th to 8th are already written. The pattern has period d, so any place
/// p bytes back with p = 0 (mod d) holds them; the smallest such p with p >= 4 (the 4 bytes must be
/// written and must not overlap the 4 being written), which is at most 4 + d (so they lie in the match
/// or the d bytes it repeats): 4, 4, 6, 4, 5, 6, 7 for d = 1 to 7.
inline constexpr unsigned char lz77_short_back[8] = {0, 4, 4, 6, 4, 5, 6, 7};

/// A length already checked against the output's room, as a size (a template: the cast is no cast where
/// std::size_t is 64 bits, and strict user builds reject a cast to the same type).
template <class T>
constexpr std::size_t lz77_size(T v) noexcept {
    return static_cast<std::size_t>(v);
}

/// Copies a match of `length` bytes from `distance` bytes back to `to`, where `out` has at least
/// `length + lz77_match_slack` bytes of room from `to` and `distance` bytes written before it. Writes up
/// to 15 bytes past the match; reads only bytes already written.
ETWCTL_INLINE_ALWAYS void lz77_copy_match_fast(unsigned char* to, std::size_t distance, std::size_t length) noexcept {
    unsigned char const* from = to - distance;
    if (distance >= 8) [[likely]] {
        // Two 8-byte blocks (the second may read what the first wrote: in order, that is the match's
        // own front-to-back meaning), then 8 or 16 at a time for a longer match.
        std::memcpy(to, from, 8);
        std::memcpy(to + 8, from + 8, 8);
        if (length > 16) [[unlikely]] {
            if (distance >= 16) {
#if defined(__clang__)
#pragma clang loop unroll(disable) vectorize(disable)
#endif
                for (std::size_t i = 16; i < length; i += 16) std::memcpy(to + i, from + i, 16);
            } else {
#if defined(__clang__)
#pragma clang loop unroll(disable) vectorize(disable)
#endif
                for (std::size_t i = 16; i < length; i += 8) std::memcpy(to + i, from + i, 8);
            }
        }
    } else {
        // The first 4 bytes one by one (each may read the one just written), the next 4 from a copy of
        // them already written, then the pattern's period.
        to[0] = from[0];
        to[1] = from[1];
        to[2] = from[2];
        to[3] = from[3];
        std::memcpy(to + 4, to + 4 - lz77_short_back[distance], 4);
        std::size_t const period = lz77_short_period[distance];
        for (std::size_t i = 8; i < length; i += 8) std::memcpy(to + i, to + i - period, 8);
    }
}

/// The nibble a code-7 match adds to its length: the low half of a new byte at `at` when `nibble_at` is 0
/// (`nibble_at` then names that byte, and `at` moves past it), else the high half of the byte at
/// `nibble_at` (which becomes 0). The caller has checked that the byte at `at` is there.
ETWCTL_INLINE_ALWAYS unsigned lz77_take_nibble(unsigned char const* src, std::size_t& nibble_at, std::size_t& at) noexcept {
    if (nibble_at == 0) {
        nibble_at = at;
        return src[at++] & 15u;
    }
    unsigned const nibble = static_cast<unsigned>(src[nibble_at] >> 4);
    nibble_at = 0;
    return nibble;
}

/// The exact (slow) copy of a match near the end of `out`: front to back, one byte at a time.
inline void lz77_copy_match_exact(unsigned char* to, std::size_t distance, std::size_t length) noexcept {
    unsigned char const* from = to - distance;
    for (std::size_t i = 0; i < length; ++i) to[i] = from[i];
}

} // namespace detail

/// Decompresses one Plain LZ77 stream ([MS-XCA] 2.4) from `in` into `out`. Success means the stream
/// ended where the format says it ends (a match flag with no input left), having written `written`
/// bytes; the caller compares that with the size it expects (for an ETW buffer: SavedOffset - 72). No
/// allocation; reads only `in`, writes only `out`, for any input.
inline lz77_result decompress_plain_lz77(std::span<std::byte const> in, std::span<std::byte> out) noexcept {
    auto const* const src = reinterpret_cast<unsigned char const*>(in.data());
    auto* const dst = reinterpret_cast<unsigned char*>(out.data());
    std::size_t const in_size = in.size();
    std::size_t const out_size = out.size();
    std::size_t ip = 0; // next input byte
    std::size_t op = 0; // next output byte
    // The byte whose high nibble the next code-7 match uses, or 0 when the next one reads a new byte
    // (offset 0 holds the first flag word, never a nibble byte: [MS-XCA]'s LastLengthHalfByte does the same).
    std::size_t nibble_at = 0;

    auto const failed = [&](rule why, std::size_t at) noexcept { return lz77_result{op, why, at}; };

    for (;;) {
        // A group: its flag word, then up to 32 items.
        if (in_size - ip < 4) return failed(rule::trace_compressed_stream, ip);
        std::uint32_t flags = etwctl::detail::load<std::uint32_t>(src, ip);
        ip += 4;
        unsigned left = 32; // items of this group not decoded yet; `flags` holds theirs from bit 31 down

        // Far from both ends: the group's items without their bounds checks (see lz77_fast_group_input),
        // until the group ends or a match the fast loop leaves to the loop below (nothing of it consumed:
        // it is then that loop's next item, its literals done, its flag bit the top one).
        if (in_size - ip >= detail::lz77_fast_group_input && out_size - op >= detail::lz77_fast_group_room) {
            for (;;) {
                unsigned const zeros = static_cast<unsigned>(std::countl_zero(flags));
                unsigned const run = zeros < left ? zeros : left;
                std::memcpy(dst + op, src + ip, detail::lz77_literal_block);
                ip += run;
                op += run;
                left -= run;
                if (left == 0) break;
                flags <<= run; // run <= 31 here
                unsigned const token = etwctl::detail::load<std::uint16_t>(src, ip);
                std::size_t length = (token & 7u) + 3u;
                std::size_t next = ip + 2; // past the token and the length bytes it reads
                std::size_t next_nibble_at = nibble_at;
                if ((token & 7u) == 7u) {
                    unsigned const nibble = detail::lz77_take_nibble(src, next_nibble_at, next);
                    length += nibble;
                    if (nibble == 15) {
                        unsigned const extra = src[next++];
                        length += extra;
                        // A whole length, or a match that leaves less than a group's room: the loop
                        // below decodes it, with its checks.
                        if (extra == 255 || length + detail::lz77_fast_group_room > out_size - op) break;
                    }
                }
                std::size_t const distance = (token >> 3) + 1;
                if (distance > op) return failed(rule::trace_compressed_stream, ip);
                ip = next;
                nibble_at = next_nibble_at;
                flags <<= 1;
                --left;
                detail::lz77_copy_match_fast(dst + op, distance, length);
                op += length;
            }
            if (left == 0) continue;
        }

        for (;;) {
            // Literals: as many as there are zero bits before the next one bit (all that are left if none).
            unsigned const zeros = static_cast<unsigned>(std::countl_zero(flags));
            unsigned const run = zeros < left ? zeros : left;
            if (in_size - ip >= detail::lz77_literal_block && out_size - op >= detail::lz77_literal_block) {
                std::memcpy(dst + op, src + ip, detail::lz77_literal_block);
            } else {
                std::size_t const have_in = in_size - ip;
                std::size_t const have_out = out_size - op;
                std::size_t n = run;
                if (n > have_in) n = have_in;
                if (n > have_out) n = have_out;
                if (n != 0) std::memcpy(dst + op, src + ip, n);
                if (n != run) { // checked in the format's order: the literal's byte first, then room for it
                    ip += n;
                    op += n;
                    return failed(ip == in_size ? rule::trace_compressed_stream : rule::trace_compressed_size, ip);
                }
            }
            ip += run;
            op += run;
            left -= run;
            if (left == 0) break;
            flags = (flags << run) << 1; // drop the literals' bits and the match's (run <= 31 here)
            --left;

            // A match. Running out of input exactly here is the stream's end.
            std::size_t const token_at = ip;
            if (in_size - ip < 2) {
                if (ip == in_size) return lz77_result{op, rule::ok, 0};
                return failed(rule::trace_compressed_stream, token_at);
            }
            unsigned const token = etwctl::detail::load<std::uint16_t>(src, ip);
            ip += 2;
            std::size_t const distance = (token >> 3) + 1;
            std::uint64_t length = (token & 7u) + 3u; // 64 bits: a 32-bit whole length plus 3 must not wrap
            if ((token & 7u) == 7u) {
                if (nibble_at == 0 && ip == in_size) return failed(rule::trace_compressed_stream, token_at);
                unsigned const nibble = detail::lz77_take_nibble(src, nibble_at, ip);
                length += nibble;
                if (nibble == 15) {
                    if (ip == in_size) return failed(rule::trace_compressed_stream, token_at);
                    unsigned const extra = src[ip++];
                    length += extra;
                    if (extra == 255) {
                        if (in_size - ip < 2) return failed(rule::trace_compressed_stream, token_at);
                        std::uint64_t whole = etwctl::detail::load<std::uint16_t>(src, ip);
                        ip += 2;
                        if (whole == 0) {
                            if (in_size - ip < 4) return failed(rule::trace_compressed_stream, token_at);
                            whole = etwctl::detail::load<std::uint32_t>(src, ip);
                            ip += 4;
                        }
                        if (whole < 15 + 7) return failed(rule::trace_compressed_stream, token_at);
                        length = whole + 3;
                    }
                }
            }
            if (distance > op) return failed(rule::trace_compressed_stream, token_at);
            std::size_t const room = out_size - op;
            if (length + detail::lz77_match_slack <= room) {
                detail::lz77_copy_match_fast(dst + op, distance, detail::lz77_size(length));
                op += detail::lz77_size(length);
            } else if (length <= room) {
                detail::lz77_copy_match_exact(dst + op, distance, detail::lz77_size(length));
                op += detail::lz77_size(length);
            } else { // fill `out`, then say the stream wanted more
                detail::lz77_copy_match_exact(dst + op, distance, room);
                op = out_size;
                return failed(rule::trace_compressed_size, token_at);
            }
        }
    }
}

} // namespace trace
ETWCTL_END_NAMESPACE
