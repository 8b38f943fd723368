// SPDX-License-Identifier: MIT
// etwctl/trace.hpp - reading what a session records: .etl files and ETW buffers, on any OS, typed by the
// same tables that configure the session. Opt-in (not in etwctl.hpp): a controller does not pay for it.
//
//   trace/format.hpp         buffers, every record header kind, extended data items (views, checked)
//   trace/lz77.hpp           the Plain LZ77 decompressor of compressed buffers
//   trace/kernel_events.hpp  typed views of the kernel's payloads (trace::layout)
//   trace/tracelogging.hpp   TraceLogging events decoded from their own metadata
//   trace/reader.hpp         trace_file, reader (time order across processors, lost data, faults)
//   trace/events.hpp         event_stream (stacks attached), stack_cache, on<"Name"> handlers, dispatch
//   trace/consume.hpp        a live session consumed through the same handlers (OpenTrace / ProcessTrace)
#pragma once

#include "etwctl/trace/consume.hpp"
#include "etwctl/trace/events.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/kernel_events.hpp"
#include "etwctl/trace/lz77.hpp"
#include "etwctl/trace/reader.hpp"
#include "etwctl/trace/text.hpp"
#include "etwctl/trace/tracelogging.hpp"
