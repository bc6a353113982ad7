// The .bxm reader: a valid file opens into pointers that sit where the table
// says; each kind of damage is refused with a message naming it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bxm_test_model.hpp"
#include "common/model/model_view.hpp"

using bx::ModelView;
using bx::test::make_test_model;
using bx::test::TestModel;

namespace {

// Opens `m` (optionally only its first `size` bytes) and returns the error, "" on success.
std::string open_error(const TestModel& m, std::size_t size = 0) {
    std::string error;
    const auto view = ModelView::open(m.bytes(), size ? size : m.size, &error);
    if (view) return "";
    REQUIRE_FALSE(error.empty());
    return error;
}

}  // namespace

TEST_CASE("a valid model opens in place", "[model_view]") {
    TestModel m = make_test_model(8);
    std::string error;
    const auto view = ModelView::open(m.bytes(), m.size, &error);
    REQUIRE(view);
    CHECK(error.empty());
    CHECK(view->vocab == 8);
    CHECK(view->type_vocab == 1);
    CHECK(view->label_names[0] == "O");
    CHECK(view->label_names[1] == "B-GIVEN_NAME");
    CHECK(view->label_names[4] == "S-GIVEN_NAME");
    CHECK(view->label_names[80] == "S-ZIP_CODE");
    // No copies: every pointer is into the buffer, at the table's offset.
    CHECK(reinterpret_cast<const char*>(view->word_w) == m.bytes() + m.offsets[0]);
    CHECK(reinterpret_cast<const char*>(view->cls.bias) == m.bytes() + m.offsets.back());
    CHECK(view->layers[5].ffn_out.w == m.i8("L5.ffn_out.w"));
    CHECK(view->layers[5].ffn_out.rows == bx::kHidden);
    CHECK(view->layers[5].ffn_out.cols == bx::kFfn);
    CHECK(view->layers[2].attn_ln.gamma == m.f32("L2.attn_ln.gamma"));
    CHECK(view->cls.rows == bx::kLabels);
    CHECK(view->label_names[7].data() >= m.bytes());
    CHECK(view->label_names[7].data() < m.bytes() + m.size);
}

TEST_CASE("the committed model opens", "[model_view]") {
    std::FILE* f = std::fopen(BX_ROOT "/assets/model/model.bxm", "rb");
    if (f == nullptr) {
        WARN("assets/model/model.bxm not present; skipped");
        return;
    }
    std::vector<std::uint32_t> storage;
    std::vector<char> chunk(1 << 20);
    std::string bytes;
    std::size_t n;
    while ((n = std::fread(chunk.data(), 1, chunk.size(), f)) > 0) bytes.append(chunk.data(), n);
    std::fclose(f);
    storage.resize((bytes.size() + 3) / 4);
    std::memcpy(storage.data(), bytes.data(), bytes.size());
    std::string error;
    const auto view = ModelView::open(storage.data(), bytes.size(), &error);
    INFO(error);
    REQUIRE(view);
    CHECK(view->vocab > 1000);
}

TEST_CASE("header damage is named", "[model_view]") {
    TestModel m = make_test_model();
    SECTION("magic") {
        m.bytes()[0] = 'X';
        CHECK_THAT(open_error(m), Catch::Contains("magic"));
    }
    SECTION("version") {
        m.put_u32(4, 2);
        CHECK_THAT(open_error(m), Catch::Contains("version 2"));
    }
    SECTION("hidden size") {
        m.put_u32(20, 768);
        CHECK_THAT(open_error(m), Catch::Contains("hidden = 768"));
    }
    SECTION("tensor count") {
        m.put_u32(44, 140);
        CHECK_THAT(open_error(m), Catch::Contains("n_tensors = 140"));
    }
    SECTION("type_vocab") {
        m.put_u32(16, 3);
        CHECK_THAT(open_error(m), Catch::Contains("type_vocab = 3"));
    }
    SECTION("layer norm epsilon") {
        const float eps = 1e-5f;
        std::memcpy(m.bytes() + 40, &eps, 4);
        CHECK_THAT(open_error(m), Catch::Contains("layer_norm_eps"));
    }
    SECTION("file size field") {
        m.put_u32(56, static_cast<std::uint32_t>(m.size + 64));
        CHECK_THAT(open_error(m), Catch::Contains("header says the file is"));
    }
    SECTION("truncated below the header") {
        CHECK_THAT(open_error(m, 10), Catch::Contains("shorter than the 64-byte header"));
    }
    SECTION("truncated file") {
        CHECK_THAT(open_error(m, m.size - 64), Catch::Contains("header says the file is"));
    }
    SECTION("label name") {
        // Label 1 starts right after "O": u16 length 1, 'O', then u16 12, "B-GIVEN_NAME".
        char* first = m.bytes() + 64 + 3 + 2;
        REQUIRE(std::memcmp(first, "B-GIVEN_NAME", 12) == 0);
        first[0] = 'X';
        CHECK_THAT(open_error(m), Catch::Contains("label 1 is \"X-GIVEN_NAME\""));
    }
    SECTION("misaligned pointer") {
        std::vector<char> copy(m.size + 1);
        std::memcpy(copy.data() + 1, m.bytes(), m.size);
        std::string error;
        CHECK_FALSE(ModelView::open(copy.data() + 1, m.size, &error));
        CHECK_THAT(error, Catch::Contains("not 4-byte aligned"));
    }
}

TEST_CASE("tensor table damage is named", "[model_view]") {
    TestModel m = make_test_model();
    const int q = m.index_of("L3.q.w");
    REQUIRE(q > 0);
    SECTION("name") {
        m.bytes()[m.entry(q) + 3] = 'k';  // "L3.q.w" -> "L3.k.w"
        CHECK_THAT(open_error(m), Catch::Contains("name \"L3.k.w\", expected \"L3.q.w\""));
    }
    SECTION("dtype") {
        m.put_u32(m.entry(q) + 40, 0);
        CHECK_THAT(open_error(m), Catch::Contains("L3.q.w: dtype 0, expected 1"));
    }
    SECTION("shape") {
        m.put_u32(m.entry(q) + 44, 383);
        CHECK_THAT(open_error(m), Catch::Contains("L3.q.w: shape 383 x 384"));
    }
    SECTION("alignment") {
        m.put_u32(m.entry(q) + 56, static_cast<std::uint32_t>(m.offsets[q] + 4));
        CHECK_THAT(open_error(m), Catch::Contains("not a multiple of 64"));
    }
    SECTION("bounds") {
        m.put_u32(m.entry(q) + 56, static_cast<std::uint32_t>(m.size - 64));
        CHECK_THAT(open_error(m), Catch::Contains("run past the end"));
    }
    SECTION("overlap with the table") {
        m.put_u32(m.entry(q) + 56, 0);
        CHECK_THAT(open_error(m), Catch::Contains("overlaps the header"));
    }
    SECTION("no error pointer is fine") {
        m.bytes()[0] = 'X';
        CHECK_FALSE(ModelView::open(m.bytes(), m.size, nullptr));
    }
}
