// Blocking reads and writes on wasi:io streams, in the sizes hosts accept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bx::wasi {

// jco's host accepts at most 4096 bytes per blocking-write-and-flush (the WASI
// spec lets a host cap it); every host accepts this much, so we always chunk.
inline constexpr std::size_t kMaxWriteChunk = 4096;

// This instance's stderr (wasi:cli/stderr@0.2.0), fetched once and kept.
std::int32_t stderr_stream();

// Writes all `len` bytes; false if the stream failed or closed.
bool write_all(std::int32_t output_stream, const void* data, std::size_t len);

enum class ReadOutcome { Complete, TooLarge, Failed };

// Reads the stream to its end into `out`, keeping at most `max_bytes`. Beyond
// that it keeps reading and discarding, up to `drain_limit` bytes in all, so
// the client can finish sending and see our 413 instead of a reset connection.
ReadOutcome read_all(std::int32_t input_stream, std::size_t max_bytes, std::size_t drain_limit,
                     std::string& out);

}  // namespace bx::wasi
