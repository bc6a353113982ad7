// Number text -> f64 the way serde_json (default features) reads it, which is
// how the reference tokenizer holds its Unigram scores. See serde_f64.cpp for
// why this differs from strtod in the last bit.
#pragma once

#include <string_view>

namespace bx::json {

// `text` is a JSON number (Value::text). False when it is not one or when
// serde_json would reject it as out of range.
bool serde_json_f64(std::string_view text, double& out);

}  // namespace bx::json
