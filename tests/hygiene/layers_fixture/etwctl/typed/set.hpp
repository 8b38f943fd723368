// A face including another face of the same rank: must fail.
#pragma once
#include "etwctl/compat.hpp"
#include "etwctl/typed/tags.hpp"
