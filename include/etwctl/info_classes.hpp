// etwctl/info_classes.hpp - moved to etwctl/classes/info_classes.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/classes/info_classes.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/classes/info_classes.hpp"
