// The stage CLI: `cli <command> [args]`. Commands register themselves (one
// file each, see command.hpp); main only dispatches.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__wasi__)
#include <unistd.h>
#endif

#include "common/harness/command.hpp"
#include "common/stage/stage.hpp"

namespace {

void print_usage(const bx::harness::Command& command) {
    std::printf("  %-18.*s %.*s\n", static_cast<int>(command.name.size()), command.name.data(),
                static_cast<int>(command.usage.size()), command.usage.data());
}

int help(const char* program) {
    const std::string_view stage = bx::stage::name();
    std::printf("usage: %s <command> [args...]   (stage %.*s)\ncommands:\n", program,
                static_cast<int>(stage.size()), stage.data());
    bx::harness::for_each_command(print_usage);
    return 0;
}

// Under common/host/wasi-run.mjs the guest sees the host's whole file system
// (preopened as "/") and is told the host's working directory: adopting it
// (wasi-libc keeps a current directory of its own) makes relative paths mean
// what they mean natively, and absolute paths work anywhere, so a corpus need
// not live in the repository. Hosts that preopen only "." say nothing, and
// relative paths keep resolving against that preopen.
void adopt_host_directory() {
#if defined(__wasi__)
    const char* host_cwd = std::getenv("BX_HOST_CWD");
    if (host_cwd != nullptr && host_cwd[0] == '/' && chdir(host_cwd) != 0)
        std::fprintf(stderr, "cli: cannot use the host's directory %s; relative paths may not resolve\n", host_cwd);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    adopt_host_directory();
    const char* program = argc > 0 ? argv[0] : "cli";
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
        std::strcmp(argv[1], "help") == 0)
        return argc < 2 ? (help(program), 2) : help(program);
    const bx::harness::Command* command = bx::harness::find_command(argv[1]);
    if (command == nullptr) {
        std::fprintf(stderr, "%s: unknown command '%s' (try --help)\n", program, argv[1]);
        return 2;
    }
    return command->run(argc - 1, argv + 1);
}
