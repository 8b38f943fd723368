// The Windows tests' layout assertions: an etwctl type against the SDK's (size, alignment, trivially
// copyable) and a field's offset against the SDK field's.
#pragma once

#include <cstddef>
#include <type_traits>

#define ETWCTL_SAME_LAYOUT(sdk, ours)                                                                   \
    static_assert(sizeof(sdk) == sizeof(ours), "size of " #ours " differs from " #sdk);               \
    static_assert(alignof(sdk) == alignof(ours), "alignment of " #ours " differs from " #sdk);        \
    static_assert(std::is_trivially_copyable_v<ours>, #ours " must be trivially copyable")
#define ETWCTL_SAME_OFFSET(sdk, sdk_field, ours, our_field)                                            \
    static_assert(offsetof(sdk, sdk_field) == offsetof(ours, our_field),                               \
                  "offset of " #ours "::" #our_field " differs from " #sdk "::" #sdk_field)
