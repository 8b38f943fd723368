// etwctl/detail/windows_kernel.hpp - moved to etwctl/kernel/native.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/kernel/native.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/kernel/native.hpp"
