// The component's one export: wasi:http/incoming-handler@0.2.0#handle.
//
// It converts the host's request resource into a bx::http::Request (reading the
// whole body), lets bx::service::handle answer it, and sends the Response back:
//
//   request  -> method, path-with-query, headers.entries, consume -> stream -> read
//   response -> fields.from-list -> outgoing-response(status) -> body
//            -> response-outparam.set -> write chunks -> drop stream -> finish
//
// Order matters under jco's host: status and headers before
// response-outparam.set, child streams dropped before outgoing-body.finish.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/http/constructors.hpp"
#include "common/http/http.hpp"
#include "common/http/return_area.hpp"
#include "common/http/wasi_imports.hpp"
#include "common/http/wasi_streams.hpp"
#include "common/service/router.hpp"

namespace bx::wasi {
namespace {

// Past the limit we keep draining (and discarding) up to this much, then stop.
constexpr std::size_t kDrainLimit = 8 * http::kMaxRequestBodyBytes;

char* as_pointer(std::int32_t address) {
    return reinterpret_cast<char*>(static_cast<std::uintptr_t>(static_cast<std::uint32_t>(address)));
}

// A host-allocated string: copy it, then free the host's buffer.
std::string take_string(std::int32_t ptr, std::int32_t len) {
    char* data = as_pointer(ptr);
    std::string s(data, static_cast<std::uint32_t>(len));
    std::free(data);
    return s;
}

std::string read_method(std::int32_t request) {
    // Cases of `variant method`, in WIT order; the last one is other(string).
    static constexpr const char* kNames[] = {"GET",     "HEAD",    "POST",  "PUT",  "DELETE",
                                             "CONNECT", "OPTIONS", "TRACE", "PATCH"};
    constexpr std::uint8_t kOther = 9;
    ReturnArea ret;
    abi::incoming_request_method(request, ret.get());
    const std::uint8_t tag = ret.u8(offsets::kTag);
    if (tag == kOther) return take_string(ret.i32(offsets::kPayload), ret.i32(offsets::kPayloadLength));
    return tag < kOther ? kNames[tag] : "";
}

std::string read_path(std::int32_t request) {
    ReturnArea ret;
    abi::incoming_request_path_with_query(request, ret.get());
    if (ret.u8(offsets::kTag) == 0) return "/";  // none: treat as the root
    return take_string(ret.i32(offsets::kPayload), ret.i32(offsets::kPayloadLength));
}

// list<tuple<string, list<u8>>>: 16-byte elements (name ptr, len, value ptr, len).
struct WireField {
    std::int32_t name_ptr, name_len, value_ptr, value_len;
};
static_assert(sizeof(WireField) == 16);

std::vector<http::Header> read_headers(std::int32_t request) {
    const std::int32_t fields = abi::incoming_request_headers(request);
    ReturnArea ret;
    abi::fields_entries(fields, ret.get());
    auto* entries = reinterpret_cast<WireField*>(as_pointer(ret.i32(0)));
    const std::uint32_t count = static_cast<std::uint32_t>(ret.i32(4));
    std::vector<http::Header> headers;
    headers.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        headers.emplace_back(take_string(entries[i].name_ptr, entries[i].name_len),
                             take_string(entries[i].value_ptr, entries[i].value_len));
    }
    std::free(entries);
    abi::drop_fields(fields);
    return headers;
}

// Reads the body into request.body; returns the outcome of reading it.
ReadOutcome read_body(std::int32_t request, std::string& body) {
    ReturnArea consumed;
    abi::incoming_request_consume(request, consumed.get());
    if (!consumed.is_ok()) return ReadOutcome::Failed;
    const std::int32_t incoming_body = consumed.i32(offsets::kPayload);

    ReturnArea streamed;
    abi::incoming_body_stream(incoming_body, streamed.get());
    ReadOutcome outcome = ReadOutcome::Failed;
    if (streamed.is_ok()) {
        const std::int32_t stream = streamed.i32(offsets::kPayload);
        outcome = read_all(stream, http::kMaxRequestBodyBytes, kDrainLimit, body);
        abi::drop_input_stream(stream);  // the child goes before its parent
    }
    abi::drop_incoming_body(incoming_body);
    return outcome;
}

void send(std::int32_t response_out, const http::Response& response) {
    // Headers: one from-list call with pointers into our own strings (the host copies).
    std::vector<WireField> wire;
    wire.reserve(response.headers.size());
    for (const http::Header& h : response.headers) {
        wire.push_back({static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(h.first.data())),
                        static_cast<std::int32_t>(h.first.size()),
                        static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(h.second.data())),
                        static_cast<std::int32_t>(h.second.size())});
    }
    ReturnArea fields;
    abi::fields_from_list(wire.data(), wire.size(), fields.get());
    if (!fields.is_ok()) __builtin_trap();  // a header our router made is invalid: a bug
    const std::int32_t outgoing = abi::outgoing_response_new(fields.i32(offsets::kPayload));
    if (abi::outgoing_response_set_status_code(outgoing, response.status) != 0) __builtin_trap();

    ReturnArea body;
    abi::outgoing_response_body(outgoing, body.get());
    const std::int32_t outgoing_body = body.i32(offsets::kPayload);

    // Hand the response (status + headers) to the host; the body streams after.
    abi::response_outparam_set(response_out, /*is_err=*/0, outgoing, 0, 0, 0, 0, 0, 0);

    ReturnArea writer;
    abi::outgoing_body_write(outgoing_body, writer.get());
    if (writer.is_ok()) {
        const std::int32_t stream = writer.i32(offsets::kPayload);
        write_all(stream, response.body.data(), response.body.size());
        abi::drop_output_stream(stream);
    }
    ReturnArea finished;
    abi::outgoing_body_finish(outgoing_body, /*has_trailers=*/0, 0, finished.get());
}

}  // namespace
}  // namespace bx::wasi

extern "C" __attribute__((export_name("wasi:http/incoming-handler@0.2.0#handle")))
void bx_wasi_http_handle(std::int32_t request, std::int32_t response_out) {
    // No crt1: the global constructors run at the first call (constructors.hpp).
    bx::wasi::run_constructors_once();
    using namespace bx;
    http::Request req;
    req.method = wasi::read_method(request);
    req.path = wasi::read_path(request);
    req.headers = wasi::read_headers(request);
    const wasi::ReadOutcome body = wasi::read_body(request, req.body);
    wasi::abi::drop_incoming_request(request);

    http::Response response;
    switch (body) {
        case wasi::ReadOutcome::Complete: response = service::handle(req); break;
        case wasi::ReadOutcome::TooLarge:
            response = service::reject(413, "request body larger than 8388608 bytes");
            break;
        case wasi::ReadOutcome::Failed:
            response = service::reject(400, "could not read the request body");
            break;
    }
    wasi::send(response_out, response);
}
