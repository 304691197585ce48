// The runs decoders (runs_decoder_internal.h): one adapter per typed decoder
// interface, each forwarding run by run to the page's decoder.
#include "quiver/parquet/reader/runs_decoder_internal.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

namespace quiver::parquet::internal {

// What every adapter shares, over the typed interface Base (BooleanDecoder,
// TypedDecoder<T>, ByteArrayDecoder, FixedLenByteArrayDecoder) it presents:
// the binding, the walk over the runs, skips and dictionary indices.
template <typename Base>
class RunsAdapter : public Base, public RunsDecoder {
 public:
  template <typename... Args>
  explicit RunsAdapter(Args... args) : Base(args...) {}

  Result<Decoder*> Bind(Decoder* inner, const ValueRun* runs, int64_t num_runs) override {
    inner_ = static_cast<Base*>(inner);
    runs_ = runs;
    num_runs_ = num_runs;
    run_ = 0;
    taken_ = 0;
    this->set_encoding(inner->encoding());
    int64_t total = 0;
    for (int64_t i = 0; i < num_runs; ++i) total += runs[i].take;
    this->values_left_ = total;
    return static_cast<Decoder*>(this);
  }

  Status Skip(int64_t n) override {
    return Walk(n, [&](int64_t m, int64_t) { return inner_->Skip(m); });
  }

  Status DecodeIndices(int64_t n, int32_t* out) override {
    return Walk(n, [&](int64_t m, int64_t done) { return inner_->DecodeIndices(m, out + done); });
  }
  int64_t dictionary_length() const override { return inner_->dictionary_length(); }
  std::string_view dictionary_entry(int64_t i) const override {
    return inner_->dictionary_entry(i);
  }
  Decoder::DictionaryBuffers dictionary_buffers() const override {
    return inner_->dictionary_buffers();
  }

 protected:
  Status StartPage(int64_t, const uint8_t*, int64_t) override {
    return Status::Invalid("a runs decoder is bound to a page decoder, not given a page");
  }

  // Calls take(m, done) for the next n taken values, m at a time within a
  // run (done: those of the n before), a run's skip made as it is entered.
  template <typename Take>
  Status Walk(int64_t n, Take&& take) {
    QUIVER_RETURN_NOT_OK(this->CheckWanted(n));
    int64_t done = 0;
    while (done < n) {
      const ValueRun& run = runs_[run_];
      Status st;
      if (taken_ == 0 && run.skip > 0) st = inner_->Skip(run.skip);
      const int64_t m = std::min(n - done, run.take - taken_);
      if (st.ok()) st = take(m, done);
      if (!st.ok()) {
        this->values_left_ = 0;
        return st;
      }
      taken_ += m;
      done += m;
      if (taken_ == run.take) {
        taken_ = 0;
        ++run_;
      }
    }
    this->values_left_ -= n;
    return Status::OK();
  }

  // All the values left, from the start of a run: the page decoder's
  // DecodeRuns over the runs left (one call); false when not so.
  template <typename Out>
  bool AllRunsLeft(int64_t n, Out* out, Status* status) {
    if (taken_ != 0 || n != this->values_left_ || n == 0) return false;
    *status = inner_->DecodeRuns(runs_ + run_, num_runs_ - run_, out);
    run_ = num_runs_;
    this->values_left_ = 0;
    return true;
  }

  // ByteArrayDecoder's one-pass copy (DecodeInto), run by run into the
  // caller's room: the page decoder's value_bytes_bound covers the values
  // taken, and each call writes after the last.
  template <typename End>
  Result<int64_t> Into(int64_t n, int64_t base, End* ends, uint8_t* data) {
    int64_t written = 0;
    QUIVER_RETURN_NOT_OK(Walk(n, [&](int64_t m, int64_t done) -> Status {
      inner_->copied_ascii_ = ByteArrayDecoder::kAsciiUnknown;
      QUIVER_ASSIGN_OR_RAISE(const int64_t bytes,
                             inner_->DecodeInto(m, base + written, ends + done, data + written));
      this->CopiedAscii(inner_->copied_ascii_ == ByteArrayDecoder::kAscii);
      written += bytes;
      return Status::OK();
    }));
    return written;
  }

  Base* inner_ = nullptr;

