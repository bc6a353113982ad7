// The service's view of HTTP: plain values, no resources, no host types.
//
// common/http/incoming_handler.cpp turns a wasi:http request into a Request
// (reading the whole body first), calls bx::service::handle, and turns the
// Response back into wasi:http calls. Everything between those two points is
// ordinary C++ that also runs natively in tests.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bx::http {

// Largest request body we accept. The body is read completely before routing
// (the service needs all of it), so this bounds the memory one request can
// claim. Over it the answer is 413 with the usual JSON error body.
inline constexpr std::size_t kMaxRequestBodyBytes = 8u * 1024u * 1024u;

using Header = std::pair<std::string, std::string>;  // name (as sent), value

struct Request {
    std::string method;   // "GET", "POST", ... (or the verbatim extension method)
    std::string path;     // path plus query, e.g. "/redact?x=1"
    std::vector<Header> headers;
    std::string body;     // raw bytes
};

struct Response {
    int status = 200;
    std::vector<Header> headers;
    std::string body;     // raw bytes, any size
};

// The path without its query string ("/ping?x" -> "/ping").
inline std::string_view path_only(std::string_view path_with_query) {
    const std::size_t q = path_with_query.find('?');
    return q == std::string_view::npos ? path_with_query : path_with_query.substr(0, q);
}

// First header named `name`, compared ASCII case-insensitively; empty if absent.
std::string_view find_header(const std::vector<Header>& headers, std::string_view name);

}  // namespace bx::http
