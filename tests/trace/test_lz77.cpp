// The Plain LZ77 decompressor (etwctl/trace/lz77.hpp): streams assembled by hand from [MS-XCA] 2.4, every
// malformed stream, round trips through the test compressor (support/lz77_compress.hpp) over each
// encoding path, and every compressed buffer of a real trace. Every decode is also run through the
// byte-at-a-time reference decoder of the support header and must agree with it exactly.
#include "etwctl_test.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/trace/lz77.hpp"
#include "lz77_compress.hpp"

// Everything in one named namespace: the tests are built as a unity build, where helpers in anonymous
// namespaces of different files would meet.
namespace lz77_tests {

using etwctl::rule;
using etwctl::trace::decompress_plain_lz77;
using etwctl::trace::lz77_result;
using etwctl_test::lz77_compress;
using etwctl_test::lz77_compress_stats;

std::vector<std::byte> bytes(std::initializer_list<int> values) {
    std::vector<std::byte> v;
    for (int x : values) v.push_back(static_cast<std::byte>(x));
    return v;
}
std::vector<std::byte> bytes_of(std::string_view s) {
    std::vector<std::byte> v;
    for (char c : s) v.push_back(static_cast<std::byte>(c));
    return v;
}
std::vector<std::byte> repeated(char c, std::size_t n) { return std::vector<std::byte>(n, static_cast<std::byte>(c)); }
std::vector<std::byte> concat(std::vector<std::byte> a, std::vector<std::byte> const& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
char const* rule_name(rule r) { return etwctl::info(r).name.data(); }

/// The caller's output: `size` bytes inside a larger array whose guard bytes on both sides must stay
/// untouched.
class guarded_out {
public:
    static constexpr std::size_t guard = 64; // more than the decoder's widest block (32 bytes)
    explicit guarded_out(std::size_t size) : storage_(size + 2 * guard, fill), size_(size) {}
    std::span<std::byte> span() { return {storage_.data() + guard, size_}; }
    std::vector<std::byte> first(std::size_t n) const {
        return {storage_.begin() + static_cast<std::ptrdiff_t>(guard), storage_.begin() + static_cast<std::ptrdiff_t>(guard + n)};
    }
    bool guards_intact() const {
        for (std::size_t i = 0; i < guard; ++i)
            if (storage_[i] != fill || storage_[guard + size_ + i] != fill) return false;
        return true;
    }

private:
    static constexpr std::byte fill{0xCD};
    std::vector<std::byte> storage_;
    std::size_t size_;
};

/// Decodes `in` into a guarded output of `out_size` bytes with etwctl's decoder and with the reference,
/// checks that both agree (result and the bytes written) and that nothing was written outside the output.
/// Returns etwctl's result; `written_bytes` receives what it wrote.
lz77_result decode(std::span<std::byte const> in, std::size_t out_size, std::vector<std::byte>* written_bytes = nullptr) {
    guarded_out out(out_size);
    lz77_result const r = decompress_plain_lz77(in, out.span());
    CHECK(out.guards_intact());
    CHECK(r.written <= out_size);
    guarded_out ref_out(out_size);
    lz77_result const ref = etwctl_test::lz77_reference_decompress(in, ref_out.span());
    CHECK(r.written == ref.written);
    CHECK_MESSAGE(r.error == ref.error, rule_name(r.error), " vs the reference's ", rule_name(ref.error));
    CHECK(r.input_offset == ref.input_offset);
    if (r.written == ref.written) CHECK(out.first(r.written) == ref_out.first(ref.written));
    if (written_bytes) *written_bytes = out.first(r.written);
    return r;
}

/// Adds the counts of `s` to `total`.
void add_stats(lz77_compress_stats& total, lz77_compress_stats const& s) {
    total.literals += s.literals;
    total.short_lengths += s.short_lengths;
    total.nibbles_low += s.nibbles_low;
    total.nibbles_high += s.nibbles_high;
    total.extra_bytes += s.extra_bytes;
    total.whole_u16 += s.whole_u16;
    total.whole_u32 += s.whole_u32;
    total.overlapping += s.overlapping;
}

/// Every encoding of the format was used.
void check_every_encoding(lz77_compress_stats const& total) {
    CHECK(total.literals > 0);
    CHECK(total.short_lengths > 0);
    CHECK(total.nibbles_low > 0);
    CHECK(total.nibbles_high > 0);
    CHECK(total.extra_bytes > 0);
    CHECK(total.whole_u16 > 0);
    CHECK(total.whole_u32 > 0);
    CHECK(total.overlapping > 0);
}

/// Round trip: compress, decode into exactly the size, one byte less and more room than needed.
void check_round_trip(std::vector<std::byte> const& data, lz77_compress_stats* stats_out = nullptr) {
    lz77_compress_stats stats;
    std::vector<std::byte> const packed = lz77_compress(data, stats);
    if (stats_out) *stats_out = stats;
    CHECK(stats.literals + stats.matches >= (data.empty() ? 0 : 1));
    std::vector<std::byte> got;
    lz77_result r = decode(packed, data.size(), &got);
    CHECK_MESSAGE(r.error == rule::ok, rule_name(r.error));
    CHECK(r.written == data.size());
    CHECK(got == data);
    r = decode(packed, data.size() + 100, &got);
    CHECK(r.error == rule::ok);
    CHECK(got == data);
    if (!data.empty()) {
        r = decode(packed, data.size() - 1, &got);
        CHECK(r.error == rule::trace_compressed_size);
        CHECK(r.written == data.size() - 1);
        CHECK(std::equal(got.begin(), got.end(), data.begin()));
    }
}

std::vector<std::byte> random_bytes(std::mt19937& rng, std::size_t n) {
    std::vector<std::byte> v(n);
    for (auto& b : v) b = static_cast<std::byte>(rng() & 0xFF);
    return v;
}

/// Words with spaces: compressible text whose matches have many distances and lengths.
std::vector<std::byte> text(std::mt19937& rng, std::size_t n) {
    static constexpr std::string_view words[] = {"the ", "event ", "trace ", "buffer ", "provider ", "kernel ",
                                                 "session ", "records ", "compressed ", "Windows ", "ETW ", "\r\n",
                                                 "SystemTime ", "ProcessId=", "ThreadId=", "0x", "12", "345"};
    std::string s;
    while (s.size() < n) s += words[rng() % std::size(words)];
    s.resize(n);
    return bytes_of(s);
}

/// Random pieces and copies of earlier pieces (distances up to 9000, past the window; lengths up to 400).
std::vector<std::byte> mixed(std::mt19937& rng, std::size_t n) {
    std::vector<std::byte> v;
    while (v.size() < n) {
        if (v.size() < 16 || rng() % 3 == 0) {
            std::size_t const k = 1 + rng() % 24;
            for (std::size_t i = 0; i < k; ++i) v.push_back(static_cast<std::byte>(rng() & 0xFF));
        } else {
            std::size_t const dist = 1 + rng() % std::min<std::size_t>(v.size(), 9000);
            std::size_t const len = 3 + rng() % (rng() % 8 == 0 ? 400 : 30);
            for (std::size_t i = 0; i < len; ++i) v.push_back(v[v.size() - dist]); // may overlap
        }
    }
    v.resize(n);
    return v;
}

/// A pattern of `period` random bytes, repeated: matches at one short distance.
std::vector<std::byte> periodic(std::mt19937& rng, std::size_t period, std::size_t n) {
    std::vector<std::byte> const p = random_bytes(rng, period);
    std::vector<std::byte> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = p[i % period];
    return v;
}

std::uint32_t u32_at(std::vector<std::byte> const& v, std::size_t at) {
    std::uint32_t x = 0;
    for (std::size_t i = 0; i < 4; ++i) x |= std::to_integer<std::uint32_t>(v[at + i]) << (8 * i);
    return x;
}
std::uint16_t u16_at(std::vector<std::byte> const& v, std::size_t at) {
    return static_cast<std::uint16_t>(std::to_integer<unsigned>(v[at]) | (std::to_integer<unsigned>(v[at + 1]) << 8));
}

// ---------------------------------------------------------------------------------------------------------
// Streams assembled by hand. Flag words are little-endian; their bits are read from bit 31 down, 0 = a
// literal, 1 = a match; the unused bits are set so the stream ends there. A token is little-endian:
// (distance - 1) << 3 | length code.

TEST_CASE("lz77: literals only, then the end (a match flag with no input left)") {
    // flags 0001 1111...: three literals, then a match flag at the end of the input.
    auto const in = bytes({0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c'});
    std::vector<std::byte> got;
    lz77_result const r = decode(in, 3, &got);
    CHECK(r);
    CHECK(r.written == 3);
    CHECK(got == bytes_of("abc"));
    CHECK(decode(in, 100, &got).written == 3); // more room changes nothing
}

TEST_CASE("lz77: a short match (code 2: length 5) at distance 3") {
    // literals a b c, then token 0x0012 = distance (2 + 1), code 2 (length 5): copies "abcab".
    auto const in = bytes({0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c', 0x12, 0x00});
    std::vector<std::byte> got;
    CHECK(decode(in, 8, &got));
    CHECK(got == bytes_of("abcabcab"));
}

TEST_CASE("lz77: an overlapping match (distance 1, length 10) repeats the last byte") {
    // flags 0111...: literal 'a', then token 0x0007 (distance 1, code 7) whose new nibble byte 0x00 gives
    // length 7 + 0 + 3 = 10: ten more 'a'.
    auto const in = bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x00});
    std::vector<std::byte> got;
    CHECK(decode(in, 11, &got));
    CHECK(got == repeated('a', 11));
}

TEST_CASE("lz77: overlapping matches of every distance below 8 repeat their pattern") {
    for (unsigned distance = 1; distance <= 9; ++distance) {
        CAPTURE(distance);
        // `distance` literals, then one match at that distance, length 40 (code 7, nibble 15, byte 15).
        std::vector<std::byte> in = bytes({0, 0, 0, 0});
        std::vector<std::byte> expected;
        for (unsigned i = 0; i < distance; ++i) {
            in.push_back(static_cast<std::byte>('A' + i));
            expected.push_back(static_cast<std::byte>('A' + i));
        }
        std::uint32_t const flags = 0xFFFFFFFFu >> distance; // `distance` literals, then matches
        for (std::size_t i = 0; i < 4; ++i) in[i] = static_cast<std::byte>((flags >> (8 * i)) & 0xFF);
        unsigned const token = ((distance - 1) << 3) | 7;
        for (int b : {int(token & 0xFF), int(token >> 8), 0x0F, 40 - 25}) in.push_back(static_cast<std::byte>(b));
        for (unsigned i = 0; i < 40; ++i) expected.push_back(expected[expected.size() - distance]);
        std::vector<std::byte> got;
        CHECK(decode(in, expected.size(), &got));
        CHECK(got == expected);
        CHECK(decode(in, expected.size() + 40, &got)); // and on the fast path, with room to spare
        CHECK(got == expected);
    }
}

TEST_CASE("lz77: two code-7 matches share a nibble byte, a third reads a new one") {
    // flags 0101 1...: 'x'; match (distance 1, code 7) reads byte 0xA2 and uses its low nibble 2 (length
    // 12); 'y'; match (distance 1, code 7) uses the high nibble 0xA of that byte (length 20) and reads
    // nothing; match (distance 1, code 7) reads a new byte 0x01 (length 11).
    auto const in = bytes({0xFF, 0xFF, 0xFF, 0x5F, 'x', 0x07, 0x00, 0xA2, 'y', 0x07, 0x00, 0x07, 0x00, 0x01});
    std::vector<std::byte> got;
    CHECK(decode(in, 13 + 21 + 11, &got));
    CHECK(got == concat(repeated('x', 13), repeated('y', 32)));
    // Ending after the second match: reading the shared high nibble needs no input.
    std::vector<std::byte> const two(in.begin(), in.begin() + 11);
    CHECK(decode(two, 100, &got));
    CHECK(got == concat(repeated('x', 13), repeated('y', 21)));
}

TEST_CASE("lz77: nibble 15 adds a byte; byte 255 a 16-bit whole length; 16-bit 0 a 32-bit one") {
    std::vector<std::byte> got;
    // Length 30: code 7, nibble 15, byte 30 - 25 = 5.
    CHECK(decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0x05}), 31, &got));
    CHECK(got == repeated('z', 31));
    // Length 279, the longest with one byte: byte 254.
    CHECK(decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0xFE}), 280, &got));
    CHECK(got == repeated('z', 280));
    // Length 300: byte 255, then 300 - 3 = 297 = 0x0129.
    CHECK(decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'q', 0x07, 0x00, 0x0F, 0xFF, 0x29, 0x01}), 301, &got));
    CHECK(got == repeated('q', 301));
    // The smallest whole length the format accepts: 22 (length 25, which a compressor would write shorter).
    CHECK(decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'q', 0x07, 0x00, 0x0F, 0xFF, 22, 0x00}), 26, &got));
    CHECK(got == repeated('q', 26));
    // Length 70000: byte 255, 16-bit 0, then 69997 = 0x0001116D.
    auto const long_match = bytes({0xFF, 0xFF, 0xFF, 0x7F, 'w', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x6D, 0x11, 0x01, 0x00});
    CHECK(decode(long_match, 70001, &got));
    CHECK(got == repeated('w', 70001));
}

