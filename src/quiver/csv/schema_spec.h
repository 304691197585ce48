// The column types of `quiver convert --schema`: a comma-separated list of
// NAME:TYPE, e.g. "a:int32,b:timestamp[ms],c:string". A NAME holding ':'
// or ',' is written in double quotes ("a:b":int64; "" inside is one ").
// TYPE is Arrow's text form of: null, bool, int8/16/32/64, uint8/16/32/64,
// float (float32), double (float64), string (utf8), large_string,
// binary, large_binary, date32, date64, time32[s|ms], time64[us|ns],
// timestamp[s|ms|us|ns] and timestamp[UNIT, tz=UTC] (values then need a zone
// offset and are stored in UTC). Columns not named are inferred.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "quiver/array/type.h"
#include "quiver/util/result.h"

namespace quiver::csv {

Result<TypePtr> ParseTypeName(std::string_view text);
Result<std::map<std::string, TypePtr>> ParseSchemaSpec(std::string_view spec);

}  // namespace quiver::csv
