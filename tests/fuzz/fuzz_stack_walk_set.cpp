// Fuzz harness: stack_walk_set (profiler/stack_walk_set.hpp) against a std::set model. A byte stream
// drives a sequence of operations on two sets (capacities 8 and 256, so overflow is frequent in one)
// - add one id, add a span (ids from the input, the set's own span or part of it, the other set),
// merge, remove one id, remove a span (again possibly aliasing the set itself), remove(set), unite,
// clear - and after each the set must equal the model: sorted, distinct, the same members; a growing
// operation that would exceed the capacity returns stack_walk_overflow and changes nothing.
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "fuzz_support.hpp"

#include "etwctl/profiler/stack_walk_set.hpp"

using namespace etwctl;

namespace {

using model = std::set<std::uint16_t>;

template <std::size_t C>
void check_equal(stack_walk_set<C> const& s, model const& m) {
    FUZZ_CHECK(s.size() == m.size());
    FUZZ_CHECK(s.size() <= C);
    std::size_t i = 0;
    for (std::uint16_t v : m) FUZZ_CHECK(s[i++].value == v);
    for (std::size_t j = 1; j < s.size(); ++j) FUZZ_CHECK(s[j - 1].value < s[j].value);
}

std::vector<hook_id> ids_from(FuzzedDataProvider& in, bool narrow) {
    std::size_t const n = in.ConsumeIntegralInRange<std::size_t>(0, 300);
    std::vector<hook_id> v;
    v.reserve(n);
    for (std::size_t i = 0; i < n && in.remaining_bytes() > 0; ++i)
        v.push_back(hook_id{narrow ? static_cast<std::uint16_t>(in.ConsumeIntegralInRange<std::uint16_t>(0, 15))
                                   : in.ConsumeIntegral<std::uint16_t>()});
    return v;
}

/// Adds span to (s, m) as the set would: all or nothing.
template <std::size_t C>
void add_span(stack_walk_set<C>& s, model& m, std::span<hook_id const> span) {
    model next = m;
    for (hook_id h : span) next.insert(h.value);
    rule const r = s.add(span); // span may point into s
    if (next.size() > C) {
        FUZZ_CHECK(r == rule::stack_walk_overflow);
    } else {
        FUZZ_CHECK(r == rule::ok);
        m = next;
    }
}
template <std::size_t C>
void remove_span(stack_walk_set<C>& s, model& m, std::span<hook_id const> span) {
    model next = m;
    for (hook_id h : span) next.erase(h.value);
    std::size_t const removed = s.remove(span); // span may point into s
    FUZZ_CHECK(removed == m.size() - next.size());
    m = next;
}

template <std::size_t C, std::size_t D>
void step(FuzzedDataProvider& in, stack_walk_set<C>& s, model& m, stack_walk_set<D>& other, model& om) {
    bool const narrow = in.ConsumeBool(); // small ids: many repeats and hits
    switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: {
        hook_id const h{narrow ? in.ConsumeIntegralInRange<std::uint16_t>(0, 15) : in.ConsumeIntegral<std::uint16_t>()};
        hook_id const one[] = {h};
        add_span(s, m, one); // same expectations as add(h)
        break;
    }
    case 1: {
        auto const v = ids_from(in, narrow);
        add_span(s, m, v);
        break;
    }
    case 2: {
        auto const before = m;
        FUZZ_CHECK(s.add(s.span()) == rule::ok); // identity, even when full
        FUZZ_CHECK(s.merge(s) == rule::ok);
        FUZZ_CHECK(m == before);
        break;
    }
    case 3: {
        std::size_t const off = in.ConsumeIntegralInRange<std::size_t>(0, s.size());
        std::size_t const len = in.ConsumeIntegralInRange<std::size_t>(0, s.size() - off);
        remove_span(s, m, s.span().subspan(off, len));
        break;
    }
    case 4: remove_span(s, m, s.span()); FUZZ_CHECK(s.empty()); break;
    case 5: {
        stack_walk_set<C> const& alias = s;
        remove_span(s, m, alias.span());
        break;
    }
    case 6: {
        auto const v = ids_from(in, narrow);
        remove_span(s, m, v);
        break;
    }
    case 7: {
        hook_id const h{narrow ? in.ConsumeIntegralInRange<std::uint16_t>(0, 15) : in.ConsumeIntegral<std::uint16_t>()};
        bool const was = m.erase(h.value) != 0;
        FUZZ_CHECK(s.remove(h) == was);
        break;
    }
    case 8: add_span(s, m, other.span()); break; // merge(other)
    case 9: remove_span(s, m, other.span()); break; // remove(other)
    case 10: {
        rule r = rule::ok;
        auto const u = unite(s, other, &r);
        model both = m;
        both.insert(om.begin(), om.end());
        if (both.size() > (C > D ? C : D)) {
            FUZZ_CHECK(r == rule::stack_walk_overflow);
            FUZZ_CHECK(u.empty());
        } else {
            FUZZ_CHECK(r == rule::ok);
            check_equal(u, both);
        }
        auto const self = unite(s, s, &r);
        FUZZ_CHECK(r == rule::ok);
        check_equal(self, m);
        break;
    }
    default:
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
            s.clear();
            m.clear();
        }
        break;
    }
    check_equal(s, m);
    for (std::uint16_t v : m) FUZZ_CHECK(s.contains(hook_id{v}));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    stack_walk_set<8> small_set;
    stack_walk_set<> big_set;
    model small_model, big_model;
    while (in.remaining_bytes() > 0) {
        if (in.ConsumeBool()) step(in, small_set, small_model, big_set, big_model);
        else step(in, big_set, big_model, small_set, small_model);
    }
    return 0;
}
