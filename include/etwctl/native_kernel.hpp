// etwctl/native_kernel.hpp - etwctl::native_kernel, the kernel on Windows (kernel/native.hpp). On other
// platforms this header declares nothing; use etwctl::sim::kernel (etwctl/testing/sim_kernel.hpp).
#pragma once

#include "etwctl/kernel/native.hpp"
