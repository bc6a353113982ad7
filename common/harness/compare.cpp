#include "common/harness/compare.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/harness/runner.hpp"

namespace bx::harness {

void DiffStats::add(const float* oracle, int oracle_rows, const float* candidate, int candidate_rows) {
    const int common = oracle_rows < candidate_rows ? oracle_rows : candidate_rows;
    rows += oracle_rows;
    missing_rows += std::labs(static_cast<long>(oracle_rows - candidate_rows));
    for (int r = 0; r < common; ++r) {
        const float* a = oracle + r * kLabels;
        const float* b = candidate + r * kLabels;
        if (argmax_row(a) == argmax_row(b)) ++rows_agree;
        for (int l = 0; l < kLabels; ++l) {
            ++values;
            if (std::memcmp(&a[l], &b[l], sizeof(float)) == 0) continue;
            ++values_differ;
            double d = std::fabs(static_cast<double>(a[l]) - static_cast<double>(b[l]));
            if (std::isnan(d)) d = INFINITY;
            if (d > max_abs) max_abs = d;
            sum_abs += d;
        }
    }
    if (missing_rows > 0) max_abs = INFINITY;
}

void DiffStats::merge(const DiffStats& o) {
    rows += o.rows;
    rows_agree += o.rows_agree;
    values += o.values;
    values_differ += o.values_differ;
    missing_rows += o.missing_rows;
    if (o.max_abs > max_abs) max_abs = o.max_abs;
    sum_abs += o.sum_abs;
}

std::string format_sci(double value) {
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (std::isnan(value)) return "NaN";
    char text[48];
    std::snprintf(text, sizeof text, "%.2e", value);  // e.g. "1.23e-04"
    char* e = std::strchr(text, 'e');
    if (e == nullptr) return text;
    const int exponent = std::atoi(e + 1);
    std::snprintf(e + 1, sizeof text - static_cast<std::size_t>(e + 1 - text), "%d", exponent);
    return text;
}

std::string DiffStats::agreement_line() const {
    const double percent = rows > 0 ? 100.0 * static_cast<double>(rows_agree) / static_cast<double>(rows) : 100.0;
    char text[160];
    std::snprintf(text, sizeof text, "label agreement %ld/%ld (%.2f%%), max |dlogit| %s, mean |dlogit| %s",
                  rows_agree, rows, percent, format_sci(max_abs).c_str(), format_sci(mean_abs()).c_str());
    return text;
}

}  // namespace bx::harness
