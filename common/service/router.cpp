// Routing table and error format of the service. See router.hpp.
#include "common/service/router.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "common/service/page.hpp"
#include "common/service/response_headers.hpp"

namespace bx::service {

namespace {

// Requests this instance has seen. A plain static: an instance is one
// wasm instance, single-threaded.
std::uint64_t g_instance_requests = 0;

// Minimal JSON string escaping for our own messages (no dependency on
// common/json, so routing works before anything else is linked in).
std::string json_quote(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
    return out;
}

http::Response error_response(int status, std::string_view message) {
    http::Response r;
    r.status = status;
    r.headers.emplace_back("content-type", std::string(kJsonType));
    r.body = "{\"error\":{\"status\":" + std::to_string(status) +
             ",\"message\":" + json_quote(message) + "}}";
    return r;
}

http::Response stamped(http::Response response) {
    response.headers.emplace_back("x-bx-instance-requests", std::to_string(g_instance_requests));
#if defined(__wasm__)
    // Linear memory only grows, so its size now is the instance's peak so far:
    // what the platform's 128 MiB memory limit is measured against.
    constexpr std::size_t kWasmPage = 65536;
    response.headers.emplace_back("x-bx-linear-memory-bytes",
                                  std::to_string(__builtin_wasm_memory_size(0) * kWasmPage));
#endif
    add_security_headers(response);
    return response;
}

// GET /ping: answers before touching the tokenizer or the model, so its time
// is the instance start-up and network baseline on its own (as in the post).
http::Response ping(const http::Request&) {
    http::Response r;
    r.headers.emplace_back("content-type", std::string(kTextType));
    r.body = "pong";
    return r;
}

#ifdef BX_TEST_ROUTES
// Test-only routes, compiled into the *_component_test builds only.
// POST /__test/echo-length: proves the whole body arrived.
http::Response echo_length(const http::Request& request) {
    http::Response r;
    r.headers.emplace_back("content-type", std::string(kJsonType));
    r.body = "{\"length\":" + std::to_string(request.body.size()) + "}";
    return r;
}

// GET /__test/bytes?n=N: a body of N bytes ('a'..'z' repeating), for
// responses far larger than one 4096-byte write.
http::Response bytes(const http::Request& request) {
    std::size_t n = 0;
    const std::size_t at = request.path.find("n=");
    if (at != std::string::npos) n = std::strtoull(request.path.c_str() + at + 2, nullptr, 10);
    if (n > 64u * 1024u * 1024u) return error_response(400, "n too large");
    http::Response r;
    r.headers.emplace_back("content-type", "application/octet-stream");
    r.body.resize(n);
    for (std::size_t i = 0; i < n; ++i) r.body[i] = static_cast<char>('a' + i % 26);
    return r;
}
#endif

struct Route {
    std::string_view path;
    std::string_view method;
    http::Response (*answer)(const http::Request&);
};

constexpr Route kRoutes[] = {
    {"/", "GET", page_html},
    {"/page.js", "GET", page_script},
    {"/page.css", "GET", page_style},
    {"/ping", "GET", ping},
    // ---- POST /redact --------------------------------------------------------
    // Defined in common/service/redact.cpp. CMake sets BX_HAVE_REDACT=1 once that
    // file exists; until then /redact is an unknown route (404).
#if BX_HAVE_REDACT
    {"/redact", "POST", redact},
#endif
    // ---------------------------------------------------------------------------
#ifdef BX_TEST_ROUTES
    {"/__test/echo-length", "POST", echo_length},
    {"/__test/bytes", "GET", bytes},
#endif
};

// The methods a path answers, for Allow: its routes' own, HEAD wherever GET
// is, and OPTIONS everywhere.
std::string allowed_methods(std::string_view path) {
    std::string allowed;
    bool get = false;
    for (const Route& route : kRoutes) {
        if (route.path != path) continue;
        if (!allowed.empty()) allowed += ", ";
        allowed += route.method;
        get = get || route.method == "GET";
    }
    if (allowed.empty()) return allowed;
    if (get) allowed += ", HEAD";
    return allowed + ", OPTIONS";
}

// Answers to /redact echo the caller's text: no cache may keep them.
http::Response uncached(std::string_view path, http::Response response) {
    if (path == "/redact") response.headers.emplace_back("cache-control", "no-store");
    return response;
}

}  // namespace

namespace {

// The answer before the headers every response gets; HEAD is answered as GET.
http::Response route(const http::Request& request, std::string_view path) {
    const std::string allowed = allowed_methods(path);
    if (allowed.empty()) return error_response(404, "no route for " + std::string(path));
    const std::string_view method = request.method == "HEAD" ? std::string_view("GET") : request.method;
    for (const Route& r : kRoutes) {
        if (r.path == path && r.method == method) return r.answer(request);
    }
    if (request.method == "OPTIONS") {
        http::Response r;
        r.status = 204;
        r.headers.emplace_back("allow", allowed);
        return r;
    }
    http::Response r = error_response(
        405, "method " + request.method + " not allowed on " + std::string(path) + "; use " + allowed);
    r.headers.emplace_back("allow", allowed);
    return r;
}

}  // namespace

http::Response handle(const http::Request& request) {
    ++g_instance_requests;
    const std::string_view path = http::path_only(request.path);
    http::Response response = stamped(uncached(path, route(request, path)));
    // HEAD gets what GET would, without the body (RFC 9110, 9.3.2), errors too.
    if (request.method == "HEAD") response.body.clear();
    return response;
}

http::Response reject(int status, std::string_view message) {
    ++g_instance_requests;
    return stamped(error_response(status, message));
}

}  // namespace bx::service
