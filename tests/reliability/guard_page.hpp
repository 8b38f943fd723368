// A test buffer that ends exactly at an inaccessible page: any read or write past its end faults
// (a fault is a crashed test, so a failure). Linux/POSIX: mmap + mprotect(PROT_NONE); Windows:
// VirtualAlloc + VirtualProtect(PAGE_NOACCESS). Test-only: the library never includes this.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>

#if defined(_WIN32)
#include <windows.h> // test-only; the VirtualAlloc/VirtualProtect pair below
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace etwctl_test {

class guard_page_buffer {
public:
    /// Room for buffers of up to `capacity` bytes in front of the guard page.
    explicit guard_page_buffer(std::size_t capacity) {
        page_ = page_size();
        data_size_ = (capacity + page_ - 1) / page_ * page_;
        if (data_size_ == 0) data_size_ = page_;
#if defined(_WIN32)
        base_ = static_cast<unsigned char*>(VirtualAlloc(nullptr, data_size_ + page_, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
        if (!base_) std::abort();
        DWORD old = 0;
        if (!VirtualProtect(base_ + data_size_, page_, PAGE_NOACCESS, &old)) std::abort();
#else
        void* p = mmap(nullptr, data_size_ + page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) std::abort();
        base_ = static_cast<unsigned char*>(p);
        if (mprotect(base_ + data_size_, page_, PROT_NONE) != 0) std::abort();
#endif
    }
    ~guard_page_buffer() {
#if defined(_WIN32)
        VirtualFree(base_, 0, MEM_RELEASE);
#else
        munmap(base_, data_size_ + page_);
#endif
    }
    guard_page_buffer(guard_page_buffer const&) = delete;
    guard_page_buffer& operator=(guard_page_buffer const&) = delete;

    /// The address of an n-byte buffer whose last byte is the last one before the guard page.
    unsigned char* tail(std::size_t n) noexcept {
        if (n > data_size_) std::abort();
        return base_ + data_size_ - n;
    }
    /// tail(n), filled with `fill`.
    unsigned char* tail_filled(std::size_t n, unsigned char fill) noexcept {
        unsigned char* p = tail(n);
        std::memset(p, fill, n);
        return p;
    }
    std::size_t capacity() const noexcept { return data_size_; }

private:
    static std::size_t page_size() noexcept {
#if defined(_WIN32)
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        return si.dwPageSize;
#else
        return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
#endif
    }
    std::size_t page_ = 4096;
    std::size_t data_size_ = 0;
    unsigned char* base_ = nullptr;
};

} // namespace etwctl_test
