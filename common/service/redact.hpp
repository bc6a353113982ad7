// POST /redact: text in, the same text with every entity replaced by [LABEL],
// plus the entities themselves.
//
//   request   {"text": "Call Anna Weber on 030 1234567"}   ("min_score": 0.5 optional)
//   response  {"redacted": "Call [GIVEN_NAME] [SURNAME] on [PHONE]",
//              "entities": [{"label": "GIVEN_NAME", "start": 5, "end": 9,
//                            "text": "Anna", "score": 0.98}, ...],
//              "min_score": 0.5}
//
// start/end count Unicode code points (end exclusive); score is the mean, over
// the entity's tokens, of the softmax probability of each token's entity type
// (see bioes.hpp). Only entities
// scoring at least min_score are reported and redacted; the answer says which
// minimum it applied. Refusals are described in redact_request.hpp.
//
// The pipeline, timed phase by phase as in the post's Part 1:
//   tok_load    bx::stage::load_tokenizer() (stage 00 parses tokenizer.json)
//   model_load  bx::ModelView::open() over the embedded model (pointers only)
//   encode      tokenizer -> ids and byte offsets
//   forward     one bx::stage::forward per window, split by the stage's
//               profiler into matmul / attention / other
//   total       everything, including decoding and writing the JSON
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/service/entities.hpp"
#include "common/service/service_error.hpp"
#include "common/timing/profile.hpp"

namespace bx::service {

struct Timings {
    double tok_load_ms = 0.0;
    double model_load_ms = 0.0;
    double encode_ms = 0.0;
    double forward_ms = 0.0;
    double total_ms = 0.0;
    int windows = 0;
};

// A content token the model did not label O: what the model read there (the
// token as the tokenizer wrote it, '▁' for a word's start), its label's name
// and its range in the text in code points. `cli redact --tokens` prints them,
// so that a test can hold each entity against what was read for it.
struct LabelledToken {
    std::size_t start = 0;  // code points, inclusive
    std::size_t end = 0;    // code points, exclusive
    std::string token;
    std::string label;
};

struct RedactResult {
    ServiceError error;  // 500 when the tokenizer or the model cannot be loaded
    std::string redacted;
    std::vector<Entity> entities;  // those scoring at least min_score
    float min_score = kDefaultMinScore;
    int tokens = 0;      // content tokens (without <s> and </s>)
    std::vector<LabelledToken> labelled;  // in text order, when asked for
};

// The whole pipeline for one text (already checked: valid UTF-8, within the
// limit), reporting the entities that score at least `min_score`. Fills
// `profile` (matmul, attention, other, summed over windows) and `timings`.
// No HTTP, no globals: the harness and the tests call it directly.
// With `list_labelled`, also fills RedactResult::labelled (the service leaves
// it empty: only `cli redact --tokens` asks).
RedactResult redact_text(std::string_view text, float min_score, bx::Profile& profile,
                         Timings& timings, bool list_labelled = false);

// {"redacted": "...", "entities": [...], "min_score": ...} for a successful
// result; with `tokens`, also "tokens": [[start, end, "token", "label"], ...]
// for the labelled tokens (start/end in code points, as the entities').
std::string to_json(const RedactResult& result, bool tokens = false);

// tok_load;dur=1.2, model_load;dur=0.0, encode;dur=0.3, forward;dur=980.1;desc="1 window(s)",
// matmul;dur=.., attention;dur=.., other;dur=.., total;dur=..  (one decimal, ms)
std::string server_timing(const Timings& timings, const bx::Profile& profile);

// A finished answer, independent of any HTTP type.
struct ServiceReply {
    int status = 200;
    std::string body;           // JSON: the result, or {"error": ...}
    std::string server_timing;  // empty when the pipeline did not run
};

// Request body (and Content-Type, empty if absent) to reply: validation, the
// pipeline, JSON. Logs "[timing] <server_timing>" through bx::log_line when the
// pipeline ran.
ServiceReply redact_body(std::string_view content_type, std::string_view body, bool tokens = false);

// Asks for what every request builds from embedded data alone (the tokenizer),
// once, before any request: a stage that keeps what it builds then has it
// ready. The pre-initialiser calls it at build time (common/http/preinit/).
void prepare();

// Raw text to reply (the harness's stdin mode): check_text, then the pipeline
// with the default minimum score.
ServiceReply redact_plain_text(std::string_view text);

}  // namespace bx::service
