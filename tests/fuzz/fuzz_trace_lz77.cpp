// Fuzz harness: the Plain LZ77 decompressor of compressed ETW buffers (etwctl/trace/lz77.hpp).
//  decode mode (first byte is not the marker): bytes 0-1 = the output size (little-endian u16), the rest
//          is a stream. The output sits in a guarded buffer (ASan-poisoned, canaries checked). The result
//          must be consistent (written <= size; a size error fills the output; an error says an offset
//          inside the input), equal the byte-at-a-time reference decoder's ([MS-XCA] 2.4.4 followed
//          literally; support/lz77_compress.hpp) in rule, written and offset and in the bytes written, and
//          a second decode must give the same.
//  round-trip mode (first byte is the marker): the rest is plain data; the test compressor's stream of it
//          must decode back to it exactly, into exactly its size, and report trace_compressed_size with the
//          data's first size - 1 bytes when the output is one byte short.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "fuzz_support.hpp"

#include "etwctl/trace/lz77.hpp"
#include "../trace/support/lz77_compress.hpp"

using etwctl::rule;
using etwctl::trace::decompress_plain_lz77;
using etwctl::trace::lz77_result;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

constexpr std::uint8_t round_trip_marker = 0xA5;

std::span<std::byte> span_of(guarded_buffer& b) { return {reinterpret_cast<std::byte*>(b.data()), b.size()}; }

/// Decodes `in` into a fresh guarded buffer of `out_size` bytes; returns the result and the bytes written.
lz77_result guarded_decode(std::span<std::byte const> in, std::size_t out_size, std::vector<std::byte>& written) {
    guarded_buffer out(out_size);
    lz77_result r;
    {
        poisoned_scope g(out);
        r = decompress_plain_lz77(in, span_of(out));
    }
    FUZZ_CHECK(r.written <= out_size);
    written.assign(span_of(out).begin(), span_of(out).begin() + static_cast<std::ptrdiff_t>(r.written));
    return r;
}

void mode_decode(std::uint8_t const* data, std::size_t size) {
    std::size_t const out_size = static_cast<std::size_t>(data[0] | (data[1] << 8));
    // The stream in its own guarded buffer, so a read past its end faults.
    guarded_buffer in_buf(size - 2);
    if (size > 2) std::memcpy(in_buf.data(), data + 2, size - 2);
    std::span<std::byte const> const in(reinterpret_cast<std::byte const*>(in_buf.data()), size - 2);

    std::vector<std::byte> first;
    lz77_result r;
    {
        poisoned_scope g(in_buf);
        r = guarded_decode(in, out_size, first);
    }
    if (r) {
        FUZZ_CHECK(r.input_offset == 0);
    } else {
        FUZZ_CHECK(r.error == rule::trace_compressed_stream || r.error == rule::trace_compressed_size);
        FUZZ_CHECK(r.input_offset <= in.size());
        if (r.error == rule::trace_compressed_size) FUZZ_CHECK(r.written == out_size);
    }

    std::vector<std::byte> ref_out(out_size);
    lz77_result const ref = etwctl_test::lz77_reference_decompress(in, ref_out);
    FUZZ_CHECK(r.error == ref.error);
    FUZZ_CHECK(r.written == ref.written);
    FUZZ_CHECK(r.input_offset == ref.input_offset);
    FUZZ_CHECK(r.written == 0 || std::memcmp(first.data(), ref_out.data(), r.written) == 0);

    std::vector<std::byte> second;
    lz77_result again;
    {
        poisoned_scope g(in_buf);
        again = guarded_decode(in, out_size, second);
    }
    FUZZ_CHECK(again.error == r.error && again.written == r.written && again.input_offset == r.input_offset);
    FUZZ_CHECK(second == first);
}

void mode_round_trip(std::uint8_t const* data, std::size_t size) {
    std::span<std::byte const> const plain(reinterpret_cast<std::byte const*>(data), size);
    std::vector<std::byte> const packed = etwctl_test::lz77_compress(plain);
    guarded_buffer in_buf(packed.size());
    std::memcpy(in_buf.data(), packed.data(), packed.size());
    std::span<std::byte const> const in(reinterpret_cast<std::byte const*>(in_buf.data()), packed.size());

    std::vector<std::byte> got;
    poisoned_scope g(in_buf);
    lz77_result r = guarded_decode(in, size, got);
    FUZZ_CHECK(r.error == rule::ok && r.written == size);
    FUZZ_CHECK(size == 0 || std::memcmp(got.data(), data, size) == 0);
    r = guarded_decode(in, size + 64, got); // with room to spare: the same
    FUZZ_CHECK(r.error == rule::ok && r.written == size);
    FUZZ_CHECK(size == 0 || std::memcmp(got.data(), data, size) == 0);
    if (size > 0) {
        r = guarded_decode(in, size - 1, got);
        FUZZ_CHECK(r.error == rule::trace_compressed_size && r.written == size - 1);
        FUZZ_CHECK(size == 1 || std::memcmp(got.data(), data, size - 1) == 0);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    if (size >= 1 && data[0] == round_trip_marker) mode_round_trip(data + 1, size - 1);
    else if (size >= 2) mode_decode(data, size);
    return 0;
}
