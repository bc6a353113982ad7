// From per-token logits to entity spans over tokens.
//
// Two steps, both deterministic and exact on every target:
//  1. choose_label: each token's label is the argmax of its logits, and its
//     confidence is that label's softmax probability, computed with bx_expf
//     in a fixed order (below), so wasm and native builds agree to the bit.
//  2. decode_bioes: a left-to-right pass that reads the tags as
//     `B I* E` or `S` of one type, repairing what the model gets wrong.
//     No Viterbi: each token keeps its argmax label; only span boundaries
//     are decided here.
//
// Repair rules (a redactor should rather hide too much than leak a token the
// model marked as PII, so every non-O token ends up inside some entity):
//   - `I-T` or `E-T` with no open span of type T starts a new span (closing any
//     open span of another type first); a lone `E-T` is a one-token entity.
//   - `B-T` or `S-T` always closes the open span and starts afresh.
//   - `O`, or the end of the text, closes an open span as it is (`B I I` then
//     `O` is still an entity).
//   - A change of type always splits: `B-CITY E-STATE` is two entities.
#pragma once

#include <vector>

#include "common/service/labels.hpp"

namespace bx::service {

struct TokenChoice {
    int label = 0;             // argmax over the label logits
    float probability = 0.0f;  // softmax probability of that label
};

// Argmax: the first maximum wins a tie (strict `>` from index 0, so a NaN never
// wins). Probability, all f32, in this order:
//   m = logits[label]; z = sum over j = 0..labels-1, in order, starting from
//   0.0f, of bx_expf(logits[j] - m); probability = bx_expf(0.0f) / z.
TokenChoice choose_label(const float* logits, int labels);

// A decoded entity over content tokens [first, last], both inclusive.
struct TokenSpan {
    int first = 0;
    int last = 0;
    int type = 0;          // index into LabelScheme::types
    float score = 0.0f;    // mean of the tokens' probabilities, see below
    float probability_sum = 0.0f;  // the sum that mean divides (kept for merging)
    int tokens() const { return last - first + 1; }
};

// Applies the rules above. Each span's score is the mean probability of its
// tokens: sum in token order in f32 starting from 0.0f, then divided by
// float(token count). Labels outside the scheme count as O.
std::vector<TokenSpan> decode_bioes(const std::vector<TokenChoice>& tokens,
                                    const LabelScheme& scheme);

}  // namespace bx::service
