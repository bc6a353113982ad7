// The service's front door: which path and method go where, and what every
// response carries. Routing is pure C++ (no host types), so it runs natively
// in the unit tests as well as inside the component.
#pragma once

#include <string_view>

#include "common/http/http.hpp"

namespace bx::service {

// Answers one request. Every response, including errors, carries
// `x-bx-instance-requests`: how many requests this instance has answered,
// counting this one. Spin (and `make serve`) create an instance per request,
// so there it is always 1; a reused instance would show 2, 3, ...
// In the component it also carries `x-bx-linear-memory-bytes` (the instance's
// linear memory, i.e. its peak) and always the security headers of
// response_headers.hpp.
http::Response handle(const http::Request& request);

// An error answer without routing (the HTTP glue uses it for 413 and for a body
// it could not read): JSON body {"error":{"status":N,"message":"..."}},
// counted and stamped like every other response.
http::Response reject(int status, std::string_view message);

// POST /redact, defined in common/service/redact.cpp (owned by the redaction
// work). Routed only when CMake saw that file (BX_HAVE_REDACT=1).
http::Response redact(const http::Request& request);

}  // namespace bx::service