TEST_CASE("lz77: a match 8192 bytes back, the farthest the 13-bit distance reaches") {
    // 8192 literals in 256 flag words of zero bits, then a flag word whose first bit is a match: token
    // 0xFFF8 = distance 0x1FFF + 1, code 0 (length 3).
    std::mt19937 rng(7);
    std::vector<std::byte> const lits = random_bytes(rng, 8192);
    std::vector<std::byte> in;
    for (std::size_t g = 0; g < 256; ++g) {
        in.insert(in.end(), 4, std::byte{0});
        in.insert(in.end(), lits.begin() + static_cast<std::ptrdiff_t>(32 * g), lits.begin() + static_cast<std::ptrdiff_t>(32 * g + 32));
    }
    in = concat(in, bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xF8, 0xFF}));
    std::vector<std::byte> got;
    CHECK(decode(in, 8195, &got));
    CHECK(got == concat(lits, {lits[0], lits[1], lits[2]}));
}

TEST_CASE("lz77: items continue across flag words") {
    // A flag word of 32 literals, then one of a literal and the end: 33 bytes.
    std::vector<std::byte> in = bytes({0, 0, 0, 0});
    std::vector<std::byte> expected;
    for (int i = 0; i < 33; ++i) expected.push_back(static_cast<std::byte>('0' + i));
    in.insert(in.end(), expected.begin(), expected.begin() + 32);
    in = concat(in, bytes({0xFF, 0xFF, 0xFF, 0x7F}));
    in.push_back(expected[32]);
    std::vector<std::byte> got;
    CHECK(decode(in, 33, &got));
    CHECK(got == expected);
}

