// Helpers of the WPR profile tests: load a test profile or an inline text, pick findings, and locate a
// text's line so that expected positions follow the text instead of being counted by hand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/wpr/wpr.hpp"

#ifndef ETWCTL_WPR_DATA // set by tests/wpr/CMakeLists.txt; the compile-only hygiene checks do not set it
#define ETWCTL_WPR_DATA "tests/wpr/data"
#endif

namespace wpr_test {
namespace wpr = etwctl::wpr;

inline std::string data_text(std::string const& name) {
    auto const t = wpr::read_text_file(std::string(ETWCTL_WPR_DATA) + "/" + name);
    REQUIRE_MESSAGE(t.has_value(), "cannot read test profile ", name);
    return *t;
}

inline wpr::profile_request request(std::string profile, wpr::logging_mode mode = wpr::logging_mode::memory,
                                    std::optional<wpr::detail_level> level = std::nullopt) {
    wpr::profile_request r;
    r.profile = std::move(profile);
    r.mode = mode;
    r.level = level;
    return r;
}

/// A test profile from data/, with base files from data/.
inline wpr::load_result load_data(std::string const& name, wpr::profile_request const& r, std::vector<std::string> const& bases = {}) {
    std::vector<wpr::source_file> b;
    for (auto const& n : bases) b.push_back({n, data_text(n)});
    return wpr::load_plan({name, data_text(name)}, b, r);
}

/// An inline profile text (named "test.wprp"), with inline base texts ("base1.wprp", ...).
inline wpr::load_result load_text(std::string const& text, wpr::profile_request const& r, std::vector<std::string> const& bases = {}) {
    std::vector<wpr::source_file> b;
    for (std::size_t i = 0; i < bases.size(); ++i) b.push_back({"base" + std::to_string(i + 1) + ".wprp", bases[i]});
    return wpr::load_plan({"test.wprp", text}, b, r);
}

/// <WindowsPerformanceRecorder Version="1"><Profiles> body </Profiles></WindowsPerformanceRecorder>
inline std::string wprp(std::string const& body) {
    return "<?xml version=\"1.0\"?>\n<WindowsPerformanceRecorder Version=\"1\">\n<Profiles>\n" + body +
           "</Profiles>\n</WindowsPerformanceRecorder>\n";
}

inline std::vector<wpr::finding> of(std::vector<wpr::finding> const& findings, wpr::check c) {
    std::vector<wpr::finding> v;
    for (auto const& f : findings)
        if (f.what == c) v.push_back(f);
    return v;
}
inline std::size_t count(std::vector<wpr::finding> const& findings, wpr::severity s) {
    std::size_t n = 0;
    for (auto const& f : findings) n += f.level == s ? 1 : 0;
    return n;
}
inline std::string all(std::vector<wpr::finding> const& findings) {
    std::string s;
    for (auto const& f : findings) s += wpr::format(f) + "\n";
    return s;
}

/// The 1-based line of the first occurrence of needle in text (0 if absent).
inline std::uint32_t line_of(std::string_view text, std::string_view needle) {
    auto const at = text.find(needle);
    if (at == std::string_view::npos) return 0;
    std::uint32_t line = 1;
    for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n' ? 1U : 0U;
    return line;
}
/// The 1-based column of the first occurrence of needle in its line.
inline std::uint32_t column_of(std::string_view text, std::string_view needle) {
    auto const at = text.find(needle);
    if (at == std::string_view::npos) return 0;
    auto const start = text.rfind('\n', at);
    return static_cast<std::uint32_t>(at - (start == std::string_view::npos ? 0 : start + 1) + 1);
}

inline bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

inline std::vector<std::uint16_t> hooks(std::vector<wpr::named_hook> const& v) {
    std::vector<std::uint16_t> h;
    for (auto const& n : v) h.push_back(n.hook.value);
    return h;
}

} // namespace wpr_test
