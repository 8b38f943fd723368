// Issue 35.9: the umbrella gives the same API on every platform: the drop-in face (compat.hpp) is opt-in
// everywhere, so this TU, which includes the umbrella alone, sees compat's types declared by nobody (on
// Windows default_kernel.hpp used to pull compat.hpp in). No unity batch (tests/sessions/CMakeLists.txt).
#include <type_traits>

#include <doctest/doctest.h>

#include "etwctl/etwctl.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace compat {
struct info_class_arg; // declared here, complete only if compat.hpp was included
}
ETWCTL_END_NAMESPACE

namespace {
template <class T, class = void>
struct is_complete : std::false_type {};
template <class T>
struct is_complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
} // namespace

static_assert(!is_complete<etwctl::compat::info_class_arg>::value,
              "the umbrella includes etwctl/compat.hpp on this platform: compat must be opt-in everywhere");

TEST_CASE("umbrella: the same API on every platform (compat.hpp is opt-in)") {
    CHECK_FALSE(is_complete<etwctl::compat::info_class_arg>::value);
}