TEST_CASE("lz77: an empty stream (one flag word of match bits) decodes to nothing, even into no room") {
    auto const in = bytes({0xFF, 0xFF, 0xFF, 0xFF});
    CHECK(decode(in, 0));
    CHECK(decode(in, 0).written == 0);
    CHECK(decode(in, 16).written == 0);
}

// ---------------------------------------------------------------------------------------------------------
// Malformed streams: the rule, where, and what was written.

TEST_CASE("lz77: empty or short input has no flag word") {
    for (std::size_t n = 0; n < 4; ++n) {
        CAPTURE(n);
        std::vector<std::byte> const in(n, std::byte{0xFF});
        lz77_result const r = decode(in, 16);
        CHECK(!r);
        CHECK(r.error == rule::trace_compressed_stream);
        CHECK(r.input_offset == 0);
        CHECK(r.written == 0);
    }
}

TEST_CASE("lz77: the input ends where a flag word is due") {
    // 32 literals use up the first flag word; a stream must go on with another (the end is a match flag).
    std::vector<std::byte> in = bytes({0, 0, 0, 0});
    in.insert(in.end(), 32, std::byte{'k'});
    lz77_result r = decode(in, 64);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 36);
    CHECK(r.written == 32);
    in.push_back(std::byte{0xFF}); // a partial flag word
    in.push_back(std::byte{0xFF});
    r = decode(in, 64);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 36);
}

