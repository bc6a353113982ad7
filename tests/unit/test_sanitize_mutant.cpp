// The sanitizer build's mutant: one read past the end of a heap block. Under
// AddressSanitizer (build/sanitize) this must stop with a heap-buffer-overflow
// report; CTest runs it only there ("sanitize: a read past the end is reported"),
// and never registers this file in the plain build, where the read is undefined.
#include <catch2/catch.hpp>

#include <vector>

TEST_CASE("a read one past the end of a vector", "[.][sanitize-mutant]") {
    std::vector<int> values(16, 1);
    const int* volatile data = values.data();
    const int past_the_end = data[values.size()];  // the deliberate break
    CHECK(past_the_end != 12345);
}
