// Number text -> f64 exactly as serde_json 1.0 parses it without its
// `float_roundtrip` feature, which is how Hugging Face tokenizers reads the
// Unigram scores of tokenizer.json. That parse is *not* correctly rounded: a
// 17-digit score such as -3.2588272094726562 becomes the u64 significand
// rounded to f64 and then divided by a power of ten (two roundings), one ulp
// away from strtod's answer for about one score in five. Reproducing it is the
// only way to hold the very same f64 scores as the reference.
#include "common/json/serde_f64.hpp"

#include <cmath>
#include <cstdint>

namespace bx::json {
namespace {

// 1e0 .. 1e308, each literal correctly rounded by the compiler, as in serde_json.
constexpr double kPow10[309] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23,
    1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
    1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47,
    1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55,
    1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63,
    1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71,
    1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
    1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87,
    1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95,
    1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103,
    1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111,
    1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127,
    1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135,
    1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143,
    1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151,
    1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167,
    1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175,
    1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183,
    1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191,
    1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207,
    1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215,
    1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223,
    1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231,
    1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247,
    1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255,
    1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263,
    1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271,
    1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
    1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295,
    1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303,
    1e304, 1e305, 1e306, 1e307, 1e308
};

// serde_json's `overflow!(a * 10 + b, u64::MAX)`.
bool would_overflow(std::uint64_t a, std::uint64_t digit) {
    constexpr std::uint64_t kMax = UINT64_MAX;
    return a >= kMax / 10 && (a > kMax / 10 || digit > kMax % 10);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// significand * 10^exponent the serde_json way: one conversion, one multiply or
// divide by a table power; out-of-table exponents step by 1e308.
bool from_parts(bool positive, std::uint64_t significand, std::int32_t exponent, double& out) {
    double f = static_cast<double>(significand);
    for (;;) {
        std::uint32_t magnitude = exponent < 0 ? 0u - static_cast<std::uint32_t>(exponent)
                                               : static_cast<std::uint32_t>(exponent);
        if (magnitude < 309) {
            if (exponent >= 0) {
                f *= kPow10[magnitude];
                if (std::isinf(f)) return false;  // serde reports "number out of range"
            } else {
                f /= kPow10[magnitude];
            }
            break;
        }
        if (f == 0.0) break;
        if (exponent >= 0) return false;
        f /= 1e308;
        exponent += 308;
    }
    out = positive ? f : -f;
    return true;
}

}  // namespace

bool serde_json_f64(std::string_view text, double& out) {
    std::size_t i = 0;
    const std::size_t n = text.size();
    bool positive = true;
    if (i < n && text[i] == '-') {
        positive = false;
        ++i;
    }
    if (i == n || !is_digit(text[i])) return false;

    std::uint64_t significand = 0;
    std::int32_t exponent = 0;
    if (text[i] == '0') {
        ++i;
        if (i < n && is_digit(text[i])) return false;  // one leading zero only
    } else {
        while (i < n && is_digit(text[i])) {
            std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
            if (would_overflow(significand, digit)) {
                // Too long for u64: the remaining integer digits only scale.
                while (i < n && is_digit(text[i])) {
                    ++exponent;
                    ++i;
                }
                break;
            }
            significand = significand * 10 + digit;
            ++i;
        }
    }

    bool is_float = false;
    if (i < n && text[i] == '.') {
        is_float = true;
        ++i;
        if (i == n || !is_digit(text[i])) return false;
        bool dropping = false;
        while (i < n && is_digit(text[i])) {
            std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
            if (!dropping && would_overflow(significand, digit)) dropping = true;  // ignore the rest
            if (!dropping) {
                significand = significand * 10 + digit;
                --exponent;
            }
            ++i;
        }
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        is_float = true;
        ++i;
        bool positive_exp = true;
        if (i < n && (text[i] == '+' || text[i] == '-')) {
            positive_exp = text[i] == '+';
            ++i;
        }
        if (i == n || !is_digit(text[i])) return false;
        std::int32_t exp = 0;
        while (i < n && is_digit(text[i])) {
            std::int32_t digit = text[i] - '0';
            if (exp >= INT32_MAX / 10 && (exp > INT32_MAX / 10 || digit > INT32_MAX % 10)) {
                // Exponent overflow: zero, or out of range for positive exponents.
                if (significand != 0 && positive_exp) return false;
                out = positive ? 0.0 : -0.0;
                return true;
            }
            exp = exp * 10 + digit;
            ++i;
        }
        std::int64_t total = static_cast<std::int64_t>(exponent) + (positive_exp ? exp : -exp);
        if (total > INT32_MAX) total = INT32_MAX;  // saturating, as serde_json
        if (total < INT32_MIN) total = INT32_MIN;
        exponent = static_cast<std::int32_t>(total);
    }
    if (i != n) return false;
    if (!is_float && exponent == 0) {
        // An integer: u64 or i64, converted with `as f64` by the visitor.
        // serde_json: "-0" is the integer 0 (positive zero); magnitudes past
        // 2^63 become -(u64 as f64).
        if (positive) {
            out = static_cast<double>(significand);
        } else if (significand <= static_cast<std::uint64_t>(INT64_MAX) + 1) {
            out = static_cast<double>(static_cast<std::int64_t>(0 - significand));
        } else {
            out = -static_cast<double>(significand);
        }
        return true;
    }
    return from_parts(positive, significand, exponent, out);
}

}  // namespace bx::json
