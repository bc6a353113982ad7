#include "common/harness/files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace bx::harness {

bool read_file(const std::string& path, std::string& out, std::string* error) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        if (error) *error = path + ": " + std::strerror(errno);
        return false;
    }
    out.clear();
    // Read in heap-sized steps: a wasm module's whole stack is 64 KiB by default.
    std::size_t n;
    for (;;) {
        const std::size_t had = out.size();
        out.resize(had + (1u << 20));
        n = std::fread(out.data() + had, 1, 1u << 20, f);
        out.resize(had + n);
        if (n == 0) break;
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed && error) *error = path + ": read error";
    return !failed;
}

bool write_file(const std::string& path, std::string_view bytes, std::string* error) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
        if (error) *error = path + ": " + std::strerror(errno);
        return false;
    }
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const bool closed = std::fclose(f) == 0;
    if (!(ok && closed) && error) *error = path + ": write error";
    return ok && closed;
}

bool file_exists(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return false;
    std::fclose(f);
    return true;
}

}  // namespace bx::harness
