// For the unit tests of vector kernels of one f32 (stage 07's GELU, stage
// 10's exp): every input of a list in every lane position, next to three
// other inputs of the list, through the kernel, compared bit for bit with the
// scalar reference. A kernel that treats one lane, or one neighbour, wrongly
// shows up as a difference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/maths/bits.hpp"

namespace bx::test {

// kernel(values, 4) in place; reference(x) the scalar result.
template <typename Kernel, typename Reference>
std::size_t differences_in_every_lane(const std::vector<std::uint32_t>& inputs, Kernel kernel, Reference reference) {
    std::size_t differ = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (std::size_t lane = 0; lane < 4; ++lane) {
            float group[4];
            for (std::size_t l = 0; l < 4; ++l)
                group[l] = float_from_bits(inputs[(i + (l + 4 - lane) % 4 * 7919) % inputs.size()]);
            float out[4] = {group[0], group[1], group[2], group[3]};
            kernel(out, std::size_t{4});
            for (std::size_t l = 0; l < 4; ++l)
                if (float_bits(out[l]) != float_bits(reference(group[l]))) ++differ;
        }
    }
    return differ;
}

}  // namespace bx::test
