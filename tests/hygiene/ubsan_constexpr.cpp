// Every compile-time facility of etwctl, instantiated: the test command compiles this TU (and every
// public header) with g++ -fsanitize=undefined, as users build (issue 21 item 18: g++'s UBSan
// instrumentation made stack_walk<> and kernel_flags<> "not a constant expression").
#include "etwctl/etwctl.hpp"

namespace {
using namespace etwctl;
using namespace etwctl::literals;

constexpr auto hooks = stack_walk<"CSwitch+ReadyThread+SampledProfile+0x0510">;
static_assert(hooks.size() == 4);
constexpr group_mask flags = kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH+mask1:0x00000400+0x20000001">;
static_assert(!flags.empty());
constexpr profile_interval timer = timer_interval<1250>;
static_assert(8_kHz == timer && sampling_rate<4000> == 2500_100ns && (10_Hz).count() == 1000000);
static_assert(timer.count() == 1250);
static_assert((65536_events).count() == 65536 && (1'250_100ns).count() == 1250);
constexpr guid thread_guid = "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"_guid;
static_assert(thread_guid.data1 == 0x3d6fa8d1U);
constexpr auto traits = make_provider_traits("MyProvider");
static_assert(sizeof(traits.bytes) > 0);
constexpr lbr_options lbr = lbr_options::checked<lbr::exclude_kernel>();
static_assert(lbr.records_something());
static_assert(kernel_event_hook("CSwitch").has_value());
static_assert(kernel_event_name(hook_id{0x0524}) == "CSwitch");
static_assert(enabling_flag(hook_id{0x0524}).has_value());
static_assert(classic_event_id_of(hook_id{0x0524}).has_value());
static_assert(hook_id_of(*classic_event_id_of(hook_id{0x0524})) == hook_id{0x0524});
static_assert(perf_flag_by_name("PERF_PROFILE").has_value());
} // namespace

int main() { return static_cast<int>(hooks.size()) - 4; }
