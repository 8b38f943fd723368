// SPDX-License-Identifier: MIT
// Test support: a Plain LZ77 compressor ([MS-XCA] section 2.3; Windows COMPRESSION_FORMAT_XPRESS), so
// tests can build compressed ETW buffers and round-trip data through etwctl's decompressor
// (etwctl/trace/lz77.hpp, whose header comment describes the format).
//
// A greedy matcher over hash chains: at each position the longest match within the 8192-byte window
// (it may overlap the position, so a run becomes one match of distance 1), else a literal. It emits every
// form the format has: literals, length codes 0-6, the shared nibble (low half first, then the high half
// of the same byte), the extra byte, 255 + 16-bit and 255 + 0 + 32-bit whole lengths, and it ends the
// stream as [MS-XCA]'s compressor does (the unused bits of the last flag word set; a new flag word as soon
// as one is full). Test-only: allocates, and may throw std::bad_alloc.
//
// Also here: lz77_reference_decompress, [MS-XCA] 2.4.4's decoding followed literally, one byte at a time:
// the oracle the tests and the fuzz harness compare the fast decompressor with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "etwctl/rules.hpp"
#include "etwctl/trace/lz77.hpp"

namespace etwctl_test {

/// How often the compressor used each encoding (tests assert that a path was exercised).
struct lz77_compress_stats {
    std::size_t literals = 0;
    std::size_t matches = 0;
    std::size_t short_lengths = 0;   ///< length code 0-6 (3 to 9 bytes)
    std::size_t nibbles_low = 0;     ///< code 7, the low nibble of a new byte
    std::size_t nibbles_high = 0;    ///< code 7, the high nibble of the byte before
    std::size_t extra_bytes = 0;     ///< nibble 15 + one byte below 255 (25 to 279 bytes)
    std::size_t whole_u16 = 0;       ///< byte 255 + 16-bit whole length (280 to 65538 bytes)
    std::size_t whole_u32 = 0;       ///< byte 255 + 0 + 32-bit whole length (65539 bytes and more)
    std::size_t overlapping = 0;     ///< matches longer than their distance
    std::size_t flag_words = 0;
};

namespace lz77_detail {

inline constexpr std::size_t window = 8192;     // the 13-bit distance field: 1 to 8192
inline constexpr std::size_t min_match = 3;
inline constexpr std::size_t hash_bits = 15;
inline constexpr std::size_t chain_limit = 48;  // candidates tried per position
inline constexpr std::uint32_t no_position = 0xFFFFFFFFu;

/// Writes the stream: flag words, literal bytes, match tokens and their length fields.
class stream_writer {
public:
    explicit stream_writer(lz77_compress_stats& stats) : stats_(stats) { start_flag_word(); }

    void literal(std::byte b) {
        out_.push_back(b);
        ++stats_.literals;
        add_flag(0);
    }

    void match(std::size_t distance, std::size_t length) {
        ++stats_.matches;
        if (length > distance) ++stats_.overlapping;
        std::size_t const code = length - min_match;
        auto const token = static_cast<std::uint16_t>(((distance - 1) << 3) | (code < 7 ? code : 7));
        put_u16(token);
        if (code < 7) {
            ++stats_.short_lengths;
        } else {
            std::size_t const beyond_code = length - 10;
            auto const nibble = static_cast<unsigned>(beyond_code < 15 ? beyond_code : 15);
            if (nibble_at_ == none) {
                nibble_at_ = out_.size();
                out_.push_back(static_cast<std::byte>(nibble));
                ++stats_.nibbles_low;
            } else {
                out_[nibble_at_] |= static_cast<std::byte>(nibble << 4);
                nibble_at_ = none;
                ++stats_.nibbles_high;
            }
            if (nibble == 15) {
                std::size_t const beyond_nibble = length - 25;
                if (beyond_nibble < 255) {
                    out_.push_back(static_cast<std::byte>(beyond_nibble));
                    ++stats_.extra_bytes;
                } else {
                    out_.push_back(std::byte{0xFF});
                    std::size_t const whole = length - min_match;
                    if (whole <= 0xFFFF) {
                        put_u16(static_cast<std::uint16_t>(whole));
                        ++stats_.whole_u16;
                    } else {
                        put_u16(0);
                        put_u32(static_cast<std::uint32_t>(whole));
                        ++stats_.whole_u32;
                    }
                }
            }
        }
        add_flag(1);
    }

