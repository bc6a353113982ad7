#include "common/text/ignorable.hpp"

#include "common/text/range_table.hpp"

namespace bx::text {

bool is_default_ignorable(char32_t c) {
    if (c < 0xAD) return false;
    return lookup_range(kIgnorableRanges, kIgnorableRangeCount, c, Ignorable::No) == Ignorable::Yes;
}

}  // namespace bx::text