TEST_CASE("lz77: the input ends where a literal is due") {
    // flags 0111...: a literal first, but no byte follows.
    lz77_result r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F}), 16);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 4);
    CHECK(r.written == 0);
    // flags 0001...: three literals, two present.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b'}), 16);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 6);
    CHECK(r.written == 2);
}

TEST_CASE("lz77: a match reaching before the start of the output") {
    // A match first: nothing to copy from.
    lz77_result r = decode(bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00}), 16);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 4);
    CHECK(r.written == 0);
    // One literal, then distance 2 (token 0x0008).
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x08, 0x00}), 16);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 5);
    CHECK(r.written == 1);
    // Distance 1 after one literal is the farthest allowed.
    CHECK(decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x00, 0x00}), 16));
    // The largest distance (token 0xFFFF: 8192, code 7 with nibble 0) after one literal.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0xFF, 0xFF, 0x00}), 100000);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 5);
}

TEST_CASE("lz77: the input ends inside a match") {
    struct truncated {
        char const* what;
        std::vector<std::byte> in;
    };
    // Each is literal 'a' (offset 4) then a match token at offset 5, cut short.
    truncated const cases[] = {
        {"inside the 16-bit token", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07})},
        {"where the nibble byte is due", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00})},
        {"where the byte after nibble 15 is due", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F})},
        {"inside the 16-bit whole length", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x29})},
        {"where the 16-bit whole length is due", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF})},
        {"inside the 32-bit whole length", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x6D, 0x11, 0x01})},
        {"where the 32-bit whole length is due", bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00})},
    };
    for (auto const& c : cases) {
        CAPTURE(c.what);
        lz77_result const r = decode(c.in, 100000);
        CHECK(r.error == rule::trace_compressed_stream);
        CHECK(r.input_offset == 5);
        CHECK(r.written == 1);
    }
    // The same cut after a first code-7 match left a high nibble: the second match reads no nibble byte,
    // so its extension byte is the next thing due.
    // flags 0111...: 'a'; a match whose new nibble byte 0xF0 gives length 10 (low nibble 0); a match whose
    // high nibble 15 wants a byte after its token, at the end of the input.
    lz77_result const r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0xF0, 0x07, 0x00}), 1000);
    CHECK(r.error == rule::trace_compressed_stream);
    CHECK(r.input_offset == 8);
    CHECK(r.written == 11);
}

