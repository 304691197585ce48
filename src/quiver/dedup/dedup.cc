// Page-level and byte-level dedup measurement (see dedup.h).
#include "quiver/dedup/dedup.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <xxhash.h>

namespace quiver::dedup {

namespace {

// A read-only private mapping of a whole file (nothing mapped when empty).
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(data_, static_cast<size_t>(size_));
  }

  Status Open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::IOError("cannot open '", path, "': ", std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return Status::IOError("cannot stat '", path, "': ", std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return Status::IOError("'", path, "' is not a regular file");
    }
    size_ = static_cast<int64_t>(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, static_cast<size_t>(size_), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        const int err = errno;
        ::close(fd);
        size_ = 0;
        return Status::IOError("cannot map '", path, "': ", std::strerror(err));
      }
      data_ = p;
    }
    ::close(fd);
    return Status::OK();
  }

  const uint8_t* data() const {
    static const uint8_t kEmpty = 0;
    return data_ != nullptr ? static_cast<const uint8_t*>(data_) : &kEmpty;
  }
  int64_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace

ContentKey HashContent(const uint8_t* data, int64_t size) {
  const XXH128_hash_t h = XXH3_128bits(data, static_cast<size_t>(size));
  return ContentKey{h.low64, h.high64, size};
}

int64_t FileDigest::page_bytes() const {
  int64_t total = 0;
  for (const auto& page : pages) total += page.size;
  return total;
}

double SharedStats::shared_ratio() const {
  return bytes == 0 ? 0.0 : static_cast<double>(shared_bytes) / static_cast<double>(bytes);
}

Result<FileDigest> DigestFile(const FileBytes& file, const DedupOptions& options) {
  if (file.size < 0 || (file.size > 0 && file.data == nullptr)) {
    return Status::Invalid("'", file.name, "': invalid input buffer (size ", file.size, ")");
  }
  FileDigest digest;
  digest.name = file.name;
  digest.file_size = file.size;
  if (options.page_level) {
    auto listed = ReadParquetPages(file.data, file.size);
    if (!listed.ok()) return listed.status().WithContext("'", file.name, "': ");
    digest.pages.reserve(listed->pages.size());
    digest.page_columns.reserve(listed->pages.size());
    for (const PageSpan& page : listed->pages) {
      digest.pages.push_back(HashContent(file.data + page.offset, page.size));
      digest.page_columns.push_back(page.column);
    }
    digest.column_paths = std::move(listed->column_paths);
    digest.has_pages = true;
  }
  auto ends = ChunkBytes(file.data, file.size, options.chunker);
  if (!ends.ok()) return ends.status().WithContext("'", file.name, "': ");
  digest.chunks.reserve(ends->size());
  int64_t start = 0;
  for (int64_t end : *ends) {
    digest.chunks.push_back(HashContent(file.data + start, end - start));
    start = end;
  }
  return digest;
}

Result<FileDigest> DigestPath(const std::string& path, const DedupOptions& options) {
  MappedFile file;
  QUIVER_RETURN_NOT_OK(file.Open(path));
  return DigestFile(FileBytes{path, file.data(), file.size()}, options);
}

void DedupIndex::Add(const FileDigest& digest) {
  for (const ContentKey& key : digest.pages) {
    if (pages_.insert(key).second) distinct_page_bytes_ += key.size;
  }
  for (const ContentKey& key : digest.chunks) {
    if (chunks_.insert(key).second) distinct_chunk_bytes_ += key.size;
  }
  all_have_pages_ = all_have_pages_ && digest.has_pages;
  ++num_files_;
  total_size_ += digest.file_size;
}

DedupReport DedupIndex::Compare(const FileDigest& target) const {
  DedupReport report;
  report.target = target.name;
  report.target_size = target.file_size;
  report.base_files = num_files_;
  report.base_size = total_size_;
  auto measure = [](const std::vector<ContentKey>& keys, const auto& held) {
    SharedStats stats;
    for (const ContentKey& key : keys) {
      ++stats.count;
      stats.bytes += key.size;
      if (held.count(key) != 0) {
        ++stats.shared_count;
        stats.shared_bytes += key.size;
      }
    }
    return stats;
  };
  report.has_page_level = target.has_pages && all_have_pages_;
  if (report.has_page_level) {
    report.pages = measure(target.pages, pages_);
    // Per column: later row groups may (in a malformed file) have more
    // columns than the first, whose paths are known.
    const size_t per_column =
        target.page_columns.size() == target.pages.size() ? target.pages.size() : 0;
    for (size_t i = 0; i < per_column; ++i) {
      const auto column = static_cast<size_t>(target.page_columns[i]);
      while (report.page_columns.size() <= column) {
        const size_t c = report.page_columns.size();
        report.page_columns.push_back(ColumnShare{
            c < target.column_paths.size() ? target.column_paths[c] : "column " + std::to_string(c),
            SharedStats{}});
      }
      SharedStats& stats = report.page_columns[column].pages;
      const ContentKey& key = target.pages[i];
      ++stats.count;
      stats.bytes += key.size;
      if (pages_.count(key) != 0) {
        ++stats.shared_count;
        stats.shared_bytes += key.size;
      }
    }
  }
  report.chunks = measure(target.chunks, chunks_);
  return report;
}

Result<DedupReport> CompareFiles(const std::vector<FileBytes>& base, const FileBytes& target,
                                 const DedupOptions& options) {
  DedupIndex index;
  for (const FileBytes& file : base) {
    QUIVER_ASSIGN_OR_RAISE(auto digest, DigestFile(file, options));
    index.Add(digest);
  }
  QUIVER_ASSIGN_OR_RAISE(auto digest, DigestFile(target, options));
  return index.Compare(digest);
}

Result<DedupReport> ComparePaths(const std::vector<std::string>& base, const std::string& target,
                                 const DedupOptions& options) {
  DedupIndex index;
  for (const std::string& path : base) {
    QUIVER_ASSIGN_OR_RAISE(auto digest, DigestPath(path, options));
    index.Add(digest);
  }
  QUIVER_ASSIGN_OR_RAISE(auto digest, DigestPath(target, options));
  return index.Compare(digest);
}

}  // namespace quiver::dedup
