// etwctl/kernel_events.hpp - moved to etwctl/names/events.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/names/events.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/names/events.hpp"
