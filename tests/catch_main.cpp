// The one translation unit that holds Catch2's main(); the tests are in unit/.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
