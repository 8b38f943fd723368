// SPDX-License-Identifier: MIT
// etwctl/detail/bytes.hpp - reading and writing a value at a byte offset of caller memory, with no
// alignment or aliasing assumptions (memcpy). The one home of detail::load / detail::store.
#pragma once

#include <cstddef>
#include <cstring>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace detail {

/// Loads a T from possibly unaligned caller memory (no aliasing or alignment assumptions).
template <class T>
T load(void const* p, std::size_t offset = 0) noexcept {
    T v;
    std::memcpy(&v, static_cast<unsigned char const*>(p) + offset, sizeof(T));
    return v;
}
template <class T>
void store(void* p, std::size_t offset, T const& v) noexcept {
    std::memcpy(static_cast<unsigned char*>(p) + offset, &v, sizeof(T));
}

} // namespace detail
ETWCTL_END_NAMESPACE
