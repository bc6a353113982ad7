#include "common/service/windows.hpp"

#include <algorithm>
#include <climits>

namespace bx::service {

std::vector<Window> plan_windows(int content_tokens) {
    std::vector<Window> windows;
    if (content_tokens <= 0) return windows;
    int first = 0;
    for (;;) {
        const int count = std::min(kWindowContent, content_tokens - first);
        windows.push_back({first, count});
        if (first + count >= content_tokens) break;  // this window reaches the end
        first += kWindowStride;
    }
    return windows;
}

int distance_from_cut(const Window& w, int token, int content_tokens) {
    // A side that ends at the text's own boundary is not a cut: INT_MAX there
    // means "as much context as the text has".
    const int left = w.first > 0 ? token - w.first : INT_MAX;
    const int right = w.end() < content_tokens ? w.end() - 1 - token : INT_MAX;
    return std::min(left, right);
}

std::vector<int> assign_windows(const std::vector<Window>& windows, int content_tokens) {
    std::vector<int> owner(static_cast<std::size_t>(std::max(content_tokens, 0)), -1);
    std::vector<int> best(owner.size(), -1);
    for (int w = 0; w < static_cast<int>(windows.size()); ++w) {
        const Window& win = windows[static_cast<std::size_t>(w)];
        for (int t = win.first; t < win.end() && t < content_tokens; ++t) {
            const int d = distance_from_cut(win, t, content_tokens);
            // Strictly greater: on a tie the earlier window keeps the token.
            if (d > best[static_cast<std::size_t>(t)]) {
                best[static_cast<std::size_t>(t)] = d;
                owner[static_cast<std::size_t>(t)] = w;
            }
        }
    }
    return owner;
}

int fill_window_ids(std::span<const std::int32_t> content_ids, const Window& w,
                    std::int32_t* out) {
    // Clamp rather than trust the caller: a window that claimed more than 254
    // tokens, or tokens past the end, must not write past `out`.
    const int end = std::min({w.end(), w.first + kWindowContent,
                              static_cast<int>(content_ids.size())});
    int p = 0;
    out[p++] = kBosId;
    for (int t = std::max(w.first, 0); t < end; ++t) {
        out[p++] = content_ids[static_cast<std::size_t>(t)];
    }
    out[p++] = kEosId;
    const int live = p;
    while (p < kWindowPositions) out[p++] = kPadId;
    return live;
}

}  // namespace bx::service
