// The allocator the host uses to hand us strings and lists (canonical ABI).
//
// Always exported: besides the HTTP imports needing it, a 2022 wasi-libc
// module without it can crash under the preview1 adapter (toolchain notes).
// Built on realloc so that what the host allocates, our code frees with free().
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" __attribute__((export_name("cabi_realloc")))
void* cabi_realloc(void* old_ptr, std::size_t old_size, std::size_t align, std::size_t new_size) {
    // Zero bytes (an empty string or list) still get a real allocation: we
    // free() everything the host hands us, and free() must only ever see
    // pointers that malloc made. (The common trick of returning `align` here
    // would crash free() on the first empty header value.)
    if (new_size == 0) new_size = 1;
    if (align <= alignof(std::max_align_t)) {
        void* p = std::realloc(old_ptr, new_size);
        if (p == nullptr) __builtin_trap();  // the host cannot handle failure
        return p;
    }
    // Over-aligned requests (none in WASI 0.2.0 today): allocate, copy, free.
    void* p = std::aligned_alloc(align, (new_size + align - 1) / align * align);
    if (p == nullptr) __builtin_trap();
    if (old_ptr != nullptr) {
        std::memcpy(p, old_ptr, old_size < new_size ? old_size : new_size);
        std::free(old_ptr);
    }
    return p;
}
