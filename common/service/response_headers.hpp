// What every response says about its body and how a browser may treat it.
// One place, so that the JSON answers, the page and the errors agree.
#pragma once

#include <string_view>

#include "common/http/http.hpp"

namespace bx::service {

// Content types, each with its charset: a browser must never guess one.
inline constexpr std::string_view kJsonType = "application/json; charset=utf-8";
inline constexpr std::string_view kTextType = "text/plain; charset=utf-8";
inline constexpr std::string_view kHtmlType = "text/html; charset=utf-8";
inline constexpr std::string_view kScriptType = "text/javascript; charset=utf-8";
inline constexpr std::string_view kStyleType = "text/css; charset=utf-8";

// The page (GET /) loads its script and style from this origin and talks only
// to it; nothing inline runs, no other origin is reached, no frame may embed it.
// snippet: content-security-policy
inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// end-snippet

// Adds the headers every response carries, errors included: the
// Content-Security-Policy above, `x-content-type-options: nosniff` (the
// declared type is the type) and `referrer-policy: no-referrer`.
void add_security_headers(http::Response& response);

}  // namespace bx::service
