// Time and log lines: the only two things the service needs from the host.
//
// Each build flavour links exactly one implementation:
//   component  common/timing/component/  wasi:clocks/monotonic-clock@0.2.0 and
//                                        wasi:cli/stderr@0.2.0, imported directly
//                                        (no preview1 adapter, so the component
//                                        imports nothing newer than WASI 0.2.0)
//   CLI wasm,  common/timing/posix/      clock_gettime(CLOCK_MONOTONIC) and stderr
//   native                               via wasi-libc / glibc
#pragma once

#include <cstdint>
#include <string_view>

namespace bx {

// Monotonic nanoseconds from an arbitrary origin; subtract two readings.
std::uint64_t now_ns();

// Writes `line` plus a newline to stderr (Spin shows it in its log).
void log_line(std::string_view line);

}  // namespace bx
