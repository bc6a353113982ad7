// From per-token logits to entity spans over tokens.
//
// Two steps, both deterministic and exact on every target:
//  1. choose_label: each token's label is the argmax of its logits, and its
//     confidence is the softmax probability of that label's entity type (the
//     B, I, E and S labels of the type together), computed with bx_expf in a
//     fixed order (below), so wasm and native builds agree to the bit.
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
    float probability = 0.0f;  // softmax probability of that label's type
};

// Argmax over the scheme's labels: the first maximum wins a tie (strict `>`
// from index 0, so a NaN never wins).
//
// Probability: how sure the model is that the token belongs to an entity of
// the argmax label's type, whatever its place in it. The tag only says where
// the entity starts and ends, and a model may be sure of the type and unsure of
// the place: a surname that a second surname could follow splits its mass
// between S-SURNAME and B-SURNAME. Scoring the tag alone would drop such a name
// under the minimum score and leak it. For O, the type is O (the O labels).
// All f32, in this order:
//   m = logits[label]; e_j = bx_expf(logits[j] - m);
//   z = sum over j = 0..labels-1, in order, starting from 0.0f, of e_j;
//   mass = the same sum over only the j whose type is the label's type;
//   probability = mass / z.
TokenChoice choose_label(const float* logits, const LabelScheme& scheme);

// A decoded entity over content tokens [first, last], both inclusive.
struct TokenSpan {
    int first = 0;
    int last = 0;
    int type = 0;          // index into LabelScheme::types
    float score = 0.0f;    // mean of the tokens' probabilities, see below
    float probability_sum = 0.0f;  // the sum that mean divides (kept for merging)
    int tokens() const { return last - first + 1; }
};

// Applies the rules above. Each span's score is the mean of its tokens' type
// probabilities (TokenChoice::probability): sum in token order in f32 starting
// from 0.0f, then divided by float(token count). Labels outside the scheme
// count as O.
std::vector<TokenSpan> decode_bioes(const std::vector<TokenChoice>& tokens,
                                    const LabelScheme& scheme);

}  // namespace bx::service
