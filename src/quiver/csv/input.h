// The byte stream of a CSV input: a file, standard input ("-"), or either
// compressed (told by the file name: .gz, .zst / .zstd), decompressed as it
// is read (zlib's inflate; zstd's streaming decoder from the compression
// module) so memory stays at a block; and transcoding to UTF-8 from another
// encoding (iconv, the names iconv knows: latin1, cp1252, utf-16, ...), as
// pyarrow's ReadOptions.encoding.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "quiver/io/interfaces.h"
#include "quiver/util/result.h"

namespace quiver::csv {

enum class Compression { kNone, kGzip, kZstd };

// From the name: "x.csv.gz" -> kGzip, "x.tsv.zst" -> kZstd.
Compression CompressionFromName(std::string_view path);
// The name without a compression suffix ("x.csv.gz" -> "x.csv").
std::string_view StripCompressionSuffix(std::string_view path);

Result<std::unique_ptr<io::InputStream>> MakeDecompressingStream(
    std::unique_ptr<io::InputStream> raw, Compression compression, std::string name);

// `raw` transcoded from `encoding` to UTF-8; NotImplemented (naming it) for
// an encoding iconv does not know.
Result<std::unique_ptr<io::InputStream>> MakeTranscodingStream(
    std::unique_ptr<io::InputStream> raw, const std::string& encoding, std::string name);

bool IsUtf8EncodingName(std::string_view encoding);

// Opens `path` ("-" = standard input), decompressed by its name and
// transcoded from `encoding`.
Result<std::unique_ptr<io::InputStream>> OpenInput(const std::string& path,
                                                   const std::string& encoding = "utf8");

}  // namespace quiver::csv
