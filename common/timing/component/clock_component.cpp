// now_ns / log_line inside the HTTP component, through direct WASI 0.2.0
// imports. Going through wasi-libc instead would make preview1 calls, which
// would need jco's preview1 adapter, which imports WASI 0.2.12: too new for
// Spin 3.0. See common/http/wasi_imports.hpp for the import declarations.
#include "common/timing/clock.hpp"

#include <cstdlib>
#include <cstring>

#include "common/http/wasi_imports.hpp"
#include "common/http/wasi_streams.hpp"

namespace bx {

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(wasi::abi::monotonic_clock_now());
}

void log_line(std::string_view line) {
    // Line and newline in one buffer, so a line up to 4095 bytes reaches the
    // host in a single write (longer ones are chunked by write_all).
    const std::size_t total = line.size() + 1;
    char* buffer = static_cast<char*>(std::malloc(total));
    if (buffer == nullptr) return;
    std::memcpy(buffer, line.data(), line.size());
    buffer[line.size()] = '\n';
    wasi::write_all(wasi::stderr_stream(), buffer, total);
    std::free(buffer);
}

}  // namespace bx
