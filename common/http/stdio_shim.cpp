// The component's three-function preview1 shim: C stdio on WASI 0.2.0.
//
// wasi-libc's printf family (snprintf included: musl's vfprintf drags in the
// stdio exit machinery) links the `stderr` FILE, whose write/seek/close end in
// the preview1 imports fd_write, fd_seek and fd_close. A component may not
// import preview1 (that would need jco's adapter, which imports WASI 0.2.12,
// too new for Spin 3.0). So we define those three wasi-libc entry points
// ourselves, on top of wasi:cli/stderr@0.2.0:
//   fd_write  fds 1 and 2 -> the stderr stream (Spin logs both); others EBADF
//   fd_seek   ESPIPE (a stream cannot seek)
//   fd_close  nothing to do
// Defining them keeps wasi-libc's own definitions (one object file holding
// every __wasi_* function) out of the link. If component code ever needs
// another preview1 call (files, clock_gettime, ...), the link fails with
// "duplicate symbol: __wasi_fd_write": use bx::now_ns / bx::log_line instead.
#include <wasi/api.h>

#include "common/http/wasi_streams.hpp"

extern "C" {

__wasi_errno_t __wasi_fd_write(__wasi_fd_t fd, const __wasi_ciovec_t* iovs, size_t iovs_len,
                               __wasi_size_t* written) {
    if (fd != 1 && fd != 2) return __WASI_ERRNO_BADF;
    __wasi_size_t total = 0;
    for (size_t i = 0; i < iovs_len; ++i) {
        if (!bx::wasi::write_all(bx::wasi::stderr_stream(), iovs[i].buf, iovs[i].buf_len)) {
            return __WASI_ERRNO_IO;
        }
        total += iovs[i].buf_len;
    }
    *written = total;
    return __WASI_ERRNO_SUCCESS;
}

__wasi_errno_t __wasi_fd_seek(__wasi_fd_t, __wasi_filedelta_t, __wasi_whence_t, __wasi_filesize_t*) {
    return __WASI_ERRNO_SPIPE;
}

__wasi_errno_t __wasi_fd_close(__wasi_fd_t) { return __WASI_ERRNO_SUCCESS; }

}  // extern "C"
