// The committed real traces (tests/trace/data, with their licence), read whole for the tests.
#pragma once

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace etwctl_test {

/// The bytes of tests/trace/data/<name>, or empty if the file cannot be read.
inline std::vector<std::byte> read_trace_data(std::string const& name) {
    std::ifstream in(std::string(ETWCTL_TRACE_DATA) + "/" + name, std::ios::binary);
    if (!in) return {};
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(chars.size());
    for (std::size_t i = 0; i < chars.size(); ++i) out[i] = static_cast<std::byte>(chars[i]);
    return out;
}

/// The text of tests/trace/data/<name>.
inline std::string read_text_data(std::string const& name) {
    std::ifstream in(std::string(ETWCTL_TRACE_DATA) + "/" + name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace etwctl_test
