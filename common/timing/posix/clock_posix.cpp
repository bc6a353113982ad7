// now_ns / log_line for the CLI (WASI preview1 through wasi-libc) and native
// builds: plain POSIX, which both libcs provide.
#include "common/timing/clock.hpp"

#include <cstdio>
#include <ctime>

namespace bx {

std::uint64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

void log_line(std::string_view line) {
    // One fwrite per piece; stderr is unbuffered, so lines are not held back.
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fputc('\n', stderr);
}

}  // namespace bx
