// The twin of trace_unknown_event_name.fail.cpp without the mistake.
// Misuse: a misspelt event name in a trace handler (the names that configure a session select its events
// when they are read). Must not compile, and must name the nearest known name.
#include "etwctl/trace/events.hpp"

int main() {
    auto h = etwctl::trace::on<"SampledProfile">([](etwctl::trace::sampled_profile const&) {});
    (void)h;
}
