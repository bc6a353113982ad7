#include "common/http/wasi_streams.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/http/return_area.hpp"
#include "common/http/wasi_imports.hpp"

namespace bx::wasi {

namespace {

// The offset of the list inside result<list<u8>, stream-error>. The mutant
// build (make mutant-http) reads it 4 bytes too late, the classic hand-written
// binding bug; tests/integration must catch it.
#ifdef BX_MUTANT_RETAREA
constexpr std::size_t kReadListPtr = offsets::kPayload + 4;
constexpr std::size_t kReadListLen = offsets::kPayloadLength + 4;
#else
constexpr std::size_t kReadListPtr = offsets::kPayload;
constexpr std::size_t kReadListLen = offsets::kPayloadLength;
#endif

// How much we ask for per read. Hosts may return less; 64 KiB keeps the number
// of host calls for a multi-megabyte body small.
constexpr std::int64_t kReadChunk = 64 * 1024;

// A failed stream operation hands us an error resource we must drop.
void drop_stream_error(const ReturnArea& ret) {
    if (ret.u8(offsets::kStreamErrorTag) == 0) {  // last-operation-failed(error)
        abi::drop_io_error(ret.i32(offsets::kStreamErrorHandle));
    }
}

}  // namespace

std::int32_t stderr_stream() {
    static const std::int32_t stream = abi::get_stderr();
    return stream;
}

bool write_all(std::int32_t output_stream, const void* data, std::size_t len) {
    const char* bytes = static_cast<const char*>(data);
    while (len > 0) {
        const std::size_t chunk = std::min(len, kMaxWriteChunk);
        ReturnArea ret;
        abi::output_stream_blocking_write_and_flush(output_stream, bytes, chunk, ret.get());
        if (!ret.is_ok()) {
            drop_stream_error(ret);
            return false;
        }
        bytes += chunk;
        len -= chunk;
    }
    return true;
}

ReadOutcome read_all(std::int32_t input_stream, std::size_t max_bytes, std::size_t drain_limit,
                     std::string& out) {
    std::size_t seen = 0;
    for (;;) {
        ReturnArea ret;
        abi::input_stream_blocking_read(input_stream, kReadChunk, ret.get());
        if (!ret.is_ok()) {
            // `closed` is the normal end of the body; anything else is a failure.
            const bool closed = ret.u8(offsets::kStreamErrorTag) == 1;
            drop_stream_error(ret);
            if (!closed) return ReadOutcome::Failed;
            return seen > max_bytes ? ReadOutcome::TooLarge : ReadOutcome::Complete;
        }
        // The host allocated the bytes with our cabi_realloc: copy, then free.
        char* chunk = reinterpret_cast<char*>(static_cast<std::uintptr_t>(ret.i32(kReadListPtr)));
        const std::size_t length = static_cast<std::uint32_t>(ret.i32(kReadListLen));
        seen += length;
        if (seen <= max_bytes) out.append(chunk, length);
        std::free(chunk);
        if (seen > drain_limit) return ReadOutcome::TooLarge;
    }
}

}  // namespace bx::wasi
