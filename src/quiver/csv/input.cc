#include "quiver/csv/input.h"

#include <errno.h>
#include <iconv.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "quiver/compression/contexts_internal.h"
#include "quiver/io/file.h"

namespace quiver::csv {

namespace {

constexpr int64_t kInChunk = 256 * 1024;

bool EndsWith(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) {
      return false;
    }
  }
  return true;
}

// A stream that turns input chunks into output bytes through `Step`.
class FilterStream : public io::InputStream {
 public:
  FilterStream(std::unique_ptr<io::InputStream> raw, std::string name)
      : raw_(std::move(raw)), name_(std::move(name)) {}

  Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) override {
    std::string out;
    out.resize(static_cast<size_t>(nbytes));
    size_t produced = 0;
    bool need_more = false;
    while (produced < out.size()) {
      if ((in_pos_ == in_.size() || need_more) && !raw_eof_) {
        QUIVER_ASSIGN_OR_RAISE(auto chunk, raw_->Read(kInChunk));
        if (chunk->size() == 0) {
          raw_eof_ = true;
        } else {
          in_.erase(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(in_pos_));
          in_pos_ = 0;
          in_.insert(in_.end(), chunk->data(), chunk->data() + chunk->size());
        }
        need_more = false;
      }
      size_t consumed = 0, made = 0;
      QUIVER_RETURN_NOT_OK(Step(in_.data() + in_pos_, in_.size() - in_pos_, raw_eof_,
                                reinterpret_cast<uint8_t*>(out.data()) + produced,
                                out.size() - produced, &consumed, &made));
      in_pos_ += consumed;
      produced += made;
      if (consumed == 0 && made == 0) {
        if (raw_eof_) break;
        need_more = true;
      }
    }
    out.resize(produced);
    position_ += static_cast<int64_t>(produced);
    return Buffer::FromString(std::move(out));
  }
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { return raw_->Close(); }
  bool closed() const override { return raw_->closed(); }

 protected:
  // Consumes from in[0, n) and produces into out[0, cap); at the end of the
  // input (`eof`, n == 0) reports truncated data.
  virtual Status Step(const uint8_t* in, size_t n, bool eof, uint8_t* out, size_t cap,
                      size_t* consumed, size_t* produced) = 0;

  std::unique_ptr<io::InputStream> raw_;
  std::string name_;

 private:
  std::vector<uint8_t> in_;
  size_t in_pos_ = 0;
  bool raw_eof_ = false;
  int64_t position_ = 0;
};

class GzipStream final : public FilterStream {
 public:
  using FilterStream::FilterStream;
  ~GzipStream() override {
    if (init_) inflateEnd(&z_);
  }
  Status Init() {
    std::memset(&z_, 0, sizeof(z_));
    if (inflateInit2(&z_, 15 + 32) != Z_OK) return Status::IOError(name_, ": zlib init failed");
    init_ = true;
    return Status::OK();
  }

 protected:
  Status Step(const uint8_t* in, size_t n, bool eof, uint8_t* out, size_t cap, size_t* consumed,
              size_t* produced) override {
    if (done_) {
      // Concatenated gzip members (as gzip -c a b > c.gz) read on.
      if (n == 0) return Status::OK();
      inflateReset(&z_);
      done_ = false;
    }
    z_.next_in = const_cast<uint8_t*>(in);
    z_.avail_in = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    z_.next_out = out;
    z_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    const int rc = inflate(&z_, Z_NO_FLUSH);
    *consumed = n - z_.avail_in - (n - std::min<size_t>(n, 1u << 30));
    *produced = cap - z_.avail_out - (cap - std::min<size_t>(cap, 1u << 30));
    if (rc == Z_STREAM_END) {
      done_ = true;
      return Status::OK();
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return Status::Invalid(name_, ": corrupt gzip data (", z_.msg ? z_.msg : "zlib error", ")");
    }
    if (eof && n == 0 && *produced == 0) {
      return Status::Invalid(name_, ": truncated gzip data");
    }
    return Status::OK();
  }

 private:
  z_stream z_;
  bool init_ = false;
  bool done_ = false;
};

class ZstdStream final : public FilterStream {
 public:
  using FilterStream::FilterStream;

 protected:
  Status Step(const uint8_t* in, size_t n, bool eof, uint8_t* out, size_t cap, size_t* consumed,
              size_t* produced) override {
    if (n == 0 && eof) {
      // Flush what the decoder holds; nothing left and a frame open: truncated.
      auto step = d_.DecompressStep(in, 0, out, cap);
      if (!step.ok()) return Status::Invalid(name_, ": ", step.status().message());
      *consumed = 0;
      *produced = step->produced;
      if (step->produced == 0 && !frame_done_) {
        return Status::Invalid(name_, ": truncated zstd data");
      }
      return Status::OK();
    }
    auto step = d_.DecompressStep(in, n, out, cap);
    if (!step.ok()) return Status::Invalid(name_, ": ", step.status().message());
    *consumed = step->consumed;
    *produced = step->produced;
    if (step->consumed > 0 || step->produced > 0) frame_done_ = step->frame_done;
    return Status::OK();
  }

