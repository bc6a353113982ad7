// The command registry. Registrations run from static initialisers in other
// translation units, in no particular order, so the table lives in a function
// (built on first use) rather than in a global that might not exist yet.
#include "common/harness/command.hpp"

#include <algorithm>
#include <vector>

namespace bx::harness {
namespace {

std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}

}  // namespace

bool register_command(const Command& command) {
    registry().push_back(command);
    return true;
}

const Command* find_command(std::string_view name) {
    for (const Command& command : registry())
        if (command.name == name) return &command;
    return nullptr;
}

void for_each_command(void (*visit)(const Command&)) {
    std::vector<Command> sorted = registry();
    std::sort(sorted.begin(), sorted.end(),
              [](const Command& a, const Command& b) { return a.name < b.name; });
    for (const Command& command : sorted) visit(command);
}

}  // namespace bx::harness
