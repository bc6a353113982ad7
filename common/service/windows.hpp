// Long texts do not fit in one forward pass: the encoder sees exactly kWindow
// (256) positions, and two of them are <s> and </s>. So the content tokens are
// cut into windows of up to 254, and consecutive windows overlap by 64 tokens
// (stride 190) so that no token has to be labelled right next to a cut.
//
// Each content token is covered by one window, or by two where they overlap
// (254 < 2 * 190, so never three). It takes its logits from the window in
// which it sits farthest from a *cut*: a window edge where that window stops
// seeing text that exists. An edge that is also the start or the end of the
// text is not a cut, since no window could show more context on that side.
//
// Everything here is a pure function of the token count, so the service, the
// harness and the tests all agree on the same windows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bx::service {

inline constexpr int kWindowPositions = 256;  // = bx::kWindow, the model's input width
inline constexpr int kWindowContent = kWindowPositions - 2;  // 254: minus <s> and </s>
inline constexpr int kWindowOverlap = 64;
inline constexpr int kWindowStride = kWindowContent - kWindowOverlap;  // 190

// The most windows one request may need. Akamai Functions stops a request
// after 30 s, and stage 00 (the oracle, never optimised) is slowest under
// wasmtime, the engine the platform runs: `make limits` under `wasmtime serve`
// (bench/results/*-limits.json) found 16 windows past the deadline at stages
// 00 and 01 on this project's machine. 10 windows leave stage 00 a margin
// there. A text that needs more is refused with 413 and a message naming its
// size and this one, instead of timing out in silence.
// snippet: max-windows
inline constexpr int kMaxWindows = 10;
// The content tokens those windows hold: 190 * 9 + 254 = 1,964.
inline constexpr int kMaxWindowTokens = kWindowStride * (kMaxWindows - 1) + kWindowContent;
// end-snippet

// The special ids the windows are built from (XLM-R layout, see assets/model/FORMAT.md).
inline constexpr std::int32_t kBosId = 0;  // <s>
inline constexpr std::int32_t kPadId = 1;  // <pad>
inline constexpr std::int32_t kEosId = 2;  // </s>

// One window: the content tokens [first, first + count) of the text.
struct Window {
    int first = 0;
    int count = 0;
    int end() const { return first + count; }
};

// The windows for `content_tokens` tokens: window w starts at w * 190 and holds
// up to 254 tokens; a new window is added only while the previous one stops
// short of the last token. No tokens, no windows (nothing to label).
// 254 tokens -> 1 window, 255 -> 2, 444 -> 2, 445 -> 3.
std::vector<Window> plan_windows(int content_tokens);

// How far content token `token` sits from the nearest cut of window `w`
// (0 = right at a cut; a large sentinel when neither edge of `w` is a cut).
// `token` must lie inside `w`.
int distance_from_cut(const Window& w, int token, int content_tokens);

// For every content token, the index of the window it takes its logits from:
// the covering window with the largest distance_from_cut. A tie would go to
// the earlier window (the one that is always full-width), but with an even
// overlap a tie cannot happen: inside an overlap of 64 the two distances add
// up to 63, so the first 32 overlapping tokens stay with the earlier window
// and the last 32 go to the later one.
std::vector<int> assign_windows(const std::vector<Window>& windows, int content_tokens);

// Fills `out` (kWindowPositions ids) for one window: <s>, the window's content
// ids, </s>, then <pad> to the end. Returns `live`, the number of real
// positions (count + 2), which is what bx::stage::forward takes.
int fill_window_ids(std::span<const std::int32_t> content_ids, const Window& w,
                    std::int32_t* out);

}  // namespace bx::service
