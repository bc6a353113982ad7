// Header lookup shared by the component glue and native code (tests, harness).
#include "common/http/http.hpp"

namespace bx::http {

namespace {
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_ascii_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    }
    return true;
}
}  // namespace

std::string_view find_header(const std::vector<Header>& headers, std::string_view name) {
    for (const Header& h : headers) {
        if (equals_ignoring_ascii_case(h.first, name)) return h.second;
    }
    return {};
}

}  // namespace bx::http
