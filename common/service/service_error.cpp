#include "common/service/service_error.hpp"

#include "common/json/json.hpp"

namespace bx::service {

std::string error_json(const ServiceError& error) {
    std::string out = "{\"error\":{\"status\":" + std::to_string(error.status) + ",\"message\":";
    bx::json::append_string(out, error.message);
    out += "}}";
    return out;
}

}  // namespace bx::service
