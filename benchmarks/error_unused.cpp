// A translation unit that includes every public header (the umbrella) but never asks for an error
// category: benchmarks/check_unused_categories.sh checks that its object file holds no category code
// (no vtable, no message(), no object, no exit-time registration) and no code at all from etwctl. The
// categories must cost nothing where they are not used: a non-template inline function that names one
// (a cold helper, a struct's default member initializer) would instantiate it in every TU.
#include "etwctl/etwctl.hpp"

namespace etwctl_bench {
int unrelated(int x) noexcept { return x * 3 + 1; }
} // namespace etwctl_bench