    /// Bytes of the stream so far.
    std::size_t size() const { return out_.size(); }

    std::vector<std::byte> finish() && {
        // The decoder stops at a match flag with no input left: set every unused bit.
        std::uint32_t const unused = 32 - flag_count_;
        std::uint32_t flags = unused == 32 ? 0xFFFFFFFFu : ((flags_ << unused) | ((1u << unused) - 1u));
        store_u32(flag_at_, flags);
        return std::move(out_);
    }

private:
    static constexpr std::size_t none = static_cast<std::size_t>(-1);

    void start_flag_word() {
        flag_at_ = out_.size();
        out_.resize(out_.size() + 4);
        flags_ = 0;
        flag_count_ = 0;
        ++stats_.flag_words;
    }
    void add_flag(std::uint32_t bit) {
        flags_ = (flags_ << 1) | bit;
        if (++flag_count_ == 32) {
            store_u32(flag_at_, flags_);
            start_flag_word(); // at once, as [MS-XCA] does: the stream never ends on a full flag word
        }
    }
    void put_u16(std::uint16_t v) {
        out_.push_back(static_cast<std::byte>(v & 0xFF));
        out_.push_back(static_cast<std::byte>(v >> 8));
    }
    void put_u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xFF));
    }
    void store_u32(std::size_t at, std::uint32_t v) {
        for (std::size_t i = 0; i < 4; ++i) out_[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
    }

    lz77_compress_stats& stats_;
    std::vector<std::byte> out_;
    std::size_t flag_at_ = 0;
    std::uint32_t flags_ = 0;
    std::uint32_t flag_count_ = 0;
    std::size_t nibble_at_ = none;
};

inline std::size_t hash3(std::span<std::byte const> in, std::size_t at) {
    std::uint32_t const v = std::to_integer<std::uint32_t>(in[at]) | (std::to_integer<std::uint32_t>(in[at + 1]) << 8) |
                            (std::to_integer<std::uint32_t>(in[at + 2]) << 16);
    return static_cast<std::size_t>((v * 2654435761u) >> (32 - hash_bits));
}

} // namespace lz77_detail

/// Compresses `in` into one Plain LZ77 stream; `stats` counts the encodings used.
inline std::vector<std::byte> lz77_compress(std::span<std::byte const> in, lz77_compress_stats& stats) {
    using namespace lz77_detail;
    stats = {};
    stream_writer w(stats);
    std::vector<std::uint32_t> head(std::size_t{1} << hash_bits, no_position);
    std::vector<std::uint32_t> prev(in.size(), no_position);
    auto const insert = [&](std::size_t at) {
        if (at + min_match > in.size()) return;
        std::size_t const h = hash3(in, at);
        prev[at] = head[h];
        head[h] = static_cast<std::uint32_t>(at);
    };

    std::size_t pos = 0;
    while (pos < in.size()) {
        std::size_t best_len = 0;
        std::size_t best_dist = 0;
        if (pos + min_match <= in.size()) {
            std::uint32_t cand = head[hash3(in, pos)];
            for (std::size_t tries = 0; cand != no_position && tries < chain_limit; ++tries, cand = prev[cand]) {
                std::size_t const dist = pos - cand;
                if (dist > window) break; // the chain goes back in position order
                std::size_t len = 0;
                while (pos + len < in.size() && in[cand + len] == in[pos + len]) ++len; // may run past pos: overlap
                if (len > best_len) {
                    best_len = len;
                    best_dist = dist;
                }
            }
        }
        if (best_len >= min_match) {
            w.match(best_dist, best_len);
            for (std::size_t i = 0; i < best_len; ++i) insert(pos + i);
            pos += best_len;
        } else {
            w.literal(in[pos]);
            insert(pos);
            ++pos;
        }
    }
    return std::move(w).finish();
}

