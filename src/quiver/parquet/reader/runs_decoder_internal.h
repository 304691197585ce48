// Masked reads (ColumnReader::ReadRecordsMasked): a page's values taken in
// runs. A RunsDecoder stands for the page's decoder restricted to a list of
// (skip, take) value runs: bound to the page decoder and the runs, it is
// the Decoder handed to LeafBuilder::Append, which then sees only the taken
// values, in order, in one call for all the runs. Each run's skipped values
// go through the page decoder's Skip (PLAIN fixed widths and BYTE_STREAM_SPLIT
// move a position, PLAIN byte arrays walk the lengths, dictionary indices
// and RLE booleans pass over RLE/bit-packed runs without unpacking them;
// DELTA encodings decode and drop them, which their format requires), the
// taken ones through its Decode / DecodeIndices / DecodeInto. Nothing is
// materialised for the values skipped.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/reader/leaf_builder_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

class RunsDecoder {
 public:
  virtual ~RunsDecoder() = default;

  // Binds to `inner` (the page's decoder, of this decoder's physical type)
  // and runs[0, num_runs) (each with take > 0; kept by the caller until the
  // decoding is done) and returns the decoder of the taken values
  // (values_left(): their sum; the encoding `inner`'s). Decoding all of
  // them leaves `inner` just past the last run's values; an error leaves
  // the decoder empty. Fixed widths decoded all at once go through the page
  // decoder's DecodeRuns (one call for the runs: PLAIN copies them from
  // the page, dictionaries map their indices); otherwise run by run.
  virtual Result<Decoder*> Bind(Decoder* inner, const ValueRun* runs, int64_t num_runs) = 0;

  // The runs decoder of physical type `type` (`type_length`: FLBA width).
  static std::unique_ptr<RunsDecoder> Make(format::Type type, int type_length);
};

}  // namespace quiver::parquet::internal
