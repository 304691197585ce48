// The gear hash tables of content-defined chunking (docs/cdc.md): 8 tables
// of 256 64-bit values, one per "run" of consecutive mask matches. Generated
// by generate_gear_table.py.
#pragma once

#include <cstdint>

namespace quiver::parquet::cdc {

inline constexpr int kGearTables = 8;
extern const uint64_t kGearTable[kGearTables][256];

}  // namespace quiver::parquet::cdc
