// See response_headers.hpp.
#include "common/service/response_headers.hpp"

#include <string>

namespace bx::service {

void add_security_headers(http::Response& response) {
    response.headers.emplace_back("content-security-policy", std::string(kContentSecurityPolicy));
    response.headers.emplace_back("x-content-type-options", "nosniff");
    response.headers.emplace_back("referrer-policy", "no-referrer");
}

}  // namespace bx::service
