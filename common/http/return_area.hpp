// The memory the host writes a multi-value result into (canonical ABI
// "return area"), with the offsets we read back named in one place.
//
// Rules that produce the offsets (all our results are small variants):
//   result<A, B>, option<T>, variant: a 1-byte discriminant at offset 0, the
//   payload after it at the payload's alignment. All payloads we read start
//   with an i32 (a handle, a pointer, an enum), so the payload starts at 4; a
//   string or list is (ptr @4, len @8). error-code holds a u64, so results
//   carrying it are 8-aligned and 40 bytes; we never read inside error-code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bx::wasi {

namespace offsets {
inline constexpr std::size_t kTag = 0;           // discriminant: 0 = ok/none/first case
inline constexpr std::size_t kPayload = 4;       // handle, or ptr of a string/list
inline constexpr std::size_t kPayloadLength = 8; // len of a string/list
// stream-error sits inside result<_, stream-error>'s payload: its own tag at 4,
// the last-operation-failed error handle at 8.
inline constexpr std::size_t kStreamErrorTag = 4;
inline constexpr std::size_t kStreamErrorHandle = 8;
}  // namespace offsets

class ReturnArea {
public:
    void* get() { return bytes_; }
    std::uint8_t u8(std::size_t offset) const { return bytes_[offset]; }
    std::int32_t i32(std::size_t offset) const {
        std::int32_t value;
        std::memcpy(&value, bytes_ + offset, sizeof value);
        return value;
    }
    bool is_ok() const { return u8(offsets::kTag) == 0; }

private:
    alignas(8) unsigned char bytes_[40] = {};
};

}  // namespace bx::wasi
