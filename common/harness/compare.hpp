// Comparing a stage's logits with stage 00's: label agreement (argmax per
// row), |dlogit| statistics, and the bit test that is the real bar.
#pragma once

#include <string>

namespace bx::harness {

struct DiffStats {
    long rows = 0;            // oracle rows compared
    long rows_agree = 0;      // rows whose argmax label is the same
    long values = 0;          // logits compared
    long values_differ = 0;   // logits whose bit patterns differ (-0.0 vs 0.0 and NaN payloads count)
    long missing_rows = 0;    // rows one side has and the other lacks
    double max_abs = 0.0;     // max |dlogit| (infinite when a NaN is involved)
    double sum_abs = 0.0;

    // One text: `oracle_rows` rows from stage 00, `candidate_rows` from the stage under test.
    void add(const float* oracle, int oracle_rows, const float* candidate, int candidate_rows);
    void merge(const DiffStats& other);
    bool identical() const { return values_differ == 0 && missing_rows == 0; }
    double mean_abs() const { return values > 0 ? sum_abs / static_cast<double>(values) : 0.0; }

    // "label agreement a/b (p%), max |dlogit| x, mean |dlogit| y", as in the post.
    std::string agreement_line() const;
};

// "1.23e-4", "0.00e0": the post's (Rust's {:.2e}) notation, no '+' or padding.
std::string format_sci(double value);

}  // namespace bx::harness
