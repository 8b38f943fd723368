// Issue 35.9: every error category lives in error.hpp (session_loss_category among them), and a failure
// with its context is made through the public API (record_failure), never etwctl::detail::fail: this TU
// includes error.hpp alone (no unity batch: tests/sessions/CMakeLists.txt), so it compiles only if both
// are there.
#include <ostream>
#include <string>
#include <system_error>

#include <doctest/doctest.h>

#include "etwctl/error.hpp"

TEST_CASE("error home: session_loss_category is an error category of error.hpp") {
    std::error_code const ec = etwctl::session_loss::log_buffers_lost;
    CHECK(ec.category() == etwctl::session_loss_category());
    CHECK(std::string(ec.category().name()) == "etwctl.session_loss");
    CHECK(ec == etwctl::session_condition::events_lost); // every loss compares equal to the condition
    CHECK(std::error_code(etwctl::session_loss::real_time_buffers_lost) == etwctl::session_condition::events_lost);
    CHECK(ec != etwctl::make_error_code(etwctl::rule::ok));
}

TEST_CASE("error home: a caller's failure with its context, through the public API") {
    std::error_code const ec = etwctl::record_failure(etwctl::make_error_code(etwctl::rule::parse_unknown_name),
                                                      "provider '{name}': not registered ({value} looked up)", "Foo", 3);
    CHECK(ec == etwctl::rule::parse_unknown_name);
    CHECK(etwctl::describe(ec) == "provider 'Foo': not registered (3 looked up)");
    REQUIRE(etwctl::explain(ec) != nullptr);
    CHECK(etwctl::explain(ec)->name == "Foo");
}
