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
#include "common/maths/gelu.hpp"

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

// kernel(values, n) in place on a whole buffer against reference(x) of each
// value: the number of values whose bits differ.
template <typename Kernel, typename Reference>
std::size_t buffer_differences(std::vector<float> values, Kernel kernel, Reference reference) {
    std::vector<float> want(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) want[i] = reference(values[i]);
    kernel(values.data(), values.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < values.size(); ++i) differ += float_bits(values[i]) != float_bits(want[i]) ? 1 : 0;
    return differ;
}

// For the GELU kernels: x whose u = x * kGeluInputScale sits nearest to
// |u| = boundary, and the `reach` patterns on either side, for both signs.
inline void add_gelu_boundary(std::vector<std::uint32_t>& inputs, float boundary, int reach) {
    const std::uint32_t centre = float_bits(boundary / kGeluInputScale);
    for (int d = -reach; d <= reach; ++d) {
        const std::uint32_t b = centre + static_cast<std::uint32_t>(d);
        inputs.push_back(b);
        inputs.push_back(b | 0x80000000u);
    }
}

}  // namespace bx::test