/// Compresses `in` into one Plain LZ77 stream.
inline std::vector<std::byte> lz77_compress(std::span<std::byte const> in) {
    lz77_compress_stats stats;
    return lz77_compress(in, stats);
}

/// [MS-XCA] 2.4.4's decoding, item by item and byte by byte, every read and write checked before it is
/// made; the same result and error rules as etwctl::trace::decompress_plain_lz77 (written, rule, the offset
/// of the flag word, literal or match token that failed), so the two can be compared on any input. Unlike
/// the fast decoder it writes nothing of `out` past `written`.
inline etwctl::trace::lz77_result lz77_reference_decompress(std::span<std::byte const> in, std::span<std::byte> out) {
    using etwctl::rule;
    using etwctl::trace::lz77_result;
    std::size_t ip = 0;
    std::size_t op = 0;
    std::uint32_t flags = 0;
    unsigned flag_count = 0;
    std::size_t half_byte_at = 0; // [MS-XCA]'s LastLengthHalfByte: 0 = none
    auto const byte_at = [&](std::size_t i) { return std::to_integer<std::uint32_t>(in[i]); };
    auto const has = [&](std::size_t n) { return in.size() - ip >= n; };
    for (;;) {
        if (flag_count == 0) {
            if (!has(4)) return lz77_result{op, rule::trace_compressed_stream, ip};
            flags = byte_at(ip) | (byte_at(ip + 1) << 8) | (byte_at(ip + 2) << 16) | (byte_at(ip + 3) << 24);
            ip += 4;
            flag_count = 32;
        }
        --flag_count;
        if (((flags >> flag_count) & 1u) == 0) { // a literal
            if (!has(1)) return lz77_result{op, rule::trace_compressed_stream, ip};
            if (op == out.size()) return lz77_result{op, rule::trace_compressed_size, ip};
            out[op++] = in[ip++];
            continue;
        }
        if (ip == in.size()) return lz77_result{op, rule::ok, 0}; // the end of the stream
        std::size_t const token_at = ip;
        auto const malformed = lz77_result{op, rule::trace_compressed_stream, token_at};
        if (!has(2)) return malformed;
        std::uint32_t const token = byte_at(ip) | (byte_at(ip + 1) << 8);
        ip += 2;
        std::uint64_t length = token % 8;
        std::size_t const distance = token / 8 + 1;
        if (length == 7) {
            if (half_byte_at == 0) {
                if (!has(1)) return malformed;
                length = byte_at(ip) % 16;
                half_byte_at = ip;
                ip += 1;
            } else {
                length = byte_at(half_byte_at) / 16;
                half_byte_at = 0;
            }
            if (length == 15) {
                if (!has(1)) return malformed;
                length = byte_at(ip);
                ip += 1;
                if (length == 255) {
                    if (!has(2)) return malformed;
                    length = byte_at(ip) | (byte_at(ip + 1) << 8);
                    ip += 2;
                    if (length == 0) {
                        if (!has(4)) return malformed;
                        length = byte_at(ip) | (byte_at(ip + 1) << 8) | (byte_at(ip + 2) << 16) |
                                 (std::uint64_t{byte_at(ip + 3)} << 24);
                        ip += 4;
                    }
                    if (length < 15 + 7) return malformed;
                    length -= 15 + 7;
                }
                length += 15;
            }
            length += 7;
        }
        length += 3;
        if (distance > op) return malformed;
        for (std::uint64_t i = 0; i < length; ++i) {
            if (op == out.size()) return lz77_result{op, rule::trace_compressed_size, token_at};
            out[op] = out[op - distance];
            ++op;
        }
    }
}

} // namespace etwctl_test
