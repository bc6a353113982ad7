// libc++'s last words, inside the component.
//
// With -fno-exceptions, libc++ reports would-be exceptions (bad_alloc,
// length_error, ...) through std::__libcpp_verbose_abort, whose default prints
// with fprintf(stderr): a preview1 call, which the component must not make.
// Defining it here (libc++ documents it as overridable) routes the message to
// our stderr import and traps.
#include <__verbose_abort>
#include <cstdarg>
#include <cstdio>

#include "common/timing/clock.hpp"

_LIBCPP_BEGIN_NAMESPACE_STD
[[noreturn]] void __libcpp_verbose_abort(const char* format, ...) {
    char message[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);  // formatting only, no I/O
    va_end(args);
    bx::log_line(message);
    __builtin_trap();
}
_LIBCPP_END_NAMESPACE_STD
