// `cli redact`: the service's answer without HTTP. Reads text from stdin and
// prints what POST /redact would answer for {"text": <that text>}; with
// `--jsonl FILE` (`-` for stdin), answers every non-blank line of FILE as a
// request body, one JSON line each (errors included, in the service's own error format). The
// Server-Timing line goes to stderr, as the component logs it.
// Exit status: 0 when every answer was 200, 1 otherwise, 2 for usage errors.
#include <cstdio>
#include <string>
#include <string_view>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/files.hpp"
#include "common/service/redact.hpp"

namespace {

constexpr const char* kUsage =
    "[--jsonl FILE|-] [--tokens]  text on stdin (or one {\"text\"} per line) -> JSON; --tokens adds the labelled "
    "tokens";

bool read_stdin(std::string& out) {
    char buffer[1 << 16];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) out.append(buffer, n);
    return std::ferror(stdin) == 0;
}

bool is_blank(std::string_view line) {
    for (char c : line) {
        if (c != ' ' && c != '\t' && c != '\r') return false;
    }
    return true;
}

// Prints one reply as a line; true if it was a success.
bool print(const bx::service::ServiceReply& reply) {
    std::fwrite(reply.body.data(), 1, reply.body.size(), stdout);
    std::fputc('\n', stdout);
    return reply.status == 200;
}

int run_jsonl(const std::string& path, bool tokens) {
    std::string bytes, error;
    if (path == "-") {
        if (!read_stdin(bytes)) {
            std::fprintf(stderr, "redact: could not read stdin\n");
            return 2;
        }
    } else if (!bx::harness::read_file(path, bytes, &error)) {
        std::fprintf(stderr, "redact: %s\n", error.c_str());
        return 2;
    }
    bool all_ok = true;
    std::size_t start = 0;
    while (start < bytes.size()) {
        std::size_t end = bytes.find('\n', start);
        if (end == std::string::npos) end = bytes.size();
        const std::string_view line(bytes.data() + start, end - start);
        start = end + 1;
        if (is_blank(line)) continue;
        // No Content-Type: a JSONL line is JSON by construction.
        all_ok = print(bx::service::redact_body({}, line, tokens)) && all_ok;
    }
    return all_ok ? 0 : 1;
}

int redact_command(int argc, char** argv) {
    bx::harness::Args args(argc, argv);
    const std::string jsonl = args.value("--jsonl");
    const bool tokens = args.flag("--tokens");
    if (!args.all_used(kUsage)) return 2;
    if (!jsonl.empty()) return run_jsonl(jsonl, tokens);

    std::string text;
    if (!read_stdin(text)) {
        std::fprintf(stderr, "redact: could not read stdin\n");
        return 2;
    }
    return print(bx::service::redact_plain_text(text)) ? 0 : 1;
}

}  // namespace

BX_HARNESS_COMMAND(redact, kUsage, redact_command);
