// What POST /redact accepts, decided before any tokenizer or model work.
//
// A request is refused, in this order (the first failing rule answers):
//   415  a Content-Type is present and is not JSON. JSON means the media type
//        application/json or application/<anything>+json (case-insensitive,
//        parameters allowed); a charset parameter, if any, must be utf-8.
//        No Content-Type at all is accepted: the body is read as JSON anyway.
//        (curl -d sends application/x-www-form-urlencoded unless told
//        otherwise; the message says to add -H 'Content-Type: application/json'.)
//   400  the body is not valid UTF-8 (the message gives the first bad byte)
//   413  the body holds more than kMaxBodyValues JSON values: the parser
//        stops counting there, before building more, so no body shape within
//        the transport limit can take the instance past its memory
//   400  the body is not valid JSON (the message gives line, column and byte)
//   400  the JSON is not an object, or it holds a key twice (named in the
//        message: JSON readers disagree about which value wins)
//   400  there is no "text", or "text" is not a string
//   413  "text" is longer than kMaxTextBytes bytes of UTF-8 (after JSON
//        unescaping). This is the service's own limit, separate from the
//        transport limit (bx::http::kMaxRequestBodyBytes, 8 MiB of body) that
//        the HTTP glue enforces before routing: the body may be larger than the
//        text (escapes, other members), and the text limit bounds the work.
//   400  "min_score" is present and is not a number from 0 to 1. It is
//        optional: without it the service reports entities scoring at least
//        kDefaultMinScore (entities.hpp); 0 reports every entity found.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/service/entities.hpp"
#include "common/service/service_error.hpp"

namespace bx::service {

// 64 KiB of text is about 16,000 tokens, about 85 windows: tens of seconds of
// forward passes at stage 00, so anything longer is better split by the caller.
inline constexpr std::size_t kMaxTextBytes = 64u * 1024u;

// The JSON values a request body may hold (keys count too). A request needs
// three; 65,536 leaves room for whatever else a client sends, and at about 50
// bytes a value it bounds the parse at a few MiB whatever the body's shape.
inline constexpr std::size_t kMaxBodyValues = 65536;

struct RedactRequest {
    std::string text;    // the text to redact, valid UTF-8
    float min_score = kDefaultMinScore;  // entities scoring less are not reported
    ServiceError error;  // status 0 when the request is acceptable
};

// content_type: the Content-Type header's value, empty when absent.
RedactRequest parse_redact_request(std::string_view content_type, std::string_view body);

// The checks that apply to text that arrives without JSON (the harness reads
// it from stdin): valid UTF-8 and at most kMaxTextBytes.
ServiceError check_text(std::string_view text);

// The Content-Type rule alone (415), for tests and for the router.
ServiceError check_content_type(std::string_view content_type);

}  // namespace bx::service
