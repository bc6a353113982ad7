// The one small interface every stage implements. The harness, the service and
// the tests see a stage only through these four functions, so any stage can be
// swapped in by linking a different `stage_NN` library.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/model/model_view.hpp"
#include "common/timing/profile.hpp"
#include "common/tokenizer/tokenizer.hpp"

namespace bx {

// Every forward pass sees exactly this many positions: <s>, content, </s>, pads.
inline constexpr int kWindow = 256;

}  // namespace bx

namespace bx::stage {

// The stage's directory name, e.g. "00-naive" (CMake passes BX_STAGE_NAME).
std::string_view name();

// The tokenizer built from the stage's embedded data. Stage 00 parses the
// embedded tokenizer.json on every call: that is the cost the post starts from.
// Shared and const: a stage may hand out one tokenizer it built before the
// request (in its memory image), and every caller only reads it.
// On failure: nullptr, and *error names the problem.
std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error);

// The same from a given tokenizer.json text (check-tok, tests, the mutant).
std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json,
                                                        std::string* error);

// One window through the encoder. `ids` holds exactly kWindow ids (pads
// included); `live` counts the real ones (<s> .. </s>), 1..kWindow. `logits`
// receives kWindow * model.labels floats, row-major; from stage 01 on, rows at
// or beyond `live` may be left unwritten.
void forward(const bx::ModelView& model, const std::int32_t* ids, int live,
             float* logits, bx::Profile& prof);

}  // namespace bx::stage
