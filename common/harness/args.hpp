// A minimal flag reader for the harness commands: `--name value` and bare
// `--flag`. Unknown flags are errors, so a typo never silently does nothing.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace bx::harness {

class Args {
public:
    Args(int argc, char** argv) : argc_(argc), argv_(argv), used_(static_cast<std::size_t>(argc), false) {
        if (argc > 0) used_[0] = true;  // the command name
    }

    // `--name value`: the value, or `fallback` when the flag is absent.
    std::string value(std::string_view name, std::string_view fallback = {}) {
        for (int i = 1; i + 1 < argc_; ++i) {
            if (name == argv_[i]) {
                used_[i] = used_[i + 1] = true;
                return argv_[i + 1];
            }
        }
        return std::string(fallback);
    }

    long number(std::string_view name, long fallback) {
        const std::string text = value(name);
        return text.empty() ? fallback : std::strtol(text.c_str(), nullptr, 0);
    }

    bool flag(std::string_view name) {
        for (int i = 1; i < argc_; ++i) {
            if (name == argv_[i]) {
                used_[i] = true;
                return true;
            }
        }
        return false;
    }

    // Call after reading every flag: reports leftovers and returns false.
    bool all_used(const char* usage) const {
        for (int i = 0; i < argc_; ++i) {
            if (!used_[static_cast<std::size_t>(i)]) {
                std::fprintf(stderr, "%s: unexpected argument '%s'\nusage: %s %s\n", argv_[0], argv_[i], argv_[0],
                             usage);
                return false;
            }
        }
        return true;
    }

private:
    int argc_;
    char** argv_;
    std::vector<bool> used_;
};

}  // namespace bx::harness
