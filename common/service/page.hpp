// GET /, /page.js, /page.css: a small page to try the service in a browser.
//
// The three files in common/service/page/ are compiled into the component
// (#embed), so the page works offline and needs no other origin: a text box,
// the text with its entities highlighted, the redacted text, the entity list
// and the request's Server-Timing phases as bars. It calls POST /redact.
#pragma once

#include "common/http/http.hpp"

namespace bx::service {

http::Response page_html(const http::Request& request);
http::Response page_script(const http::Request& request);
http::Response page_style(const http::Request& request);

}  // namespace bx::service
