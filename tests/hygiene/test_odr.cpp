// Two TUs with the umbrella header in one program: entities with one definition are one object.
#include "etwctl_test.hpp"
#include "odr.hpp"

TEST_CASE("the umbrella header in two TUs: shared inline entities, both TUs work on one kernel") {
    etwctl::sim::kernel k;
    std::uint64_t const session = k.start_logger(0x23);
    odr_report const a = odr_report_a(k, session);
    CHECK(k.group_masks(0x23).masks[0] == 0x10U);
    odr_report const b = odr_report_b(k, session);
    CHECK(k.group_masks(0x23).masks[0] == 0x20U);

    CHECK(a.info_class_table == b.info_class_table);
    CHECK(a.info_class_table == &etwctl::trace_info_class_table[0]);
    CHECK(a.rules == b.rules);
    CHECK(a.rules == &etwctl::rule_category());
    CHECK(a.nt == b.nt);
    CHECK(a.native == b.native);
#if defined(_WIN32)
    CHECK(a.native != nullptr);
#endif
    CHECK(a.set_result == 0);
    CHECK(b.set_result == 0);
    // Error codes made in one TU compare equal to those made in another (same category object).
    CHECK(etwctl::make_error_code(etwctl::rule::stack_tracing_size).category() == *b.rules);
}
