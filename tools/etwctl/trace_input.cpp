#include "trace_input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <utility>

#include "etwctl/error.hpp"
#include "etwctl/status_codes.hpp"

#if defined(_WIN32)
#include <io.h> // _isatty, _fileno
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace etwctl_tool {

namespace {
/// The Win32 code for an errno value from opening or reading a file (the tool reports Win32 codes).
std::error_code win32_of_errno(int e) {
    switch (e) {
    case ENOENT:
    case ENOTDIR: return etwctl::win32_error_code(etwctl::win32::file_not_found);
    case EACCES:
    case EPERM:
    case EISDIR: return etwctl::win32_error_code(etwctl::win32::access_denied);
    case ENOMEM: return etwctl::win32_error_code(etwctl::win32::not_enough_memory);
    default: return etwctl::win32_error_code(etwctl::win32::gen_failure);
    }
}
} // namespace

file_bytes::file_bytes(file_bytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)), storage_(std::move(other.storage_)) {
    if (!mapped_ && !storage_.empty()) data_ = storage_.data();
}

file_bytes& file_bytes::operator=(file_bytes&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, false);
        storage_ = std::move(other.storage_);
        if (!mapped_ && !storage_.empty()) data_ = storage_.data();
    }
    return *this;
}

file_bytes::~file_bytes() { release(); }

void file_bytes::release() noexcept {
#if !defined(_WIN32)
    if (mapped_) ::munmap(const_cast<std::byte*>(data_), size_);
#endif
    data_ = nullptr;
    size_ = 0;
    mapped_ = false;
    storage_.clear();
}

bool file_bytes::open(std::string const& path, file_bytes& out, std::error_code& ec, std::string& why) {
    out.release();
#if defined(_WIN32)
    // Read whole: C stdio (errno says why it failed), in 1 MiB steps (no 32-bit ftell on large files).
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        int const e = errno;
        ec = win32_of_errno(e);
        why = std::strerror(e);
        return false;
    }
    std::vector<std::byte> data;
    constexpr std::size_t step = std::size_t{1} << 20;
    for (;;) {
        std::size_t const at = data.size();
        data.resize(at + step);
        std::size_t const n = std::fread(data.data() + at, 1, step, f);
        data.resize(at + n);
        if (n < step) break;
    }
    bool const failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) {
        ec = etwctl::win32_error_code(etwctl::win32::gen_failure);
        why = "read error";
        return false;
    }
    out.storage_ = std::move(data);
    out.data_ = out.storage_.data();
    out.size_ = out.storage_.size();
    return true;
#else
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int const e = errno;
        ec = win32_of_errno(e);
        why = std::strerror(e);
        return false;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int const e = S_ISDIR(st.st_mode) ? EISDIR : errno != 0 ? errno : EINVAL;
        ::close(fd);
        ec = win32_of_errno(e);
        why = S_ISDIR(st.st_mode) ? "is a directory" : S_ISREG(st.st_mode) ? std::strerror(e) : "not a regular file";
        return false;
    }
    auto const size = static_cast<std::size_t>(st.st_size);
    if (size == 0) { // mmap refuses 0 bytes; an empty file is read as what it is
        ::close(fd);
        return true;
    }
    void* const p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    int const e = errno;
    ::close(fd); // the mapping keeps the file
    if (p == MAP_FAILED) {
        ec = win32_of_errno(e);
        why = std::strerror(e);
        return false;
    }
    out.data_ = static_cast<std::byte const*>(p);
    out.size_ = size;
    out.mapped_ = true;
    return true;
#endif
}

bool stderr_is_terminal() {
#if defined(_WIN32)
    return _isatty(_fileno(stderr)) != 0;
#else
    return ::isatty(STDERR_FILENO) != 0;
#endif
}

progress_line::progress_line(std::uint64_t file_size, std::string what) : size_(file_size), what_(std::move(what)) {
    constexpr std::uint64_t large = std::uint64_t{64} << 20; // below this a pass takes well under a second
    enabled_ = file_size >= large && stderr_is_terminal();
}

progress_line::~progress_line() { done(); }

void progress_line::show(std::uint64_t offset) {
    if (offset > furthest_) furthest_ = offset;
    int const percent = size_ == 0 ? 100 : static_cast<int>(furthest_ * 100 / size_);
    if (percent == shown_) return;
    shown_ = percent;
    std::cerr << "\retwctl: trace: " << what_ << " " << percent << "%" << std::flush;
}

void progress_line::done() {
    if (!enabled_ || shown_ < 0) return;
    std::cerr << "\r" << std::string(what_.size() + 24, ' ') << "\r" << std::flush;
    shown_ = -1;
}

} // namespace etwctl_tool
