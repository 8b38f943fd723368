// Caller storage of 4 GiB or more: sizes stay std::size_t through the typed layer and reach the kernel
// as the largest ULONG, so a buffer that is large enough is never called too small (it used to be
// truncated to its size modulo 2^32). The memory is reserved, not committed: only the pages the
// (simulated) kernel writes are ever touched.
#include "sim_fixture.hpp"

#if !defined(_WIN32)
#include <sys/mman.h>

using namespace etwctl;
using namespace etwctl_test;

namespace {
struct reserved {
    std::size_t size;
    void* p;
    explicit reserved(std::size_t n)
        : size(n), p(mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)) {}
    ~reserved() {
        if (p != MAP_FAILED) munmap(p, size);
    }
    reserved(reserved const&) = delete;
    reserved& operator=(reserved const&) = delete;
};
constexpr std::size_t four_gib = std::size_t{1} << 32;
} // namespace

TEST_CASE("query<profile_source_list> into storage of 4 GiB + 64 bytes is not 'too small'") {
    reserved mem(four_gib + 64);
    if (mem.p == MAP_FAILED) {
        MESSAGE("cannot reserve 4 GiB here; skipped");
        return;
    }
    machine m;
    std::uint32_t required = 0;
    auto const sources = query<profile_source_list>(m.k, std::span<std::byte>(static_cast<std::byte*>(mem.p), mem.size),
                                                    &required);
    REQUIRE(sources.has_value());
    CHECK(sources->size() > 1);
    profile_source_entry timer;
    CHECK(sources->find(0, timer));
}

TEST_CASE("query<disallow_list_query> into 4 GiB + 4 GUIDs of storage") {
    reserved mem(four_gib + 64);
    if (mem.p == MAP_FAILED) {
        MESSAGE("cannot reserve 4 GiB here; skipped");
        return;
    }
    machine m;
    guid const g[] = {guid::from_string("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c")};
    REQUIRE_FALSE(set<disallow_list>(m.k, m.kernel_session, g));
    auto const got = query<disallow_list_query>(m.k, m.kernel_session,
                                                std::span<guid>(static_cast<guid*>(mem.p), four_gib / sizeof(guid))); // 2^32 bytes: 0 as a ULONG
    REQUIRE(got.has_value());
    REQUIRE(got->size() == 1);
    CHECK((*got)[0] == g[0]);
}
#endif // POSIX: Windows builds reserve differently and run the rest of the suite
