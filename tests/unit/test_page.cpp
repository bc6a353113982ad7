// GET / and its two files, and the headers every response carries (the page's
// Content-Security-Policy must hold for errors too: a browser may render them).
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "common/http/http.hpp"
#include "common/service/router.hpp"

namespace {
bx::http::Request get(std::string path) {
    bx::http::Request r;
    r.method = "GET";
    r.path = std::move(path);
    return r;
}

std::string_view header(const bx::http::Response& r, std::string_view name) {
    return bx::http::find_header(r.headers, name);
}

void check_security_headers(const bx::http::Response& r) {
    const std::string_view csp = header(r, "content-security-policy");
    CHECK(csp.find("default-src 'none'") != std::string_view::npos);
    CHECK(csp.find("script-src 'self'") != std::string_view::npos);
    CHECK(csp.find("style-src 'self'") != std::string_view::npos);
    CHECK(csp.find("connect-src 'self'") != std::string_view::npos);
    CHECK(csp.find("unsafe-inline") == std::string_view::npos);
    CHECK(header(r, "x-content-type-options") == "nosniff");
    CHECK(header(r, "content-type").find("charset=utf-8") != std::string_view::npos);
}
}  // namespace

TEST_CASE("GET / answers the page, which loads only its own script and style", "[page]") {
    const bx::http::Response r = bx::service::handle(get("/"));
    CHECK(r.status == 200);
    CHECK(header(r, "content-type") == "text/html; charset=utf-8");
    check_security_headers(r);
    CHECK(r.body.starts_with("<!doctype html>"));
    CHECK(r.body.find("<script src=\"/page.js\"") != std::string::npos);
    CHECK(r.body.find("href=\"/page.css\"") != std::string::npos);
    // Nothing inline that the policy would block, and no other origin.
    CHECK(r.body.find("<script>") == std::string::npos);
    CHECK(r.body.find("style=") == std::string::npos);
    CHECK(r.body.find("http://") == std::string::npos);
    CHECK(r.body.find("https://") == std::string::npos);
}

TEST_CASE("the page's script and style have their own types", "[page]") {
    const bx::http::Response js = bx::service::handle(get("/page.js"));
    CHECK(js.status == 200);
    CHECK(header(js, "content-type") == "text/javascript; charset=utf-8");
    CHECK(js.body.find("fetch('/redact'") != std::string::npos);
    // User text is placed as text, never parsed as HTML.
    CHECK(js.body.find("innerHTML") == std::string::npos);
    CHECK(js.body.find("insertAdjacentHTML") == std::string::npos);
    check_security_headers(js);
    const bx::http::Response css = bx::service::handle(get("/page.css"));
    CHECK(css.status == 200);
    CHECK(header(css, "content-type") == "text/css; charset=utf-8");
    check_security_headers(css);
}

TEST_CASE("errors carry the same security headers", "[page]") {
    check_security_headers(bx::service::handle(get("/nowhere")));
    check_security_headers(bx::service::reject(413, "too big"));
    bx::http::Request post = get("/");
    post.method = "POST";
    const bx::http::Response r = bx::service::handle(post);
    CHECK(r.status == 405);
    CHECK(header(r, "allow") == "GET, HEAD, OPTIONS");
    check_security_headers(r);
}
