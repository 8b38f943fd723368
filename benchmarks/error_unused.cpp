// A translation unit that includes the error header but never asks for an error
// category: benchmarks/check_unused_categories.sh checks that its object file holds no category code
// (no vtable, no message(), no object, no exit-time registration). The categories must cost nothing
// where they are not used.
#include "etwctl/error.hpp"

namespace etwctl_bench {
int unrelated(int x) noexcept { return x * 3 + 1; }
} // namespace etwctl_bench
