// The bytes of a trace file for `etwctl trace`: memory-mapped on POSIX (a trace of gigabytes is not
// copied), read into memory on Windows (plain C stdio, so the mingw build needs no <windows.h>); and the
// progress line on stderr while a large file is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace etwctl_tool {

/// A whole file's bytes, read-only, for as long as the object lives.
class file_bytes {
public:
    file_bytes() = default;
    file_bytes(file_bytes const&) = delete;
    file_bytes& operator=(file_bytes const&) = delete;
    file_bytes(file_bytes&& other) noexcept;
    file_bytes& operator=(file_bytes&& other) noexcept;
    ~file_bytes();

    /// Opens and maps (or reads) `path`. On failure `ec` holds the Win32 code that says what went wrong
    /// (ERROR_FILE_NOT_FOUND, ERROR_ACCESS_DENIED, ...) and `why` the system's words for it.
    static bool open(std::string const& path, file_bytes& out, std::error_code& ec, std::string& why);

    std::span<std::byte const> bytes() const noexcept { return {data_, size_}; }

private:
    void release() noexcept;
    std::byte const* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;             // POSIX: data_ is an mmap of size_ bytes
    std::vector<std::byte> storage_;  // otherwise the bytes live here
};

/// "etwctl: trace: reading 42%" on stderr, rewritten in place, when stderr is a terminal and the file is
/// large enough for the wait to be noticed; nothing otherwise (pipes, files, tests).
class progress_line {
public:
    progress_line(std::uint64_t file_size, std::string what);
    progress_line(progress_line const&) = delete;
    progress_line& operator=(progress_line const&) = delete;
    ~progress_line();
    /// The reader is at `offset` of the file (a buffer's offset: the merge visits buffers out of file
    /// order, so the percentage shown is the furthest offset seen).
    void at(std::uint64_t offset) {
        if (!enabled_ || ++calls_ % 4096 != 0) return;
        show(offset);
    }
    /// Clears the line (also done by the destructor).
    void done();

private:
    void show(std::uint64_t offset);
    std::uint64_t size_ = 0, furthest_ = 0;
    std::uint64_t calls_ = 0;
    std::string what_;
    int shown_ = -1;
    bool enabled_ = false;
};

/// Whether stderr is a terminal (isatty / _isatty).
bool stderr_is_terminal();

} // namespace etwctl_tool
