// Files for the reader's tests: a table written by Quiver's writer into
// memory, and bytes seen as a RandomAccessFile (with a name for messages).
#pragma once

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "quiver/io/memory.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::parquet::testing {

inline std::shared_ptr<Buffer> WriteToBuffer(const Table& table, WriterOptions options = {}) {
  io::BufferOutputStream sink;
  auto writer = FileWriter::Open(&sink, table.schema(), std::move(options));
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return nullptr;
  EXPECT_TRUE((*writer)->WriteTable(table).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  auto buffer = sink.Finish();
  EXPECT_TRUE(buffer.ok());
  return *buffer;
}

inline std::shared_ptr<io::RandomAccessFile> AsFile(std::shared_ptr<Buffer> bytes,
                                                    std::string name = "test.parquet") {
  return std::make_shared<io::BufferReader>(std::move(bytes), std::move(name));
}
inline std::shared_ptr<io::RandomAccessFile> AsFile(const std::string& bytes,
                                                    std::string name = "test.parquet") {
  return AsFile(Buffer::FromString(bytes), std::move(name));
}

}  // namespace quiver::parquet::testing
