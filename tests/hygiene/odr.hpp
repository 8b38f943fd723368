// What each of the two umbrella TUs reports, so the test can compare them.
#pragma once

#include <cstdint>
#include <system_error>

#include "etwctl/testing/sim_kernel.hpp"

struct odr_report {
    void const* info_class_table;     // inline variable: one object in the program
    std::error_category const* rules; // function-local static in an inline function: one object
    std::error_category const* nt;
    void const* native;               // native_kernel::instance() on Windows, else nullptr
    std::uint32_t set_result;         // a typed call made from this TU
};

odr_report odr_report_a(etwctl::sim::kernel& k, std::uint64_t session);
odr_report odr_report_b(etwctl::sim::kernel& k, std::uint64_t session);
