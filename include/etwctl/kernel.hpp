// etwctl/kernel.hpp - the kernel concept: the six calls etwctl makes (kernel/concept.hpp has it;
// kernel/native.hpp the Windows kernel, testing/ the simulated ones). A stable entry point.
#pragma once

#include "etwctl/kernel/concept.hpp"
