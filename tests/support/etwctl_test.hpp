// Common include for etwctl's doctest tests: doctest, the library, and printers so failed checks
// show values (error codes with their category and message).
#pragma once

#include <ostream>
#include <string>
#include <system_error>

#include <doctest/doctest.h>

#include "etwctl/etwctl.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/compat_current.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/session/compat.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/testing/sim_kernel.hpp"

namespace etwctl_test {
/// A wide name as a std::u16string, for comparisons doctest can print.
inline std::u16string u16(etwctl::wide_string_view v) { return {v.begin(), v.end()}; }
} // namespace etwctl_test

namespace doctest {
template <>
struct StringMaker<std::error_code> {
    static String convert(std::error_code const& ec) {
        return (std::string(ec.category().name()) + ":" + std::to_string(ec.value()) + " (" + ec.message() + ")").c_str();
    }
};
} // namespace doctest
