// Keyword option values of the bindings (write_parquet, ParquetWriter,
// read_table, ParquetFile, ...), checked and converted: a value of the wrong
// kind raises quiver.InvalidError "option NAME: why".
#pragma once

#include <cstdint>
#include <string>

#include <nanobind/nanobind.h>

namespace quiver::python {

namespace nb = nanobind;

[[noreturn]] void BadOption(const std::string& name, const std::string& why);

bool IsStr(nb::handle h);
std::string Str(nb::handle h, const std::string& name);
// An int (not a bool) that fits in 64 bits.
int64_t Int(nb::handle h, const std::string& name);
// An integer that must fit in 32 bits (levels, column indexes).
int32_t Int32(nb::handle h, const std::string& name);
// A container to iterate over (not a string, which would iterate characters).
nb::iterator Iter(nb::handle h, const std::string& name, const char* expected);
nb::dict Dict(nb::handle h, const std::string& name, const char* expected);
bool Bool(nb::handle h, const std::string& name);

}  // namespace quiver::python
