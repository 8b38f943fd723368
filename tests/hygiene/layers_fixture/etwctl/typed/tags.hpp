// Fixture: the typed face's own row.
#pragma once
#include "etwctl/config.hpp"
