// A lower layer (names, rank 5) including a higher one (the typed face, rank 8): must fail.
#pragma once
#include "etwctl/typed/set.hpp"
#include "etwctl/config.hpp"
