// The foundation's own checks: routing and the error format, the clock, the
// SIMD header, the embedded assets.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "common/embed/embedded.hpp"
#include "common/http/http.hpp"
#include "common/service/router.hpp"
#include "common/simd/simd128.hpp"
#include "common/timing/clock.hpp"

namespace {
bx::http::Request request(std::string method, std::string path) {
    bx::http::Request r;
    r.method = std::move(method);
    r.path = std::move(path);
    return r;
}

long long file_size(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return -1;
    std::fseek(f, 0, SEEK_END);
    const long long size = std::ftell(f);
    std::fclose(f);
    return size;
}
}  // namespace

TEST_CASE("GET /ping answers pong", "[router]") {
    const bx::http::Response r = bx::service::handle(request("GET", "/ping?probe=1"));
    CHECK(r.status == 200);
    CHECK(r.body == "pong");
    CHECK(bx::http::find_header(r.headers, "Content-Type") == "text/plain; charset=utf-8");
}

TEST_CASE("unknown routes are 404 with a JSON error", "[router]") {
    const bx::http::Response r = bx::service::handle(request("GET", "/nowhere"));
    CHECK(r.status == 404);
    CHECK(r.body == R"({"error":{"status":404,"message":"no route for /nowhere"}})");
    CHECK(bx::http::find_header(r.headers, "content-type") == "application/json; charset=utf-8");
}

TEST_CASE("a known path with the wrong method is 405 with Allow", "[router]") {
    const bx::http::Response r = bx::service::handle(request("DELETE", "/ping"));
    CHECK(r.status == 405);
    CHECK(bx::http::find_header(r.headers, "allow") == "GET, HEAD, OPTIONS");
    CHECK(r.body.find("\"status\":405") != std::string::npos);
}

TEST_CASE("HEAD is GET without a body; OPTIONS lists the methods", "[router]") {
    const bx::http::Response get = bx::service::handle(request("GET", "/ping"));
    const bx::http::Response head = bx::service::handle(request("HEAD", "/ping"));
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(bx::http::find_header(head.headers, "content-type") == bx::http::find_header(get.headers, "content-type"));
    const bx::http::Response options = bx::service::handle(request("OPTIONS", "/ping"));
    CHECK(options.status == 204);
    CHECK(options.body.empty());
    CHECK(bx::http::find_header(options.headers, "allow") == "GET, HEAD, OPTIONS");
    CHECK(bx::http::find_header(options.headers, "x-content-type-options") == "nosniff");
    const bx::http::Response redact = bx::service::handle(request("OPTIONS", "/redact"));
    CHECK(bx::http::find_header(redact.headers, "allow") == "POST, OPTIONS");
    CHECK(bx::http::find_header(redact.headers, "cache-control") == "no-store");
    CHECK(bx::service::handle(request("OPTIONS", "/nowhere")).status == 404);
    const bx::http::Response head_missing = bx::service::handle(request("HEAD", "/nowhere"));
    CHECK(head_missing.status == 404);
    CHECK(head_missing.body.empty());
    CHECK(bx::service::handle(request("HEAD", "/redact")).body.empty());
}

TEST_CASE("every response counts the instance's requests", "[router]") {
    auto count = [](const bx::http::Response& r) {
        return std::stoll(std::string(bx::http::find_header(r.headers, "x-bx-instance-requests")));
    };
    const long long first = count(bx::service::handle(request("GET", "/ping")));
    const long long second = count(bx::service::reject(413, "too big"));
    CHECK(second == first + 1);  // one process = one "instance": the counter keeps going
}

TEST_CASE("error messages are escaped as JSON strings", "[router]") {
    const bx::http::Response r = bx::service::reject(400, "a \"quoted\"\nline\x01");
    CHECK(r.body == R"({"error":{"status":400,"message":"a \"quoted\"\nline\u0001"}})");
}

TEST_CASE("now_ns is monotonic and in nanoseconds", "[timing]") {
    const std::uint64_t a = bx::now_ns();
    volatile double sink = 0;
    for (int i = 0; i < 100000; ++i) sink = sink + i;
    const std::uint64_t b = bx::now_ns();
    CHECK(b >= a);
    CHECK(b - a < 10'000'000'000ull);  // well under 10 s
}

TEST_CASE("the wasm SIMD128 intrinsics work natively through SIMDe", "[simd]") {
    const v128_t a = wasm_i16x8_make(1, 2, 3, 4, 5, 6, 7, 8);
    const v128_t b = wasm_i16x8_splat(2);
    const v128_t dot = wasm_i32x4_dot_i16x8(a, b);  // pairwise products, summed
    CHECK(wasm_i32x4_extract_lane(dot, 0) == 6);    // 1*2 + 2*2
    CHECK(wasm_i32x4_extract_lane(dot, 3) == 30);   // 7*2 + 8*2
}

TEST_CASE("embedded assets match the files they came from", "[embed]") {
    const long long model = file_size(BX_ROOT "/assets/model/model.bxm");
    const long long tokenizer = file_size(BX_ROOT "/assets/tokenizer/tokenizer.json");
    // The build re-globs the assets before compiling, so the binary embeds
    // exactly the files present now (and empty spans for missing ones).
    CHECK(bx::embedded_model().size() == static_cast<std::size_t>(model < 0 ? 0 : model));
    CHECK(bx::embedded_tokenizer_json().size() ==
          static_cast<std::size_t>(tokenizer < 0 ? 0 : tokenizer));
    CHECK(reinterpret_cast<std::uintptr_t>(bx::embedded_model().data()) % 64 == 0);
}
