// A trace::stack_cache with its storage, built in the two passes the library asks of its caller: a census
// of what the trace holds (stack_cache::needs), storage of that size, then every record added in the
// reader's order. For the tests that resolve stack-cache keys.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "etwctl/trace.hpp"

namespace etwctl_test {

struct owned_stack_cache {
    std::vector<etwctl::trace::stack_cache::definition> definitions;
    std::vector<etwctl::trace::stack_cache::reference> references;
    std::vector<std::byte> frames;
    etwctl::trace::stack_cache cache;
};

/// Fills `out` from the trace `f`; `reader_storage` (reader::storage_size(f) bytes) is the readers' scratch.
inline void build_stack_cache(etwctl::trace::trace_file const& f, std::span<std::byte> reader_storage, owned_stack_cache& out) {
    namespace tr = etwctl::trace;
    tr::stack_cache::needs needs;
    {
        tr::reader r(f, reader_storage);
        tr::event_ref e;
        while (r.next(e)) needs.census(e.rec);
    }
    out.definitions.resize(needs.definitions);
    out.references.resize(needs.references);
    out.frames.resize(needs.frame_bytes);
    out.cache = tr::stack_cache(out.definitions, out.references, out.frames);
    tr::reader r(f, reader_storage);
    tr::event_ref e;
    while (r.next(e)) out.cache.add(e);
    out.cache.finish();
}

} // namespace etwctl_test
