// Fuzz target: the JSON reader and writer (common/json), which every request
// body and tokenizer.json goes through.
//
// Properties, for any bytes:
//   - parse() returns, with no sanitizer report; a refusal has a message and
//     an offset inside the input;
//   - what parses, written again, parses again, and writing that gives the
//     same text (write is a fixed point after one round: numbers keep their
//     source text, strings are re-escaped the one way we write them).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/json/json.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        // Request bodies as clients send them, a slice of every shape, and
        // the escapes the parser decodes.
        seeds = bx::fuzz::handwritten_request_bodies();
        seeds.push_back(R"({"a": [1, -2.5e+3, 0.1, true, false, null, {"b": {}}, []], "c": "\u00e9\ud83d\ude00\n\t\"\\\/"})");
        seeds.push_back(R"([[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]])");
        seeds.push_back(R"("\u0041\u00")");
        seeds.push_back("  {\"text\": \"caf\xC3\xA9\"}  ");
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bx::fuzz::require;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    bx::json::Value value;
    bx::json::Error error;
    if (!bx::json::parse(input, value, error)) {
        require(!error.message.empty(), "a refusal without a message");
        require(error.offset <= size, "a refusal's offset is past the input");
        return 0;
    }
    std::string once;
    bx::json::write(once, value);
    bx::json::Value again;
    if (!bx::json::parse(once, again, error)) {
        bx::fuzz::fail("what we wrote does not parse (" + error.message + "): " + once);
    }
    std::string twice;
    bx::json::write(twice, again);
    require(once == twice, "writing what we read changed it: " + once + " -> " + twice);
    return 0;
}
