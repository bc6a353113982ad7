// The .bxm file layout (assets/model/FORMAT.md) as constants: what the reader
// checks against. Kept apart from the view so tools can share it.
#pragma once

#include <cstdint>
#include <string_view>

namespace bx::bxm {

inline constexpr char kMagic[4] = {'B', 'X', 'M', '1'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 64;
inline constexpr std::size_t kTableEntrySize = 64;
inline constexpr std::size_t kNameSize = 40;   // NUL-padded tensor name
inline constexpr std::size_t kAlignment = 64;  // every tensor starts at a multiple of this

enum class DType : std::uint32_t { F32 = 0, I8 = 1 };

// Header field offsets.
inline constexpr std::size_t kOffMagic = 0, kOffVersion = 4, kOffVocab = 8, kOffMaxPositions = 12,
                             kOffTypeVocab = 16, kOffHidden = 20, kOffLayers = 24, kOffHeads = 28,
                             kOffFfn = 32, kOffLabels = 36, kOffLayerNormEps = 40,
                             kOffTensorCount = 44, kOffLabelBlock = 48, kOffTensorTable = 52,
                             kOffFileSize = 56;

// Tensor table entry field offsets.
inline constexpr std::size_t kEntryDType = 40, kEntryRows = 44, kEntryCols = 48, kEntryOffset = 56;

// Entity types in label order; labels are "O", then B-/I-/E-/S- for each.
inline constexpr std::string_view kEntityTypes[] = {
    "GIVEN_NAME", "SURNAME",  "EMAIL",         "PHONE",          "URL",
    "IP_ADDRESS", "CREDIT_CARD", "BANK_ACCOUNT", "ROUTING_NUMBER", "SSN",
    "TAX_ID",     "GOVERNMENT_ID", "PASSPORT",   "DRIVERS_LICENSE", "BUILDING_NUMBER",
    "STREET_NAME", "SECONDARY_ADDRESS", "CITY",  "STATE",          "ZIP_CODE",
};
inline constexpr char kLabelPrefixes[4] = {'B', 'I', 'E', 'S'};

// Tensors per layer and in all (embeddings 6, per layer 4 x 3 + 2 + 3 + 3 + 2 = 22, classifier 3).
inline constexpr int kTensorsPerLayer = 22;
inline constexpr int kTensorCount = 6 + 6 * kTensorsPerLayer + 3;

}  // namespace bx::bxm
