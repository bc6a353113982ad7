// Replacement global operator new/delete for the component (the C++ standard
// lets a program supply its own).
//
// Why: libc++abi's operator new reports an allocation failure through
// abort_message(), which prints with fprintf(stderr); linking that pulls in
// wasi-libc's stdio, i.e. preview1 imports (fd_write, fd_seek, fd_close), and
// the component must import nothing but WASI 0.2.0. Ours traps instead: with
// -fno-exceptions there is nobody to catch a bad_alloc anyway.
#include <cstddef>
#include <cstdlib>
#include <new>

#include "common/timing/clock.hpp"

namespace {
[[noreturn]] void out_of_memory() {
    bx::log_line("bitexact: out of memory");
    __builtin_trap();
}

void* allocate(std::size_t size) {
    void* p = std::malloc(size == 0 ? 1 : size);
    if (p == nullptr) out_of_memory();
    return p;
}

void* allocate_aligned(std::size_t size, std::align_val_t align) {
    const std::size_t a = static_cast<std::size_t>(align);
    void* p = std::aligned_alloc(a, (size + a - 1) / a * a);
    if (p == nullptr) out_of_memory();
    return p;
}
}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new(std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }
void* operator new[](std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
