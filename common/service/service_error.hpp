// A refusal the service can explain: an HTTP status and a message for people.
// Written as {"error":{"status":N,"message":"..."}}, the same shape the router
// uses for 404/405, so a client parses every error the same way.
#pragma once

#include <string>

namespace bx::service {

struct ServiceError {
    int status = 0;  // 0 = no error
    std::string message;

    bool failed() const { return status != 0; }
};

// {"error":{"status":N,"message":"..."}}
std::string error_json(const ServiceError& error);

}  // namespace bx::service
