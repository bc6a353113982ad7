// See page.hpp. The files are embedded relative to this source file; CMake
// lists them as dependencies of this object, so an edit rebuilds it.
#include "common/service/page.hpp"

#include <string>
#include <string_view>

#include "common/service/response_headers.hpp"

#pragma clang diagnostic ignored "-Wc23-extensions"  // #embed is C23; the build is clang-only

namespace bx::service {

namespace {

constexpr char kIndexHtml[] = {
#embed "page/index.html"
};
constexpr char kPageJs[] = {
#embed "page/page.js"
};
constexpr char kPageCss[] = {
#embed "page/page.css"
};

template <std::size_t N>
http::Response file(const char (&bytes)[N], std::string_view type) {
    http::Response r;
    r.headers.emplace_back("content-type", std::string(type));
    // The page is part of the component: a new deployment may change it.
    r.headers.emplace_back("cache-control", "no-cache");
    r.body.assign(bytes, N);
    return r;
}

}  // namespace

http::Response page_html(const http::Request&) { return file(kIndexHtml, kHtmlType); }
http::Response page_script(const http::Request&) { return file(kPageJs, kScriptType); }
http::Response page_style(const http::Request&) { return file(kPageCss, kStyleType); }

}  // namespace bx::service
