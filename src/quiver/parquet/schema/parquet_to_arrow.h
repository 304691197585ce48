// Parquet schema -> Arrow schema, as pyarrow reads it (Arrow C++
// parquet/arrow/schema.cc: FromParquetSchema, SchemaManifest,
// ApplyOriginalMetadata), for the reader.
//
// The result is the Arrow schema the reader returns and, beside it, one
// ReadNode per Arrow array to build: where its slots are in the levels of
// the leaves below it, and for a leaf which column it decodes. The reader's
// assembly reads only these nodes, so every rule about legacy layouts
// (LogicalTypes.md "Backward-compatibility rules": 2-level lists, repeated
// fields without a LIST annotation, `array` / `<name>_tuple` element names,
// MAP_KEY_VALUE) lives here, once.
//
// Levels, per node (level_info.h gives the meaning of LevelInfo). For any
// leaf below a node, a level entry (def, rep) of that leaf
//   - is a slot of the node when rep <= levels.rep_level and
//     def >= levels.repeated_ancestor_def_level;
//   - is a null slot when def < levels.def_level (only when the field is
//     nullable; a non-nullable field's slot under a null ancestor is not
//     null in its own array, its value is zero / empty).
// Lists and maps (kList, kMap) also carry the levels of their repeated
// Parquet node, `repeated`: a slot's first entry starts an element when
// def >= repeated.def_level (else the list is empty or null); each later
// entry with rep == repeated.rep_level starts another element; entries with
// rep > repeated.rep_level continue the current element. The element's own
// node (children[0]) has levels with repeated_ancestor_def_level ==
// repeated.def_level and rep_level == repeated.rep_level.
// A map is a list whose element is the non-nullable struct "entries" of
// (key, value), named after the map as pyarrow names it; a legacy repeated
// field without a LIST annotation is a non-nullable list whose element is
// the repeated node itself (non-nullable).
// Such a list has no Parquet node of its own: its `levels` are those of the
// Parquet parent of the repeated node (all zero at the top level), so that
// its slots are the parent's; `repeated` and its element's levels are the
// repeated node's. Likewise a repeated LIST- or MAP-annotated group that is
// the element of a list (a 2-level list of lists or of maps) is a
// non-nullable list or map whose `levels` are its own.
//
// Types (pyarrow 26's choices, checked against pyarrow in the tests): the
// leaf's Arrow type comes from its logical type, else its converted type,
// else its physical type; a logical type that does not fit the physical
// type is ignored, a converted type that does not fit is an error (as
// pyarrow). Nullability is the Parquet repetition's, always. Then, when the
// file's ARROW:schema is given and has as many top-level fields, it is
// applied field by field by position (names are not compared, as in
// pyarrow): only the restorations pyarrow makes (time zones of UTC
// timestamps, durations, dictionaries, large / view binary types, decimal
// widths, list kinds, map key order, extension types, field metadata), and
// only where CanConvertLeaf says the reader produces the type from the
// stored values. A nested field whose original has another shape keeps its
// children as inferred. Shape mismatches add warnings. The original schema
// is never trusted for sizes.
//
// Extension types: Quiver has no extension type objects; as in its IPC
// reader, an extension field is its storage type with the field metadata
// ARROW:extension:name / ARROW:extension:metadata, which is how the C Data
// Interface carries it (pyarrow rebuilds the extension type from it). UUID
// and JSON logical types read as arrow.uuid / arrow.json that way when
// arrow_extensions_enabled (pyarrow 26's default).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/type.h"

namespace quiver::parquet {

struct ParquetToArrowOptions {
  // pyarrow's coerce_int96_timestamp_unit (default "ns").
  TimeUnit int96_unit = TimeUnit::kNano;
  // pyarrow's read_dictionary (as pq.ParquetFile takes it): leaf columns,
  // by dotted path (ColumnChunkMetaData::dotted_path), whose values are read as
  // dictionary<int32, value type> when that type is binary or string (other
  // leaves, e.g. FIXED_LEN_BYTE_ARRAY or large_binary by binary_type, are
  // read as they are, as pyarrow). A name that is no leaf column (a group,
  // a typo) is Invalid, as pyarrow raises KeyError for it.
  std::vector<std::string> read_dictionary;
  // pyarrow's binary_type (binary, large_binary or binary_view; unset:
  // binary) for BYTE_ARRAY leaves, strings included (string, large_string,
  // string_view), and list_type (list or large_list; unset: list) for every
  // list, legacy ones included (maps stay maps). The type from ARROW:schema
  // wins over both, as in pyarrow.
  std::optional<Type> binary_type;
  std::optional<Type> list_type;
  // pyarrow's arrow_extensions_enabled (default true in pyarrow 26): UUID
  // (FIXED_LEN_BYTE_ARRAY(16)) and JSON leaves carry the arrow.uuid /
  // arrow.json extension metadata.
  bool arrow_extensions_enabled = true;
};

}  // namespace quiver::parquet
