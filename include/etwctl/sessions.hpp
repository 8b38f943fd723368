// etwctl/sessions.hpp - the typed session API: configure, start, attach to, list, query, update, flush and
// stop ETW sessions, enable providers on them, system loggers and orphans (session/*.hpp). Light: no
// <string>, <vector>, <map> or iostreams; no heap.
#pragma once

#include "etwctl/session/provider_name.hpp"
