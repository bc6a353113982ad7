// Text in, logits out: what every harness command needs from a stage.
//
// A text is tokenised, cut into windows (common/service/windows.hpp: 254
// content tokens, overlap 64), and each window goes through the stage's
// forward pass. The rows the harness compares are every *live* row of every
// window, in window order: <s>, the window's content tokens, </s>. That is
// exactly what the stage interface promises to compute from stage 01 on (rows
// at or beyond `live` may be skipped), so it is the strictest comparison that
// every stage can be held to. A token in the overlap of two windows is
// compared in both.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/stage/stage.hpp"

namespace bx::harness {

struct TextLogits {
    std::vector<std::int32_t> ids;     // the encoding: <s>, content ids, </s>
    std::vector<std::string> tokens;   // the encoding's token strings (for reports)
    int rows = 0;                      // live rows over all windows
    std::vector<float> logits;         // rows x kLabels, row-major
    std::vector<int> row_token;        // for each row, its index into ids / tokens
    int windows = 0;
};

class Runner {
public:
    // Opens the stage's embedded model (or the .bxm file at `model_path`, when
    // not empty) and its tokenizer. On failure: false and *error.
    bool open(const std::string& model_path, std::string* error);

    // Tokenises `text` and runs every window. On failure: false and *error.
    bool run(std::string_view text, TextLogits& out, std::string* error);

    const ModelView& model() const { return *model_; }
    // FNV-1a of the model bytes: references and baselines record it, so a
    // reference made with another model is refused instead of "failing".
    std::uint64_t model_fingerprint() const { return model_fingerprint_; }

    // Phase times and forward count accumulated over every run() so far.
    Profile& profile() { return profile_; }
    int forwards() const { return forwards_; }

    // One forward pass on the first window of `text`, for timing: returns its
    // wall time in ms, or a negative value on failure.
    double time_one_forward(std::string_view text, std::string* error);

private:
    std::vector<float> owned_model_;  // only when read from a file (float: 4-byte aligned storage)
    std::optional<ModelView> model_;
    std::uint64_t model_fingerprint_ = 0;
    std::shared_ptr<const bx::Tokenizer> tokenizer_;
    Profile profile_;
    int forwards_ = 0;
    std::vector<float> window_logits_;
};

// Index of the largest logit in a row of kLabels (the first on ties; NaN never wins).
int argmax_row(const float* row);

}  // namespace bx::harness
