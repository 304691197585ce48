// The JSON Lines input of `quiver convert` (.jsonl / .ndjson, also .gz /
// .zst compressed, "-" for stdin, or --input-format jsonl): a BatchSource
// over json::StreamingReader. Of the text-input flags it takes --schema
// (those fields first, in the order given, as pyarrow.json's
// explicit_schema; the others inferred), --infer-rows all (types widened
// over the whole input, which is then held in memory; default: the first
// block), --encoding, --block-size, --threads and --memory-limit; the
// CSV-only flags are refused by name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "batch_source.h"
#include "convert_csv.h"
#include "quiver/util/result.h"

namespace quiver::cli {

Result<std::unique_ptr<BatchSource>> OpenJsonSource(const std::string& path,
                                                    const TextInputFlags& flags,
                                                    int64_t block_size);

}  // namespace quiver::cli
