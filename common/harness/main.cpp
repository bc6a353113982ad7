// The stage CLI: `cli <command> [args]`. Commands register themselves (one
// file each, see command.hpp); main only dispatches.
#include <cstdio>
#include <cstring>

#include "common/harness/command.hpp"
#include "common/stage/stage.hpp"

namespace {

void print_usage(const bx::harness::Command& command) {
    std::printf("  %-10.*s %.*s\n", static_cast<int>(command.name.size()), command.name.data(),
                static_cast<int>(command.usage.size()), command.usage.data());
}

int help(const char* program) {
    const std::string_view stage = bx::stage::name();
    std::printf("usage: %s <command> [args...]   (stage %.*s)\ncommands:\n", program,
                static_cast<int>(stage.size()), stage.data());
    bx::harness::for_each_command(print_usage);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
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