 private:
  const ValueRun* runs_ = nullptr;
  int64_t num_runs_ = 0;
  int64_t run_ = 0;    // the run being taken
  int64_t taken_ = 0;  // of its values
};

namespace {

class BooleanRuns final : public RunsAdapter<BooleanDecoder> {
 public:
  BooleanRuns() : RunsAdapter(kType, format::Encoding::kPlain) {}
  Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) override {
    return Walk(n, [&](int64_t m, int64_t done) {
      return inner_->Decode(m, out_bits, out_offset + done);
    });
  }
  Status Decode(int64_t n, bool* out) override {
    return Walk(n, [&](int64_t m, int64_t done) { return inner_->Decode(m, out + done); });
  }
};

template <typename T>
class TypedRuns final : public RunsAdapter<TypedDecoder<T>> {
 public:
  TypedRuns() : RunsAdapter<TypedDecoder<T>>(TypedDecoder<T>::kType, format::Encoding::kPlain) {}
  Status Decode(int64_t n, T* out) override {
    Status status;
    if (this->AllRunsLeft(n, out, &status)) return status;
    return this->Walk(n, [&](int64_t m, int64_t done) {
      return this->inner_->Decode(m, out + done);
    });
  }
};

class FlbaRuns final : public RunsAdapter<FixedLenByteArrayDecoder> {
 public:
  explicit FlbaRuns(int type_length) : RunsAdapter(format::Encoding::kPlain, type_length) {}
  Status Decode(int64_t n, uint8_t* out) override {
    Status status;
    if (AllRunsLeft(n, out, &status)) return status;
    const int64_t width = type_length();
    return Walk(n, [&](int64_t m, int64_t done) { return inner_->Decode(m, out + done * width); });
  }
};

class ByteArrayRuns final : public RunsAdapter<ByteArrayDecoder> {
 public:
  ByteArrayRuns() : RunsAdapter(kType, format::Encoding::kPlain) {}

  // Views of DELTA_BYTE_ARRAY values live in the page decoder's buffer
  // only until its next Decode: those are copied here (valid until this
  // decoder's next Decode).
  Status Decode(int64_t n, std::string_view* out) override {
    const bool copy = inner_->encoding() == format::Encoding::kDeltaByteArray;
    if (copy) {
      copied_.clear();
      lengths_.clear();
    }
    QUIVER_RETURN_NOT_OK(Walk(n, [&](int64_t m, int64_t done) -> Status {
      QUIVER_RETURN_NOT_OK(inner_->Decode(m, out + done));
      if (copy) {
        for (int64_t i = 0; i < m; ++i) {
          copied_.insert(copied_.end(), out[done + i].begin(), out[done + i].end());
          lengths_.push_back(static_cast<int64_t>(out[done + i].size()));
        }
      }
      return Status::OK();
    }));
    if (copy) {
      const char* at = copied_.data();
      for (int64_t i = 0; i < n; ++i) {
        const auto length = lengths_[static_cast<size_t>(i)];
        out[i] = std::string_view(at, static_cast<size_t>(length));
        at += length;
      }
    }
    return Status::OK();
  }

  // A bound of the page decoder's (the bytes left in a PLAIN page, n times
  // a dictionary's longest entry) holds for the values taken.
  int64_t value_bytes_bound(int64_t n) const override { return inner_->value_bytes_bound(n); }

 private:
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int32_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }
  Result<int64_t> DecodeInto(int64_t n, int64_t base, int64_t* ends, uint8_t* data) override {
    return Into(n, base, ends, data);
  }

  std::vector<char> copied_;  // DELTA_BYTE_ARRAY values of the last Decode
  std::vector<int64_t> lengths_;
};

}  // namespace

std::unique_ptr<RunsDecoder> RunsDecoder::Make(format::Type type, int type_length) {
  switch (type) {
    case format::Type::kBoolean:
      return std::make_unique<BooleanRuns>();
    case format::Type::kInt32:
      return std::make_unique<TypedRuns<int32_t>>();
    case format::Type::kInt64:
      return std::make_unique<TypedRuns<int64_t>>();
    case format::Type::kInt96:
      return std::make_unique<TypedRuns<Int96>>();
    case format::Type::kFloat:
      return std::make_unique<TypedRuns<float>>();
    case format::Type::kDouble:
      return std::make_unique<TypedRuns<double>>();
    case format::Type::kByteArray:
      return std::make_unique<ByteArrayRuns>();
    case format::Type::kFixedLenByteArray:
      return std::make_unique<FlbaRuns>(type_length);
  }
  return nullptr;
}

}  // namespace quiver::parquet::internal
