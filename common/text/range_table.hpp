// The lookup behind our generated Unicode tables (grapheme_table.cpp,
// word_table.cpp): sorted, disjoint ranges {first, last, value}, one value
// for every code point of a range, a default for the code points in none.
#pragma once

#include <cstddef>

namespace bx::text {

// Binary search of `count` ranges; `none` outside every range.
template <typename Range, typename Value>
Value lookup_range(const Range* ranges, std::size_t count, char32_t c, Value none) {
    std::size_t lo = 0, hi = count;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (ranges[mid].last < c) {
            lo = mid + 1;
        } else if (ranges[mid].first > c) {
            hi = mid;
        } else {
            return ranges[mid].value;
        }
    }
    return none;
}

}  // namespace bx::text
