// expect: etwctl::trace::on: unknown event name
// expect-gcc: name<etwctl::fixed_string<14>{"SampledProfle"}>, etwctl::diagnostic::did_you_mean<etwctl::fixed_string<15>{"SampledProfile"}>
// expect-clang: name<'S', 'a', 'm', 'p', 'l', 'e', 'd', 'P', 'r', 'o', 'f', 'l', 'e'>, etwctl::diagnostic::did_you_mean<'S', 'a', 'm', 'p', 'l', 'e', 'd', 'P', 'r', 'o', 'f', 'i', 'l', 'e'>
// Misuse: a misspelt event name in a trace handler (the names that configure a session select its events
// when they are read). Must not compile, and must name the nearest known name.
#include "etwctl/trace/events.hpp"

int main() {
    auto h = etwctl::trace::on<"SampledProfle">([](etwctl::trace::sampled_profile const&) {});
    (void)h;
}
