// Windowing of long texts: which windows exist for a token count, and which
// window each token takes its logits from.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "common/service/windows.hpp"

using bx::service::assign_windows;
using bx::service::distance_from_cut;
using bx::service::fill_window_ids;
using bx::service::plan_windows;
using bx::service::Window;

namespace {

std::vector<std::pair<int, int>> as_pairs(const std::vector<Window>& windows) {
    std::vector<std::pair<int, int>> out;
    for (const Window& w : windows) out.emplace_back(w.first, w.count);
    return out;
}

using Pairs = std::vector<std::pair<int, int>>;

}  // namespace

TEST_CASE("window constants follow the contract", "[windows]") {
    STATIC_REQUIRE(bx::service::kWindowContent == 254);
    STATIC_REQUIRE(bx::service::kWindowStride == 190);
    STATIC_REQUIRE(bx::service::kWindowContent - bx::service::kWindowStride == 64);
}

TEST_CASE("the request limit is exactly kMaxWindows windows", "[windows]") {
    STATIC_REQUIRE(bx::service::kMaxWindowTokens == 1964);
    CHECK(plan_windows(bx::service::kMaxWindowTokens).size() == bx::service::kMaxWindows);
    CHECK(plan_windows(bx::service::kMaxWindowTokens + 1).size() == bx::service::kMaxWindows + 1);
}

TEST_CASE("plan_windows at the boundary lengths", "[windows]") {
    CHECK(plan_windows(0).empty());
    CHECK(as_pairs(plan_windows(1)) == Pairs{{0, 1}});
    CHECK(as_pairs(plan_windows(254)) == Pairs{{0, 254}});
    CHECK(as_pairs(plan_windows(255)) == Pairs{{0, 254}, {190, 65}});
    CHECK(as_pairs(plan_windows(444)) == Pairs{{0, 254}, {190, 254}});
    CHECK(as_pairs(plan_windows(445)) == Pairs{{0, 254}, {190, 254}, {380, 65}});
    CHECK(as_pairs(plan_windows(1000)) ==
          Pairs{{0, 254}, {190, 254}, {380, 254}, {570, 254}, {760, 240}});
}

TEST_CASE("a single window owns every token", "[windows]") {
    for (int n : {1, 254}) {
        const auto owner = assign_windows(plan_windows(n), n);
        REQUIRE(owner.size() == static_cast<std::size_t>(n));
        for (int w : owner) CHECK(w == 0);
    }
    CHECK(assign_windows(plan_windows(0), 0).empty());
}

TEST_CASE("an overlap is split in the middle: 32 tokens each", "[windows]") {
    // 255 tokens: window 1 = [190, 255), overlap [190, 254).
    const auto owner = assign_windows(plan_windows(255), 255);
    for (int t = 0; t < 222; ++t) CHECK(owner[t] == 0);
    for (int t = 222; t < 255; ++t) CHECK(owner[t] == 1);

    // 445 tokens: the short tail window [380, 445) overlaps window 1 on [380, 444).
    const auto owner3 = assign_windows(plan_windows(445), 445);
    CHECK(owner3[189] == 0);
    CHECK(owner3[221] == 0);
    CHECK(owner3[222] == 1);
    CHECK(owner3[411] == 1);
    CHECK(owner3[412] == 2);
    CHECK(owner3[444] == 2);
}

TEST_CASE("distance_from_cut ignores edges that are the text's own ends", "[windows]") {
    const int n = 255;
    const auto windows = plan_windows(n);
    // Window 0 has no cut on the left; its right edge (token 253) is a cut.
    CHECK(distance_from_cut(windows[0], 0, n) == 253);
    CHECK(distance_from_cut(windows[0], 253, n) == 0);
    // Window 1 ends at the text's end: only its left edge (190) is a cut.
    CHECK(distance_from_cut(windows[1], 190, n) == 0);
    CHECK(distance_from_cut(windows[1], 254, n) == 64);
}

TEST_CASE("every token sits at least 32 tokens from any cut of its window", "[windows]") {
    for (int n : {0, 1, 2, 253, 254, 255, 256, 443, 444, 445, 446, 633, 634, 635, 1000, 5000}) {
        const auto windows = plan_windows(n);
        const auto owner = assign_windows(windows, n);
        REQUIRE(owner.size() == static_cast<std::size_t>(n));
        int previous = 0;
        for (int t = 0; t < n; ++t) {
            INFO("n=" << n << " token=" << t);
            const int w = owner[t];
            REQUIRE(w >= 0);
            REQUIRE(w < static_cast<int>(windows.size()));
            CHECK(windows[w].first <= t);
            CHECK(t < windows[w].end());
            CHECK(distance_from_cut(windows[w], t, n) >= 32);
            CHECK(w >= previous);  // owners never go back: each window owns one run
            previous = w;
        }
        if (n > 0) {
            CHECK(windows.back().end() == n);
            for (const Window& w : windows) CHECK(w.count <= 254);
        }
    }
}

TEST_CASE("a tie goes to the earlier window", "[windows]") {
    // An odd overlap (5) makes a tie possible: token 7 is 2 from both cuts.
    const std::vector<Window> windows{{0, 10}, {5, 10}};
    CHECK(distance_from_cut(windows[0], 7, 15) == 2);
    CHECK(distance_from_cut(windows[1], 7, 15) == 2);
    const auto owner = assign_windows(windows, 15);
    CHECK(owner[6] == 0);
    CHECK(owner[7] == 0);
    CHECK(owner[8] == 1);
}

TEST_CASE("fill_window_ids frames content with <s>, </s> and pads", "[windows]") {
    std::vector<std::int32_t> content(445);
    for (int i = 0; i < 445; ++i) content[i] = 1000 + i;
    const auto windows = plan_windows(445);
    std::array<std::int32_t, 256> ids{};

    SECTION("a full window has no pads") {
        const int live = fill_window_ids(content, windows[1], ids.data());
        CHECK(live == 256);
        CHECK(ids[0] == 0);
        CHECK(ids[1] == 1190);
        CHECK(ids[254] == 1443);
        CHECK(ids[255] == 2);
    }
    SECTION("a short window is padded to 256") {
        const int live = fill_window_ids(content, windows[2], ids.data());
        CHECK(live == 67);
        CHECK(ids[0] == 0);
        CHECK(ids[1] == 1380);
        CHECK(ids[65] == 1444);
        CHECK(ids[66] == 2);
        for (int p = 67; p < 256; ++p) CHECK(ids[p] == 1);
    }
    SECTION("one token") {
        const int live = fill_window_ids(std::span(content).first(1), plan_windows(1)[0], ids.data());
        CHECK(live == 3);
        CHECK(ids[0] == 0);
        CHECK(ids[1] == 1000);
        CHECK(ids[2] == 2);
        CHECK(ids[3] == 1);
    }
    SECTION("a window claiming too much is clamped, never overruns") {
        const int live = fill_window_ids(content, Window{0, 400}, ids.data());
        CHECK(live == 256);
        CHECK(ids[255] == 2);
    }
}