TEST_CASE("lz77: a whole length below 22 is malformed") {
    for (int whole : {0x15, 0x00}) { // 21 as a 16-bit value; 0 then 21 as a 32-bit value
        CAPTURE(whole);
        auto const in = whole != 0 ? bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x15, 0x00})
                                   : bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00});
        lz77_result const r = decode(in, 1000);
        CHECK(r.error == rule::trace_compressed_stream);
        CHECK(r.input_offset == 5);
        CHECK(r.written == 1);
    }
}

TEST_CASE("lz77: output too small: filled to its end, the rest refused, nothing written past it") {
    std::vector<std::byte> got;
    // A literal that does not fit: 'c' at offset 6.
    lz77_result r = decode(bytes({0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c'}), 2, &got);
    CHECK(r.error == rule::trace_compressed_size);
    CHECK(r.written == 2);
    CHECK(r.input_offset == 6);
    CHECK(got == bytes_of("ab"));
    // No room at all.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c'}), 0);
    CHECK(r.error == rule::trace_compressed_size);
    CHECK(r.written == 0);
    CHECK(r.input_offset == 4);
    // A match that does not fit (11 bytes into 5): token at offset 5.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x00}), 5, &got);
    CHECK(r.error == rule::trace_compressed_size);
    CHECK(r.written == 5);
    CHECK(r.input_offset == 5);
    CHECK(got == repeated('a', 5));
    // The longest length the format can say (0xFFFFFFFF + 3 bytes) into a small output: refused at once.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF}), 4000, &got);
    CHECK(r.error == rule::trace_compressed_size);
    CHECK(r.written == 4000);
    CHECK(r.input_offset == 5);
    CHECK(got == repeated('a', 4000));
    // A malformed distance is reported as such even when the output is full.
    r = decode(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x08, 0x00}), 1);
    CHECK(r.error == rule::trace_compressed_stream);
}

// ---------------------------------------------------------------------------------------------------------
// Round trips through the test compressor.

TEST_CASE("lz77: each length encoding, as the compressor writes it and the decoder reads it") {
    struct length_case {
        std::size_t length;
        std::size_t lz77_compress_stats::*path;
        std::vector<std::byte> tail; // the match's bytes after the flag word and literal 'a'
    };
    using S = lz77_compress_stats;
    length_case const cases[] = {
        {3, &S::short_lengths, bytes({0x00, 0x00})},
        {9, &S::short_lengths, bytes({0x06, 0x00})},
        {10, &S::nibbles_low, bytes({0x07, 0x00, 0x00})},
        {24, &S::nibbles_low, bytes({0x07, 0x00, 0x0E})},
        {25, &S::extra_bytes, bytes({0x07, 0x00, 0x0F, 0x00})},
        {279, &S::extra_bytes, bytes({0x07, 0x00, 0x0F, 0xFE})},
        {280, &S::whole_u16, bytes({0x07, 0x00, 0x0F, 0xFF, 0x15, 0x01})},
        {65538, &S::whole_u16, bytes({0x07, 0x00, 0x0F, 0xFF, 0xFF, 0xFF})},
        {65539, &S::whole_u32, bytes({0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00})},
        {200000, &S::whole_u32, bytes({0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x3D, 0x0D, 0x03, 0x00})},
    };
    for (auto const& c : cases) {
        CAPTURE(c.length);
        // 'a' then `length` more: a literal, then one match at distance 1 (overlapping).
        std::vector<std::byte> const data = repeated('a', c.length + 1);
        lz77_compress_stats stats;
        std::vector<std::byte> const packed = lz77_compress(data, stats);
        CHECK(stats.literals == 1);
        CHECK(stats.matches == 1);
        CHECK(stats.*(c.path) == 1);
        CHECK(stats.overlapping == 1);
        CHECK(packed == concat(bytes({0xFF, 0xFF, 0xFF, 0x7F, 'a'}), c.tail));
        check_round_trip(data);
    }
}

TEST_CASE("lz77: the compressor shares nibble bytes as the hand-assembled stream does") {
    lz77_compress_stats stats;
    std::vector<std::byte> const packed = lz77_compress(concat(repeated('x', 13), repeated('y', 21)), stats);
    CHECK(packed == bytes({0xFF, 0xFF, 0xFF, 0x5F, 'x', 0x07, 0x00, 0xA2, 'y', 0x07, 0x00}));
    CHECK(stats.nibbles_low == 1);
    CHECK(stats.nibbles_high == 1);
}

TEST_CASE("lz77: the compressor starts a new flag word when one is full, and ends with match bits") {
    std::string s;
    for (int i = 0; i < 32; ++i) s += static_cast<char>('A' + i); // 32 literals (no repeats)
    lz77_compress_stats stats;
    std::vector<std::byte> const packed = lz77_compress(bytes_of(s), stats);
    REQUIRE(packed.size() == 4 + 32 + 4);
    CHECK(u32_at(packed, 0) == 0);
    CHECK(u32_at(packed, 36) == 0xFFFFFFFFu);
    CHECK(stats.flag_words == 2);
    check_round_trip(bytes_of(s));
    CHECK(lz77_compress({}) == bytes({0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST_CASE("lz77: round trips of random, zero, periodic, text and mixed data, 0 bytes to 200 KB") {
    std::mt19937 rng(20240601);
    lz77_compress_stats total;
    auto add = [&](lz77_compress_stats const& s) { add_stats(total, s); };
    std::size_t const sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 4096, 8193, 65536, 200 * 1024};
    for (std::size_t n : sizes) {
        CAPTURE(n);
        lz77_compress_stats s;
        for (auto const& data : {random_bytes(rng, n), std::vector<std::byte>(n), text(rng, n), mixed(rng, n)}) {
            check_round_trip(data, &s);
            add(s);
        }
        for (std::size_t period : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 100u}) {
            CAPTURE(period);
            check_round_trip(periodic(rng, period, n), &s);
            add(s);
        }
    }
    check_every_encoding(total);
}

TEST_CASE("lz77: the decoder never writes past a tight output, whatever the room left") {
    // Every output size from empty to exact for one stream of mixed items: the block copies must shrink to
    // the exact ones near the end, and the prefix written must always be right.
    std::mt19937 rng(99);
    std::vector<std::byte> const data = mixed(rng, 600);
    std::vector<std::byte> const packed = lz77_compress(data);
    for (std::size_t room = 0; room <= data.size() + 40; ++room) {
        CAPTURE(room);
        std::vector<std::byte> got;
        lz77_result const r = decode(packed, room, &got);
        if (room < data.size()) {
            CHECK(r.error == rule::trace_compressed_size);
            CHECK(r.written == room);
        } else {
            CHECK(r.error == rule::ok);
            CHECK(r.written == data.size());
        }
        CHECK(std::equal(got.begin(), got.end(), data.begin()));
    }
    // And every cut of the stream: malformed, or (cut just before a match token, where a stream may end)
    // a shorter output; never out of bounds; the reference agrees (decode).
    std::size_t malformed = 0;
    for (std::size_t cut = 0; cut < packed.size(); ++cut) {
        CAPTURE(cut);
        std::vector<std::byte> got;
        lz77_result const r = decode(std::span(packed).first(cut), data.size(), &got);
        if (r.error == rule::trace_compressed_stream) {
            ++malformed;
            CHECK(r.input_offset <= cut);
        } else {
            CHECK(r.error == rule::ok);
            CHECK(r.written < data.size());
        }
        CHECK(std::equal(got.begin(), got.end(), data.begin()));
    }
    CHECK(malformed > packed.size() / 2);
}

/// A stream of random items (not a compressor's choices): literals, and matches of every length encoding
/// at distances that favour the short ones (below 8 and 16, where the copies differ), with the output it
/// stands for. Items are drawn until the output reaches `size`; when `huge`, one early match has a 32-bit
/// whole length (more than 64 KiB of output).
struct random_stream {
    std::vector<std::byte> packed;
    std::vector<std::byte> data;
    lz77_compress_stats stats;
};
random_stream random_items(std::mt19937& rng, std::size_t size, bool huge) {
    random_stream r;
    etwctl_test::lz77_detail::stream_writer w(r.stats);
    auto pick = [&](std::size_t lo, std::size_t hi) { return lo + rng() % (hi - lo + 1); };
    while (r.data.size() < size) {
        std::size_t const have = r.data.size();
        if (have == 0 || rng() % 3 == 0) {
            auto const b = static_cast<std::byte>(rng() & 0xFF);
            w.literal(b);
            r.data.push_back(b);
            continue;
        }
        std::size_t const back = have < 8192 ? have : 8192;
        std::size_t distance = 0;
        switch (rng() % 4) {
        case 0: distance = pick(1, back < 7 ? back : 7); break;
        case 1: distance = pick(1, back < 15 ? back : 15); break;
        case 2: distance = pick(1, back < 64 ? back : 64); break;
        default: distance = pick(1, back); break;
        }
        std::size_t length = 0;
        switch (rng() % 16) {
        case 13: length = pick(25, 279); break;          // nibble 15 and one byte
        case 14: length = pick(280, 2000); break;        // a 16-bit whole length
        case 15: length = pick(10, 24); break;
        default: length = rng() % 2 ? pick(3, 9) : pick(10, 24); break;
        }
        if (huge && have >= 64) { // one 32-bit whole length
            length = pick(65539, 70000);
            huge = false;
        }
        w.match(distance, length);
        for (std::size_t i = 0; i < length; ++i) r.data.push_back(r.data[r.data.size() - distance]);
    }
    r.packed = std::move(w).finish();
    return r;
}

TEST_CASE("lz77: streams of random items decode as the reference does, far from the ends and near them") {
    // The decoder takes a group of 32 items without per-item checks when it is far from both ends: every
    // encoding, distance and room left must give the same bytes and the same result as the reference
    // (decode() compares them and checks the guards around the output).
    std::mt19937 rng(7331);
    lz77_compress_stats total;
    for (int round = 0; round < 20; ++round) {
        CAPTURE(round);
        random_stream const s = random_items(rng, 2000 + rng() % 30000, round == 0);
        add_stats(total, s.stats);
        std::vector<std::byte> got;
        lz77_result r = decode(s.packed, s.data.size(), &got);
        CHECK(r.error == rule::ok);
        CHECK(got == s.data);
        // Room ending anywhere: inside a fast group's reach, inside a long match, past the end.
        for (std::size_t room : {s.data.size() - 1, s.data.size() - 1000, s.data.size() / 2, s.data.size() / 2 + 1023,
                                 std::size_t{1024}, std::size_t{1023}, s.data.size() + 5000}) {
            CAPTURE(room);
            r = decode(s.packed, room, &got);
            CHECK(r.error == (room < s.data.size() ? rule::trace_compressed_size : rule::ok));
            CHECK(std::equal(got.begin(), got.end(), s.data.begin()));
        }
        // Input ending anywhere, and bytes changed anywhere (distances past the start, whole lengths below
        // their minimum, nibbles shared differently): whatever the outcome, the reference's.
        for (int k = 0; k < 20; ++k) {
            std::size_t const cut = rng() % s.packed.size();
            CAPTURE(cut);
            (void)decode(std::span(s.packed).first(cut), s.data.size());
            std::vector<std::byte> bent = s.packed;
            for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips)
                bent[rng() % bent.size()] = static_cast<std::byte>(rng() & 0xFF);
            (void)decode(bent, s.data.size() + rng() % 2000);
        }
    }
    check_every_encoding(total);
}

TEST_CASE("lz77: groups that reach the fast loop's bounds, cut at every place in them") {
    // Three groups of the items that read and write the most (see lz77_fast_group_input and
    // lz77_fast_group_room): matches of length 24 (the longest without a length byte), 279 (the longest
    // with one) and 25, pairs of them sharing a nibble byte, at short and long distances; then literals, so
    // that every group of matches has the input the fast loop asks for. Decoded into every room that ends
    // in those groups, and from every cut of their input, copied to storage of exactly its size (so that an
    // address sanitizer sees a read past it): the reference's results, nothing written outside the output.
    for (std::size_t const length : {std::size_t{24}, std::size_t{279}, std::size_t{25}}) {
        CAPTURE(length);
        lz77_compress_stats stats;
        etwctl_test::lz77_detail::stream_writer w(stats);
        std::vector<std::byte> data;
        auto literal = [&](std::byte b) {
            w.literal(b);
            data.push_back(b);
        };
        for (int i = 0; i < 8; ++i) literal(static_cast<std::byte>(i * 37 + 1));
        for (int i = 0; i < 3 * 32; ++i) {
            std::size_t const distance = i % 4 == 3 ? 20 : std::size_t{1} + static_cast<std::size_t>(i) % 8;
            w.match(distance, length);
            for (std::size_t k = 0; k < length; ++k) data.push_back(data[data.size() - distance]);
        }
        std::size_t const matched = data.size();
        std::size_t const matched_input = w.size();
        for (int i = 0; i < 300; ++i) literal(static_cast<std::byte>(i));
        std::vector<std::byte> const packed = std::move(w).finish();
        // every room for the short lengths (a group's writes end within a few bytes of its bound); for the
        // long ones a room anywhere in a group's reach shows a missing room test
        std::size_t const step = length > 25 ? 97 : 1;
        for (std::size_t room = 0; room <= matched; room += step) {
            CAPTURE(room);
            std::vector<std::byte> got;
            lz77_result const r = decode(packed, room, &got);
            CHECK(r.error == rule::trace_compressed_size);
            CHECK(std::equal(got.begin(), got.end(), data.begin()));
        }
        for (std::size_t cut = 0; cut <= matched_input; ++cut) {
            CAPTURE(cut);
            std::vector<std::byte> const exact(packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(cut));
            std::vector<std::byte> got;
            lz77_result const r = decode(exact, data.size(), &got);
            CHECK(r.written < data.size());
            CHECK(std::equal(got.begin(), got.end(), data.begin()));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// A real trace: every compressed buffer of net.4.5.2.x86.etl (PerfView's test data; data/README.md).

TEST_CASE("lz77: every compressed buffer of a real trace decodes to its size and walks as records") {
    std::ifstream file(ETWCTL_TRACE_DATA "/net.4.5.2.x86.etl", std::ios::binary);
    if (!file) {
        MESSAGE("net.4.5.2.x86.etl not found: skipped");
        return;
    }
    std::vector<char> const raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> etl(raw.size());
    std::memcpy(etl.data(), raw.data(), raw.size());

    std::size_t buffers = 0, compressed = 0, records = 0;
    std::size_t offset = 0;
    while (offset < etl.size()) {
        REQUIRE(etl.size() - offset >= 0x48);
        std::uint32_t const buffer_size = u32_at(etl, offset + 0x00);
        std::uint32_t const saved_offset = u32_at(etl, offset + 0x04);
        std::uint16_t const buffer_flag = u16_at(etl, offset + 0x34);
        REQUIRE(buffer_size >= 0x48);
        REQUIRE(buffer_size <= etl.size() - offset);
        ++buffers;
        if ((buffer_flag & 0x40) != 0) {
            CAPTURE(offset);
            ++compressed;
            REQUIRE(saved_offset >= 0x48);
            std::span<std::byte const> const stream = std::span(etl).subspan(offset + 0x48, buffer_size - 0x48);
            std::size_t const expected = saved_offset - 0x48;
            std::vector<std::byte> out;
            lz77_result const r = decode(stream, expected, &out);
            REQUIRE_MESSAGE(r.error == rule::ok, rule_name(r.error), " at ", r.input_offset);
            REQUIRE(r.written == expected);
            // One byte short: the stream wants exactly `expected`.
            CHECK(decode(stream, expected - 1).error == rule::trace_compressed_size);

            // The records: 8-aligned, each starting with a trace header (byte 3 has 0x80 TRACE_HEADER_FLAG
            // and 0x40 TRACE_HEADER_EVENT_TRACE), ending exactly at the end of the data.
            std::size_t at = 0;
            while (at < out.size()) {
                REQUIRE(out.size() - at >= 8);
                unsigned const header_type = std::to_integer<unsigned>(out[at + 2]);
                CHECK((std::to_integer<unsigned>(out[at + 3]) & 0xC0u) == 0xC0u);
                bool const size_first = header_type == 0x12 || header_type == 0x13 || header_type == 0x0A || header_type == 0x14;
                std::size_t const size = u16_at(out, at + (size_first ? 0 : 4));
                REQUIRE(size >= 8);
                at += (size + 7) & ~std::size_t{7};
                ++records;
            }
            CHECK(at == out.size());
        }
        offset += buffer_size;
    }
    CHECK(offset == etl.size());
    CHECK(buffers == 276);
    CHECK(compressed == 275); // every buffer but the header buffer (BufferFlag 0x60 and one 0x61)
    CHECK(records > 100000);
}

} // namespace lz77_tests