 private:
  compression::internal::ZstdDecompressor d_;
  bool frame_done_ = true;
};

class IconvStream final : public FilterStream {
 public:
  using FilterStream::FilterStream;
  ~IconvStream() override {
    if (cd_ != reinterpret_cast<iconv_t>(-1)) iconv_close(cd_);
  }
  Status Init(const std::string& encoding) {
    cd_ = iconv_open("UTF-8", encoding.c_str());
    if (cd_ == reinterpret_cast<iconv_t>(-1)) {
      return Status::NotImplemented("encoding '", encoding, "' is not known to iconv");
    }
    encoding_ = encoding;
    return Status::OK();
  }

 protected:
  Status Step(const uint8_t* in, size_t n, bool eof, uint8_t* out, size_t cap, size_t* consumed,
              size_t* produced) override {
    char* src = const_cast<char*>(reinterpret_cast<const char*>(in));
    char* dst = reinterpret_cast<char*>(out);
    size_t src_left = n, dst_left = cap;
    const size_t rc = iconv(cd_, &src, &src_left, &dst, &dst_left);
    *consumed = n - src_left;
    *produced = cap - dst_left;
    if (rc == static_cast<size_t>(-1)) {
      if (errno == EILSEQ) {
        return Status::Invalid(name_, ": byte ", offset_ + static_cast<int64_t>(*consumed),
                               " is not valid ", encoding_);
      }
      if (errno == EINVAL && eof && *consumed == 0 && *produced == 0) {
        return Status::Invalid(name_, ": the input ends inside a ", encoding_, " character");
      }
      // EINVAL: a character continues in the next chunk; E2BIG: output full.
    }
    offset_ += static_cast<int64_t>(*consumed);
    return Status::OK();
  }

 private:
  iconv_t cd_ = reinterpret_cast<iconv_t>(-1);
  std::string encoding_;
  int64_t offset_ = 0;
};

}  // namespace

Compression CompressionFromName(std::string_view path) {
  if (EndsWith(path, ".gz") || EndsWith(path, ".gzip")) return Compression::kGzip;
  if (EndsWith(path, ".zst") || EndsWith(path, ".zstd")) return Compression::kZstd;
  return Compression::kNone;
}

std::string_view StripCompressionSuffix(std::string_view path) {
  for (std::string_view s : {".gz", ".gzip", ".zst", ".zstd"}) {
    if (EndsWith(path, s)) return path.substr(0, path.size() - s.size());
  }
  return path;
}

Result<std::unique_ptr<io::InputStream>> MakeDecompressingStream(
    std::unique_ptr<io::InputStream> raw, Compression compression, std::string name) {
  switch (compression) {
    case Compression::kNone: return raw;
    case Compression::kGzip: {
      auto s = std::make_unique<GzipStream>(std::move(raw), std::move(name));
      QUIVER_RETURN_NOT_OK(s->Init());
      return std::unique_ptr<io::InputStream>(std::move(s));
    }
    case Compression::kZstd:
      return std::unique_ptr<io::InputStream>(
          std::make_unique<ZstdStream>(std::move(raw), std::move(name)));
  }
  return raw;
}

bool IsUtf8EncodingName(std::string_view encoding) {
  std::string e;
  for (char c : encoding) {
    if (c != '-' && c != '_') e += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return e == "utf8";
}

Result<std::unique_ptr<io::InputStream>> MakeTranscodingStream(
    std::unique_ptr<io::InputStream> raw, const std::string& encoding, std::string name) {
  if (IsUtf8EncodingName(encoding)) return raw;
  auto s = std::make_unique<IconvStream>(std::move(raw), std::move(name));
  QUIVER_RETURN_NOT_OK(s->Init(encoding));
  return std::unique_ptr<io::InputStream>(std::move(s));
}

Result<std::unique_ptr<io::InputStream>> OpenInput(const std::string& path,
                                                   const std::string& encoding) {
  std::unique_ptr<io::InputStream> raw;
  const std::string name = path == "-" ? "<stdin>" : path;
  if (path == "-") {
    raw = io::FileInputStream::FromDescriptor(STDIN_FILENO, /*owns_fd=*/false);
  } else {
    QUIVER_ASSIGN_OR_RAISE(auto file, io::FileInputStream::Open(path));
    raw = std::move(file);
  }
  QUIVER_ASSIGN_OR_RAISE(raw, MakeDecompressingStream(std::move(raw), CompressionFromName(path),
                                                      name));
  return MakeTranscodingStream(std::move(raw), encoding, name);
}

}  // namespace quiver::csv
