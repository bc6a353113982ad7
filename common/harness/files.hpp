// Whole-file reads and writes for the harness (stdio: works the same under
// WASI preview1 and natively).
#pragma once

#include <string>
#include <string_view>

namespace bx::harness {

// On failure: false, and *error names the file and the reason.
bool read_file(const std::string& path, std::string& out, std::string* error);
bool write_file(const std::string& path, std::string_view bytes, std::string* error);
bool file_exists(const std::string& path);

}  // namespace bx::harness
