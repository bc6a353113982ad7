// The windows a corpus turns into, ready for bx::stage::forward: each text
// tokenised, its content cut by common/service/windows.hpp, each window filled
// with <s>, content, </s> and pads. `bench` times them; `windows` writes them
// out for runtimes outside this project (bench/peer/), so both see the same
// inputs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/harness/corpus.hpp"
#include "common/stage/stage.hpp"

namespace bx::harness {

struct PreparedWindow {
    std::array<std::int32_t, kWindow> ids{};
    int live = 0;  // <s> + content + </s>; the rest are pads
};

// Every window of every text of `corpus`, in corpus order (a text with no
// content tokens still gives one window: <s></s>). On failure: false and *error.
bool prepare_windows(const bx::Tokenizer& tokenizer, const Corpus& corpus, std::vector<PreparedWindow>& out,
                     std::string* error);

}  // namespace bx::harness
