// Raw canonical-ABI imports of the WASI 0.2.0 functions we call, declared by
// hand (no wit-bindgen here). Only the component build includes this file.
//
// How to read a declaration: a WIT function's parameters are "flattened" into
// core wasm values (a resource handle is an i32, a string/list is ptr + len,
// a u64 is i64). A result that does not fit in one core value is written by
// the host into a *return area* in our memory, whose address we pass last.
// The layouts of those return areas are in return_area.hpp. `jco embed --dummy`
// on common/http/wit plus `jco print` lists the core signatures to check against.
//
// Ownership: every `own<T>` handle we receive must be dropped (the
// `[resource-drop]` imports) or passed on; strings and lists the host returns
// were allocated with our cabi_realloc and must be freed with free().
#pragma once

#include <cstddef>
#include <cstdint>

#define BX_WASI_IMPORT(module, name) __attribute__((import_module(module), import_name(name)))

namespace bx::wasi::abi {

extern "C" {

// wasi:clocks/monotonic-clock@0.2.0
BX_WASI_IMPORT("wasi:clocks/monotonic-clock@0.2.0", "now")
std::int64_t monotonic_clock_now();

// wasi:cli/stderr@0.2.0
BX_WASI_IMPORT("wasi:cli/stderr@0.2.0", "get-stderr")
std::int32_t get_stderr();

// wasi:io/error@0.2.0
BX_WASI_IMPORT("wasi:io/error@0.2.0", "[resource-drop]error")
void drop_io_error(std::int32_t error);

// wasi:io/streams@0.2.0
BX_WASI_IMPORT("wasi:io/streams@0.2.0", "[method]input-stream.blocking-read")
void input_stream_blocking_read(std::int32_t self, std::int64_t max_len, void* ret);
BX_WASI_IMPORT("wasi:io/streams@0.2.0", "[method]output-stream.blocking-write-and-flush")
void output_stream_blocking_write_and_flush(std::int32_t self, const void* data,
                                            std::size_t len, void* ret);
BX_WASI_IMPORT("wasi:io/streams@0.2.0", "[resource-drop]input-stream")
void drop_input_stream(std::int32_t stream);
BX_WASI_IMPORT("wasi:io/streams@0.2.0", "[resource-drop]output-stream")
void drop_output_stream(std::int32_t stream);

// wasi:http/types@0.2.0
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[static]fields.from-list")
void fields_from_list(const void* entries, std::size_t count, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]fields.entries")
void fields_entries(std::int32_t self, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[resource-drop]fields")
void drop_fields(std::int32_t fields);

BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]incoming-request.method")
void incoming_request_method(std::int32_t self, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]incoming-request.path-with-query")
void incoming_request_path_with_query(std::int32_t self, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]incoming-request.headers")
std::int32_t incoming_request_headers(std::int32_t self);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]incoming-request.consume")
void incoming_request_consume(std::int32_t self, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[resource-drop]incoming-request")
void drop_incoming_request(std::int32_t request);

BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]incoming-body.stream")
void incoming_body_stream(std::int32_t self, void* ret);
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[resource-drop]incoming-body")
void drop_incoming_body(std::int32_t body);

BX_WASI_IMPORT("wasi:http/types@0.2.0", "[constructor]outgoing-response")
std::int32_t outgoing_response_new(std::int32_t headers);  // consumes `headers`
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]outgoing-response.set-status-code")
std::int32_t outgoing_response_set_status_code(std::int32_t self, std::int32_t status);  // 0 = ok
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]outgoing-response.body")
void outgoing_response_body(std::int32_t self, void* ret);

BX_WASI_IMPORT("wasi:http/types@0.2.0", "[method]outgoing-body.write")
void outgoing_body_write(std::int32_t self, void* ret);
// finish(this, trailers: option<trailers>) -> result<_, error-code>
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[static]outgoing-body.finish")
void outgoing_body_finish(std::int32_t body, std::int32_t has_trailers, std::int32_t trailers,
                          void* ret);

// set(param, response: result<outgoing-response, error-code>): the result is
// flattened to a tag plus the joined payload slots of both cases (the
// error-code variant needs i32, i32, i64, i32 x4 at most).
BX_WASI_IMPORT("wasi:http/types@0.2.0", "[static]response-outparam.set")
void response_outparam_set(std::int32_t param, std::int32_t is_err, std::int32_t payload0,
                           std::int32_t payload1, std::int64_t payload2, std::int32_t payload3,
                           std::int32_t payload4, std::int32_t payload5, std::int32_t payload6);

}  // extern "C"

}  // namespace bx::wasi::abi

#undef BX_WASI_IMPORT
