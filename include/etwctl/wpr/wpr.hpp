// SPDX-License-Identifier: MIT
// etwctl/wpr/wpr.hpp - Windows Performance Recorder profiles (.wprp) in one include: read (pugixml),
// check against WPR's schema, resolve inheritance, lower to a plan, and compare a plan with running
// sessions. OPT-IN (not in etwctl/etwctl.hpp) and ALLOCATING, unlike the rest of etwctl; needs pugixml
// (CMake: target_link_libraries(my_tool PRIVATE etwctl::wpr)).
//
//   wpr::load_result r = wpr::load_plan({"CPU.wprp", text}, {}, {.profile = "CPU-Dispatch", .mode = wpr::logging_mode::file});
//   for (auto const& f : r.findings) std::fprintf(stderr, "%s\n", wpr::format(f).c_str());
//   if (!r.plan) return 1;
//   wpr::file_check all = wpr::load_plans({"CPU.wprp", text}, {});      // every Profile of the file
//   for (auto const& p : all.profiles) if (!p.ok()) std::fprintf(stderr, "%s cannot be applied\n", p.profile.id.c_str());
//
// The pieces: plan.hpp (the plan and findings), document.hpp (the element tree), read.hpp (pugixml ->
// tree), schema.hpp + validate.hpp (the schema's rules), resolve.hpp (Base= and Operation), profiles.hpp
// (lowering), check.hpp (a plan against a running session).
// apply.hpp (a plan started through the session API; a profile's sessions found, stopped, cancelled).
#pragma once

#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/wpr/apply.hpp"
#include "etwctl/wpr/check.hpp"
#include "etwctl/wpr/document.hpp"
#include "etwctl/wpr/plan.hpp"
#include "etwctl/wpr/profiles.hpp"
#include "etwctl/wpr/read.hpp"
#include "etwctl/wpr/resolve.hpp"
#include "etwctl/wpr/validate.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

/// A .wprp's name (for messages) and its text.
struct source_file {
    std::string name;
    std::string text;
};

/// Reads, checks and lowers: main is the profile's file, bases the files that define what its Base= and
/// references name (built-in profiles exported with wpr -exportprofile, shared collector files).
[[nodiscard]] inline load_result load_plan(source_file const& main, std::vector<source_file> const& bases,
                                           profile_request const& request) {
    std::vector<document> docs;
    docs.push_back(read_document(main.text, main.name));
    for (auto const& b : bases) docs.push_back(read_document(b.text, b.name));
    return make_plan(std::move(docs), request);
}

/// Reads, checks and lowers every Profile of `main` (wpr -check FILE without !Profile): the files'
/// findings once, then each profile with its plan or its own errors (profiles.hpp make_plans).
[[nodiscard]] inline file_check load_plans(source_file const& main, std::vector<source_file> const& bases,
                                           std::string const& session_prefix = profile_request{}.session_prefix) {
    std::vector<document> docs;
    docs.push_back(read_document(main.text, main.name));
    for (auto const& b : bases) docs.push_back(read_document(b.text, b.name));
    return make_plans(std::move(docs), session_prefix);
}

/// A file's bytes, or nullopt when it cannot be read.
[[nodiscard]] inline std::optional<std::string> read_text_file(std::string const& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return text;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
