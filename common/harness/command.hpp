// Harness subcommands register themselves here, one file per command, so a new
// command is a new file and nothing else changes. The harness sources are
// compiled straight into each stage's CLI executable (not through a static
// library), so these static registrations are never dropped by the linker.
#pragma once

#include <string_view>

namespace bx::harness {

using CommandFn = int (*)(int argc, char** argv);  // argv[0] is the command name

struct Command {
    std::string_view name;
    std::string_view usage;
    CommandFn run;
};

// Adds a command to the registry; returns true so it can seed a static.
bool register_command(const Command& command);

// nullptr when no command has that name.
const Command* find_command(std::string_view name);

// Calls `visit` for every registered command, sorted by name (for --help).
void for_each_command(void (*visit)(const Command&));

}  // namespace bx::harness

#define BX_HARNESS_COMMAND(ident, usage_text, fn) BX_HARNESS_COMMAND_NAMED(ident, #ident, usage_text, fn)
// A command whose name is not an identifier (check-tok, check-gelu, ...).
#define BX_HARNESS_COMMAND_NAMED(ident, name, usage_text, fn)                       \
    static const bool bx_registered_command_##ident =                               \
        ::bx::harness::register_command({name, usage_text, fn})
