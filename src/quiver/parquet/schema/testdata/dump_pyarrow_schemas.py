#!/usr/bin/env python3
"""Writes schema_files/*.parquet and pyarrow_schemas.json: the Arrow schema
pyarrow reads from every file parquet_to_arrow_files_test.cc converts.

The files are testdata/parquet-testing/*.parquet (and geospatial/),
testdata/quiver/*.parquet and the files this script writes into
schema_files/ (named relative to testdata/ and to this folder):
  - pa_*.parquet: tables pyarrow writes (every Arrow type it can write,
    nested lists / maps / structs, dictionaries, time zones, large and view
    types, durations, extension types, field and file metadata), with and
    without ARROW:schema (store_schema=False), legacy 2-level lists
    (use_compliant_nested_type=False), INT96, coerced timestamps, Parquet
    1.0 type mapping, an ARROW:schema that does not match (field count,
    names, undecodable), an unregistered extension type. A few rows each.
  - craft_*.parquet: footers written here byte by byte (a schema and no row
    group), for what pyarrow does not write: legacy list and map shapes
    (LogicalTypes.md, "Backward-compatibility rules"), annotations that do
    not fit their physical type, invalid decimals, converted types only,
    field ids, unknown logical types, and an ARROW:schema whose types differ
    from the stored ones (which of them pyarrow restores).
For each file, pyarrow_schemas.json holds pq.read_schema(path) as JSON
(field names, types as str(type) for leaves, nullability, metadata,
extension names, children), or pyarrow's error; and for some files
pq.ParquetFile(path, <option>=...).schema_arrow under read_dictionary,
binary_type, list_type, coerce_int96_timestamp_unit and
arrow_extensions_enabled.

Usage (from the repository root; rewrites schema_files/ and the JSON):
  .venv/bin/python src/quiver/parquet/schema/testdata/dump_pyarrow_schemas.py
"""

import base64
import decimal
import glob
import json
import os
import shutil
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", ".."))
TESTDATA = os.path.join(REPO, "testdata")
FILES = os.path.join(HERE, "schema_files")
sys.path.insert(0, os.path.join(REPO, "python", "tests"))

from hostile_parquet import (BINARY, BYTE, FALSE, I32, I64, LIST, STRUCT, TRUE,  # noqa: E402
                             parquet_file, tstruct)

# --- Footers by hand (parquet.thrift: FileMetaData, SchemaElement, LogicalType) ---

BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FLBA = range(8)
REQ, OPT, REP = 0, 1, 2
EMPTY = tstruct()


def _unit(unit):
    return tstruct(({"ms": 1, "us": 2, "ns": 3}[unit], STRUCT, EMPTY))


def _member(field_id, value=EMPTY):
    return tstruct((field_id, STRUCT, value))


def _adjusted(field_id, utc, unit):
    fields = [(1, TRUE if utc else FALSE, None)]
    if unit is not None:
        fields.append((2, STRUCT, _unit(unit) if unit != "none" else EMPTY))
    return _member(field_id, tstruct(*fields))


# LogicalType union members (field ids of parquet.thrift).
LT = {
    "STRING": lambda: _member(1), "MAP": lambda: _member(2), "LIST": lambda: _member(3),
    "ENUM": lambda: _member(4),
    "DECIMAL": lambda p, s: _member(5, tstruct((1, I32, s), (2, I32, p))),
    "DATE": lambda: _member(6),
    "TIME": lambda utc, unit: _adjusted(7, utc, unit),
    "TIMESTAMP": lambda utc, unit: _adjusted(8, utc, unit),
    "INT": lambda bits, signed: _member(10, tstruct((1, BYTE, bits), (2, TRUE if signed else FALSE, None))),
    "UNKNOWN": lambda: _member(11), "JSON": lambda: _member(12), "BSON": lambda: _member(13),
    "UUID": lambda: _member(14), "FLOAT16": lambda: _member(15), "VARIANT": lambda: _member(16),
    "GEOMETRY": lambda: _member(17), "GEOGRAPHY": lambda: _member(18), "VECTOR": lambda: _member(19),
    "FUTURE": lambda: _member(40),  # a member no reader knows yet
    "NO_MEMBER": lambda: EMPTY,
}
CT = dict(UTF8=0, MAP=1, MAP_KEY_VALUE=2, LIST=3, ENUM=4, DECIMAL=5, DATE=6, TIME_MILLIS=7,
          TIME_MICROS=8, TIMESTAMP_MILLIS=9, TIMESTAMP_MICROS=10, UINT_8=11, UINT_16=12,
          UINT_32=13, UINT_64=14, INT_8=15, INT_16=16, INT_32=17, INT_64=18, JSON=19, BSON=20,
          INTERVAL=21)


def element(name, ptype=None, rep=OPT, lt=None, ct=None, length=None, scale=None,
            precision=None, field_id=None, num_children=None):
    """A SchemaElement; None leaves a field out."""
    if isinstance(ct, str):
        ct = CT[ct]
    fields = [(1, I32, ptype), (2, I32, length), (3, I32, rep), (4, BINARY, name),
              (5, I32, num_children), (6, I32, ct), (7, I32, scale), (8, I32, precision),
              (9, I32, field_id), (10, STRUCT, lt)]
    return tstruct(*[f for f in fields if f[2] is not None])


def leaf(name, ptype, rep=OPT, **kw):
    return [element(name, ptype, rep, **kw)]


def group(name, children, rep=OPT, **kw):
    out = [element(name, None, rep, num_children=len(children), **kw)]
    for c in children:
        out += c
    return out


def footer_only(fields, kv=None):
    """A file of a schema and no row group (pyarrow reads its schema)."""
    schema = [element("schema", None, None, num_children=len(fields))]
    for f in fields:
        schema += f
    md = [(1, I32, 2), (2, LIST, (STRUCT, schema)), (3, I64, 0), (4, LIST, (STRUCT, []))]
    if kv:
        md.append((5, LIST, (STRUCT, [tstruct((1, BINARY, k), (2, BINARY, v)) for k, v in kv])))
    return parquet_file(b"", tstruct(*md))


def origin_kv(schema):
    return [("ARROW:schema", base64.b64encode(schema.serialize().to_pybytes()))]


L, M = LT["LIST"], LT["MAP"]


def kv_group(key=None, value=None, rep=REP, **kw):
    key = key or leaf("key", INT32, rep=REQ)
    value = value or leaf("value", INT32)
    return group("key_value", [key, value], rep=rep, **kw)


# One file per case that pyarrow refuses (the whole schema fails); the rest
# share files of many columns.
CRAFTED_REFUSED = {
    # Converted types that do not fit their physical type.
    "ct_utf8_int32": [leaf("c", INT32, ct="UTF8")],
    "ct_int8_int64": [leaf("c", INT64, ct="INT_8")],
    "ct_uint64_int32": [leaf("c", INT32, ct="UINT_64")],
    "ct_date_int64": [leaf("c", INT64, ct="DATE")],
    "ct_timestamp_int32": [leaf("c", INT32, ct="TIMESTAMP_MILLIS")],
    "ct_interval_flba8": [leaf("c", FLBA, length=8, ct="INTERVAL")],
    "ct_interval_int32": [leaf("c", INT32, ct="INTERVAL")],
    "ct_enum_flba": [leaf("c", FLBA, length=4, ct="ENUM")],
    "ct_json_int64": [leaf("c", INT64, ct="JSON")],
    "ct_out_of_range": [leaf("c", INT32, ct=99)],
    "ct_map_on_leaf": [leaf("c", INT32, ct="MAP")],
    "ct_list_on_leaf": [leaf("c", INT32, ct="LIST")],
    "ct_decimal_float": [leaf("c", FLOAT, ct="DECIMAL", precision=5, scale=1)],
    "ct_decimal_no_precision": [leaf("c", INT32, ct="DECIMAL")],
    "ct_decimal_precision_0": [leaf("c", INT32, ct="DECIMAL", precision=0, scale=0)],
    "ct_decimal_scale_gt_precision": [leaf("c", INT32, ct="DECIMAL", precision=3, scale=4)],
    "ct_decimal_negative_scale": [leaf("c", INT32, ct="DECIMAL", precision=5, scale=-1)],
    "ct_decimal_precision_80": [leaf("c", BYTE_ARRAY, ct="DECIMAL", precision=80, scale=2)],
    # Logical types whose parameters are invalid.
    "lt_decimal_precision_0": [leaf("c", INT32, lt=LT["DECIMAL"](0, 0))],
    "lt_decimal_scale_gt_precision": [leaf("c", INT32, lt=LT["DECIMAL"](3, 5))],
    "lt_decimal_negative_scale": [leaf("c", INT32, lt=LT["DECIMAL"](3, -1))],
    "lt_decimal_flba40_precision_80": [leaf("c", FLBA, length=40, lt=LT["DECIMAL"](80, 2))],
    "lt_decimal_byte_array_precision_80": [leaf("c", BYTE_ARRAY, lt=LT["DECIMAL"](80, 2))],
    "lt_decimal_float_precision_0": [leaf("c", FLOAT, lt=LT["DECIMAL"](0, 0))],
    "lt_timestamp_no_unit": [leaf("c", INT64, lt=LT["TIMESTAMP"](True, "none"))],
    "lt_time_no_unit": [leaf("c", INT64, lt=LT["TIME"](True, "none"))],
    "lt_int_width_7": [leaf("c", INT32, lt=LT["INT"](7, True))],
    "lt_int_width_7_on_float": [leaf("c", FLOAT, lt=LT["INT"](7, True))],
    # Annotations on groups.
    "group_lt_string": [group("g", [leaf("a", INT32)], lt=LT["STRING"]())],
    "group_lt_unknown": [group("g", [leaf("a", INT32)], lt=LT["UNKNOWN"]())],
    "group_lt_future": [group("g", [leaf("a", INT32)], lt=LT["FUTURE"]())],
    "group_lt_no_member": [group("g", [leaf("a", INT32)], lt=LT["NO_MEMBER"]())],
    "group_lt_vector": [group("g", [leaf("a", INT32)], lt=LT["VECTOR"]())],
    "group_lt_decimal": [group("g", [leaf("a", INT32)], lt=LT["DECIMAL"](3, 1))],
    "group_ct_utf8": [group("g", [leaf("a", INT32)], ct="UTF8")],
    "group_ct_decimal": [group("g", [leaf("a", INT32)], ct="DECIMAL", precision=3, scale=1)],
    "group_ct_out_of_range": [group("g", [leaf("a", INT32)], ct=99)],
    # LIST groups that no rule reads.
    "list_repeated": [group("a", [group("list", [leaf("element", INT32)], rep=REP)], rep=REP, lt=L())],
    "list_two_children": [group("a", [leaf("x", INT32, rep=REP), leaf("y", INT32, rep=REP)], lt=L())],
    "list_no_child": [group("a", [], lt=L())],
    "list_child_not_repeated": [group("a", [group("list", [leaf("element", INT32)])], lt=L())],
    "list_leaf_not_repeated": [group("a", [leaf("element", INT32)], lt=L())],
    "list_repeated_group_empty": [group("a", [group("list", [], rep=REP)], lt=L())],
    "list_ct_group_empty": [group("a", [group("list", [], rep=REP)], ct="LIST")],
    # A repeated LIST group inside a LIST: a 2-level list, never a 3-level one.
    "list_of_repeated_list_3level": [group("a", [group("list", [group("inner", [leaf("x", INT32)], rep=REP)], rep=REP, lt=L())], lt=L())],
    "list_of_repeated_list_empty_group": [group("a", [group("list", [group("inner", [], rep=REP)], rep=REP, lt=L())], lt=L())],
    "list_of_repeated_list_child_not_repeated": [group("a", [group("list", [leaf("element", INT32)], rep=REP, lt=L())], lt=L())],
    "list_of_repeated_map_set": [group("a", [group("array", [group("key_value", [leaf("key", INT32, rep=REQ)], rep=REP)], rep=REP, lt=M())], lt=L())],
    "list_of_repeated_map_kv_not_repeated": [group("a", [group("array", [kv_group(rep=OPT)], rep=REP, lt=M())], lt=L())],
    "list_struct_of_repeated_list": [group("a", [group("bag", [group("inner", [leaf("x", INT32, rep=REP)], rep=REP, lt=L())], rep=REP)], lt=L())],
    "list_3level_list_element_not_repeated": [group("a", [group("bag", [group("inner", [leaf("x", INT32)], lt=L())], rep=REP)], lt=L())],
    "repeated_list_top_level": [group("a", [leaf("x", INT32, rep=REP)], rep=REP, lt=L())],
    # MAP groups that no rule reads.
    "map_three_children": [group("m", [group("key_value", [leaf("key", INT32, rep=REQ), leaf("v", INT32), leaf("w", INT32)], rep=REP)], lt=M())],
    "map_optional_key": [group("m", [kv_group(key=leaf("key", INT32))], lt=M())],
    "map_repeated_key": [group("m", [kv_group(key=leaf("key", INT32, rep=REP))], lt=M())],
    "map_kv_not_repeated": [group("m", [kv_group(rep=OPT)], lt=M())],
    "map_kv_leaf": [group("m", [leaf("key_value", INT32, rep=REP)], lt=M())],
    "map_repeated": [group("m", [kv_group()], rep=REP, lt=M())],
    "map_two_children": [group("m", [kv_group(), leaf("z", INT32)], lt=M())],
    "map_no_child": [group("m", [], lt=M())],
    "map_kv_empty": [group("m", [group("key_value", [], rep=REP)], lt=M())],
    "map_key_value_ct_outer_leaf_child": [group("g", [leaf("a", INT32)], ct="MAP_KEY_VALUE")],
    "map_ct_only_on_repeated_group": [group("m", [kv_group(ct="MAP_KEY_VALUE")])],
    "map_set_repeated": [group("m", [group("key_value", [leaf("key", INT32, rep=REQ)], rep=REP)], rep=REP, lt=M())],
}

CRAFTED = {
    # Leaf types from logical types, converted types and physical types.
    "leaf_logical": [
        leaf("bool", BOOLEAN), leaf("int32", INT32, rep=REQ), leaf("int64", INT64), leaf("int96", INT96),
        leaf("float", FLOAT), leaf("double", DOUBLE), leaf("bytes", BYTE_ARRAY), leaf("flba5", FLBA, length=5),
        leaf("i8", INT32, lt=LT["INT"](8, True)), leaf("u8", INT32, lt=LT["INT"](8, False)),
        leaf("i16", INT32, lt=LT["INT"](16, True)), leaf("u16", INT32, lt=LT["INT"](16, False)),
        leaf("i32", INT32, lt=LT["INT"](32, True)), leaf("u32", INT32, lt=LT["INT"](32, False)),
        leaf("i64", INT64, lt=LT["INT"](64, True)), leaf("u64", INT64, lt=LT["INT"](64, False)),
        leaf("date", INT32, lt=LT["DATE"]()),
        leaf("time_ms", INT32, lt=LT["TIME"](False, "ms")), leaf("time_ms_utc", INT32, lt=LT["TIME"](True, "ms")),
        leaf("time_us", INT64, lt=LT["TIME"](False, "us")), leaf("time_ns_utc", INT64, lt=LT["TIME"](True, "ns")),
        leaf("ts_ms", INT64, lt=LT["TIMESTAMP"](False, "ms")), leaf("ts_ms_utc", INT64, lt=LT["TIMESTAMP"](True, "ms")),
        leaf("ts_us", INT64, lt=LT["TIMESTAMP"](False, "us")), leaf("ts_us_utc", INT64, lt=LT["TIMESTAMP"](True, "us")),
        leaf("ts_ns", INT64, lt=LT["TIMESTAMP"](False, "ns")), leaf("ts_ns_utc", INT64, lt=LT["TIMESTAMP"](True, "ns")),
        leaf("string", BYTE_ARRAY, lt=LT["STRING"]()), leaf("enum", BYTE_ARRAY, lt=LT["ENUM"]()),
        leaf("json", BYTE_ARRAY, lt=LT["JSON"]()), leaf("bson", BYTE_ARRAY, lt=LT["BSON"]()),
        leaf("uuid", FLBA, length=16, lt=LT["UUID"]()), leaf("f16", FLBA, length=2, lt=LT["FLOAT16"]()),
        leaf("dec_i32", INT32, lt=LT["DECIMAL"](9, 2)), leaf("dec_i64", INT64, lt=LT["DECIMAL"](18, 2)),
        leaf("dec_i64_small", INT64, lt=LT["DECIMAL"](5, 2)),
        leaf("dec_flba", FLBA, length=16, lt=LT["DECIMAL"](38, 0)), leaf("dec_flba_256", FLBA, length=32, lt=LT["DECIMAL"](76, 10)),
        leaf("dec_flba1", FLBA, length=1, lt=LT["DECIMAL"](2, 0)),
        leaf("dec_flba129", FLBA, length=129, lt=LT["DECIMAL"](10, 2)), leaf("dec_flba200", FLBA, length=200, lt=LT["DECIMAL"](70, 2)),
        leaf("dec_ba", BYTE_ARRAY, lt=LT["DECIMAL"](20, 3)), leaf("dec_ba_256", BYTE_ARRAY, lt=LT["DECIMAL"](40, 2)),
        leaf("null_i32", INT32, lt=LT["UNKNOWN"]()), leaf("null_i64", INT64, lt=LT["UNKNOWN"]()),
        leaf("null_ba", BYTE_ARRAY, lt=LT["UNKNOWN"]()), leaf("null_bool", BOOLEAN, lt=LT["UNKNOWN"]()),
        leaf("null_int96", INT96, lt=LT["UNKNOWN"]()), leaf("null_required", INT32, rep=REQ, lt=LT["UNKNOWN"]()),
        leaf("null_repeated", INT32, rep=REP, lt=LT["UNKNOWN"]()),
        leaf("geometry", BYTE_ARRAY, lt=LT["GEOMETRY"]()), leaf("geography", BYTE_ARRAY, lt=LT["GEOGRAPHY"]()),
        leaf("variant_leaf", BYTE_ARRAY, lt=LT["VARIANT"]()), leaf("vector_leaf", BYTE_ARRAY, lt=LT["VECTOR"]()),
        leaf("future", INT32, lt=LT["FUTURE"]()), leaf("future_and_ct", INT32, lt=LT["FUTURE"](), ct="INT_8"),
        leaf("no_member", INT32, lt=LT["NO_MEMBER"]()), leaf("no_member_and_ct", INT32, lt=LT["NO_MEMBER"](), ct="INT_8"),
        leaf("lt_wins_over_ct", INT32, lt=LT["INT"](16, True), ct="DATE"),
        leaf("lt_wins_over_bad_ct", INT32, lt=LT["INT"](8, True), ct="MAP"),
        leaf("lt_wins_over_ct_ts", INT64, lt=LT["TIMESTAMP"](False, "ms"), ct="TIMESTAMP_MILLIS"),
        leaf("lt_wins_over_ct_decimal", INT32, lt=LT["DECIMAL"](9, 2), ct="DECIMAL", precision=5, scale=1),
        leaf("interval_with_empty_lt", FLBA, length=12, ct="INTERVAL", lt=LT["NO_MEMBER"]()),
    ],
    # Logical types that do not fit their physical type: the physical type.
    "leaf_logical_mismatch": [
        leaf("string_int32", INT32, lt=LT["STRING"]()), leaf("json_int32", INT32, lt=LT["JSON"]()),
        leaf("enum_flba", FLBA, length=4, lt=LT["ENUM"]()),
        leaf("dec10_int32", INT32, lt=LT["DECIMAL"](10, 2)), leaf("dec19_int64", INT64, lt=LT["DECIMAL"](19, 2)),
        leaf("dec7_flba3", FLBA, length=3, lt=LT["DECIMAL"](7, 2)), leaf("dec39_flba16", FLBA, length=16, lt=LT["DECIMAL"](39, 0)),
        leaf("dec77_flba32", FLBA, length=32, lt=LT["DECIMAL"](77, 2)), leaf("dec3_flba1", FLBA, length=1, lt=LT["DECIMAL"](3, 0)),
        leaf("dec_float", FLOAT, lt=LT["DECIMAL"](5, 2)), leaf("dec_bool", BOOLEAN, lt=LT["DECIMAL"](5, 2)),
        leaf("ts_float", FLOAT, lt=LT["TIMESTAMP"](True, "ms")), leaf("ts_int32", INT32, lt=LT["TIMESTAMP"](True, "ms")),
        leaf("ts_int96", INT96, lt=LT["TIMESTAMP"](False, "ns")),
        leaf("time_ms_int64", INT64, lt=LT["TIME"](True, "ms")), leaf("time_us_int32", INT32, lt=LT["TIME"](True, "us")),
        leaf("f16_flba3", FLBA, length=3, lt=LT["FLOAT16"]()), leaf("f16_int32", INT32, lt=LT["FLOAT16"]()),
        leaf("uuid_flba8", FLBA, length=8, lt=LT["UUID"]()), leaf("uuid_ba", BYTE_ARRAY, lt=LT["UUID"]()),
        leaf("int64_int32", INT32, lt=LT["INT"](64, True)), leaf("int32_int64", INT64, lt=LT["INT"](32, True)),
        leaf("int8_ba", BYTE_ARRAY, lt=LT["INT"](8, True)), leaf("int8_bool", BOOLEAN, lt=LT["INT"](8, True)),
        leaf("date_int64", INT64, lt=LT["DATE"]()), leaf("geometry_int32", INT32, lt=LT["GEOMETRY"]()),
        leaf("geography_flba", FLBA, length=4, lt=LT["GEOGRAPHY"]()), leaf("list_on_leaf", INT32, lt=L()),
        leaf("map_on_leaf", INT32, lt=M()),
    ],
    # Converted types alone (legacy writers).
    "leaf_converted": [
        leaf("utf8", BYTE_ARRAY, ct="UTF8"), leaf("enum", BYTE_ARRAY, ct="ENUM"), leaf("json", BYTE_ARRAY, ct="JSON"),
        leaf("bson", BYTE_ARRAY, ct="BSON"), leaf("date", INT32, ct="DATE"),
        leaf("time_millis", INT32, ct="TIME_MILLIS"), leaf("time_micros", INT64, ct="TIME_MICROS"),
        leaf("ts_millis", INT64, ct="TIMESTAMP_MILLIS"), leaf("ts_micros", INT64, ct="TIMESTAMP_MICROS"),
        leaf("u8", INT32, ct="UINT_8"), leaf("u16", INT32, ct="UINT_16"), leaf("u32", INT32, ct="UINT_32"),
        leaf("u64", INT64, ct="UINT_64"), leaf("i8", INT32, ct="INT_8"), leaf("i16", INT32, ct="INT_16"),
        leaf("i32", INT32, ct="INT_32"), leaf("i64", INT64, ct="INT_64"),
        leaf("interval", FLBA, length=12, ct="INTERVAL"),
        leaf("dec_i32", INT32, ct="DECIMAL", precision=5, scale=2), leaf("dec_i32_p12", INT32, ct="DECIMAL", precision=12, scale=4),
        leaf("dec_i32_p50", INT32, ct="DECIMAL", precision=50, scale=2), leaf("dec_flba2_p10", FLBA, length=2, ct="DECIMAL", precision=10, scale=2),
        leaf("dec_ba_p50", BYTE_ARRAY, ct="DECIMAL", precision=50, scale=4), leaf("dec_no_scale", INT64, ct="DECIMAL", precision=5),
        leaf("dec_flba_p38", FLBA, length=16, ct="DECIMAL", precision=38, scale=0),
    ],
    # Field ids: PARQUET:field_id metadata, where pyarrow puts it.
    "field_ids": [
        leaf("leaf", INT32, field_id=1), leaf("negative", INT32, field_id=-5), leaf("zero", INT32, field_id=0),
        group("struct", [leaf("a", INT32, field_id=3)], field_id=2),
        group("list3", [group("list", [leaf("element", INT32, field_id=6)], rep=REP, field_id=5)], lt=L(), field_id=4),
        group("list2", [leaf("x", INT32, rep=REP, field_id=8)], lt=L(), field_id=7),
        group("list_struct", [group("list", [leaf("x", INT32), leaf("y", INT32)], rep=REP, field_id=10)], lt=L(), field_id=9),
        group("map", [kv_group(key=leaf("key", BYTE_ARRAY, rep=REQ, lt=LT["STRING"](), field_id=13), value=leaf("value", INT32, field_id=14), field_id=12)], lt=M(), field_id=11),
        group("map_set", [group("key_value", [leaf("key", INT32, rep=REQ, field_id=17)], rep=REP, field_id=16)], lt=M(), field_id=15),
        group("rep_group", [leaf("x", INT32)], rep=REP, field_id=18), leaf("rep_leaf", INT32, rep=REP, field_id=19),
        group("nested2", [group("array", [leaf("x", INT32, rep=REP, field_id=22)], rep=REP, lt=L(), field_id=21)], lt=L(), field_id=20),
        group("nested_struct", [group("array", [group("inner", [leaf("x", INT32, field_id=26), leaf("y", INT32)], rep=REP, field_id=25)], rep=REP, lt=L(), field_id=24)], lt=L(), field_id=23),
        group("nested_map", [group("bag", [kv_group(key=leaf("key", INT32, rep=REQ, field_id=30), field_id=29)], rep=REP, lt=M(), field_id=28)], lt=L(), field_id=27),
        group("uuid_struct", [leaf("u", FLBA, length=16, lt=LT["UUID"](), field_id=32)], field_id=31),
    ],
    # Lists (LogicalTypes.md, "Lists" and its backward-compatibility rules).
    "lists": [
        group("list3", [group("list", [leaf("element", INT32)], rep=REP)], lt=L()),
        group("list3_ct", [group("list", [leaf("element", INT32)], rep=REP)], ct="LIST"),
        group("list3_required", [group("list", [leaf("item", INT32, rep=REQ)], rep=REP)], rep=REQ, lt=L()),
        group("list2", [leaf("x", INT32, rep=REP)], lt=L()),
        group("list2_ct", [leaf("array", BYTE_ARRAY, rep=REP, ct="UTF8")], ct="LIST"),
        group("list_of_struct", [group("list", [leaf("x", INT32), leaf("y", INT32)], rep=REP)], lt=L()),
        group("list_array", [group("array", [leaf("x", INT32)], rep=REP)], lt=L()),
        group("list_tuple", [group("list_tuple_tuple", [leaf("x", INT32)], rep=REP)], lt=L()),
        group("list_bag", [group("bag", [leaf("x", INT32)], rep=REP)], lt=L()),
        group("list_repeated_child", [group("bag", [leaf("x", INT32, rep=REP)], rep=REP)], lt=L()),
        group("list_repeated_group_child", [group("bag", [group("inner", [leaf("x", INT32)], rep=REP)], rep=REP)], lt=L()),
        group("list_array_repeated_child", [group("array", [leaf("item", INT32, rep=REP)], rep=REP)], lt=L()),
        group("list_of_2level", [group("array", [leaf("item", INT32, rep=REP)], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_ct", [group("array", [leaf("x", INT32, rep=REP)], rep=REP, ct="LIST")], ct="LIST"),
        group("list_of_2level_named", [group("bag", [leaf("x", INT32, rep=REP)], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_struct", [group("array", [group("inner", [leaf("x", INT32), leaf("y", INT32)], rep=REP)], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_repeated", [group("list", [group("inner", [leaf("x", INT32, rep=REP)], rep=REP)], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_of_2level", [group("array", [group("inner", [leaf("x", INT32, rep=REP)], rep=REP, lt=L())], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_of_map", [group("array", [group("inner", [kv_group()], rep=REP, lt=M())], rep=REP, lt=L())], lt=L()),
        group("list_of_2level_struct_mixed", [group("array", [group("inner", [leaf("x", INT32, rep=REP), leaf("y", INT32)], rep=REP, lt=L())], rep=REP, lt=L())], lt=L()),
        group("list_of_repeated_map", [group("bag", [kv_group()], rep=REP, lt=M())], lt=L()),
        group("list_of_repeated_map_ct", [group("bag", [kv_group()], rep=REP, ct="MAP")], lt=L()),
        group("list_of_repeated_map_kv_ct", [group("bag", [kv_group()], rep=REP, ct="MAP_KEY_VALUE")], lt=L()),
        group("list_of_repeated_map_array", [group("array", [kv_group(key=leaf("key", BYTE_ARRAY, rep=REQ, lt=LT["STRING"]()))], rep=REP, lt=M())], lt=L()),
        group("list_of_repeated_map_kv_list", [group("array", [kv_group(lt=L())], rep=REP, lt=M())], lt=L()),
        group("list_of_list", [group("list", [group("element", [group("list", [leaf("element", INT32)], rep=REP)], lt=L())], rep=REP)], lt=L()),
        group("list_of_map", [group("list", [group("element", [kv_group()], lt=M())], rep=REP)], lt=L()),
        group("list_of_struct3", [group("list", [group("element", [leaf("x", INT32), leaf("y", INT32)])], rep=REP)], lt=L()),
        group("list_3level_of_list", [group("bag", [group("inner", [group("list", [leaf("x", INT32)], rep=REP)], lt=L())], rep=REP)], lt=L()),
        group("list_struct_two_wide", [group("list", [leaf("x", INT32, rep=REP), leaf("y", INT32)], rep=REP, lt=L())], lt=L()),
        group("list_lt_over_ct", [group("list", [leaf("element", INT32)], rep=REP)], lt=L(), ct="MAP"),
        group("list_variant_element", [group("list", [group("element", [leaf("metadata", BYTE_ARRAY, rep=REQ), leaf("value", BYTE_ARRAY)], lt=LT["VARIANT"]())], rep=REP)], lt=L()),
    ],
    # Maps (LogicalTypes.md, "Maps").
    "maps": [
        group("map", [kv_group(key=leaf("key", BYTE_ARRAY, rep=REQ, lt=LT["STRING"]()))], lt=M()),
        group("map_ct", [group("map", [leaf("key", BYTE_ARRAY, rep=REQ), leaf("value", INT32)], rep=REP)], ct="MAP"),
        group("map_key_value_ct", [group("map", [leaf("key", BYTE_ARRAY, rep=REQ), leaf("value", INT32)], rep=REP)], ct="MAP_KEY_VALUE"),
        group("map_inner_ct", [group("map", [leaf("key", BYTE_ARRAY, rep=REQ), leaf("value", INT32)], rep=REP, ct="MAP_KEY_VALUE")], ct="MAP"),
        group("map_set", [group("key_value", [leaf("key", INT32, rep=REQ)], rep=REP)], lt=M()),
        group("map_struct_key", [group("key_value", [group("key", [leaf("x", INT32)], rep=REQ), leaf("v", INT32)], rep=REP)], lt=M()),
        group("map_repeated_value", [kv_group(value=leaf("value", INT32, rep=REP))], lt=M()),
        group("map_list_value", [kv_group(value=group("value", [group("list", [leaf("element", INT32)], rep=REP)], lt=L()))], lt=M()),
        group("map_kv_lt_list", [kv_group(lt=L())], lt=M()),
        group("map_kv_lt_map", [kv_group(lt=M())], lt=M()),
        group("map_lt_over_ct", [kv_group()], lt=M(), ct="LIST"),
        group("map_required", [kv_group()], rep=REQ, lt=M()),
    ],
    # Structs and repeated fields outside LIST / MAP.
    "structs": [
        group("struct", [leaf("a", INT32), leaf("b", BYTE_ARRAY, rep=REQ, lt=LT["STRING"]())]),
        group("required_struct", [group("inner", [leaf("x", INT64)], rep=REQ)], rep=REQ),
        group("empty_struct", []), group("empty_required_struct", [], rep=REQ),
        group("empty_repeated_struct", [], rep=REP),
        group("repeated_group", [leaf("x", INT32), leaf("y", INT32, rep=REQ)], rep=REP),
        group("repeated_group_one", [leaf("x", INT32)], rep=REP),
        leaf("repeated_leaf", INT32, rep=REP), leaf("repeated_string", BYTE_ARRAY, rep=REP, lt=LT["STRING"]()),
        group("struct_of_repeated", [leaf("r", INT32, rep=REP), leaf("q", INT32)], rep=REQ),
        group("repeated_of_repeated", [group("inner", [leaf("x", INT32, rep=REP)], rep=REP)], rep=REP),
        group("variant", [leaf("metadata", BYTE_ARRAY, rep=REQ), leaf("value", BYTE_ARRAY)], lt=LT["VARIANT"]()),
        group("variant_other_children", [leaf("a", INT32)], lt=LT["VARIANT"]()),
    ],
}


def nested_structs(depth):
    f = leaf("x", INT32)
    for i in range(depth):
        f = group(f"g{i}", [f])
    return [f]


CRAFTED_REFUSED["depth_100"] = nested_structs(99)  # pyarrow's schema_depth_limit is 100
CRAFTED["depth_99"] = nested_structs(98)


# Origins (ARROW:schema) that differ from the stored types: which of them
# pyarrow restores. Each file stores one Parquet type in every column and
# declares one origin type per column.
ORIGIN_TYPES = [
    pa.null(), pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
    pa.uint32(), pa.uint64(), pa.float16(), pa.float32(), pa.float64(), pa.string(), pa.large_string(),
    pa.string_view(), pa.binary(), pa.large_binary(), pa.binary_view(), pa.binary(2), pa.binary(16),
    pa.decimal32(5, 1), pa.decimal64(5, 1), pa.decimal128(5, 1), pa.decimal256(5, 1), pa.decimal64(15, 1),
    pa.decimal256(15, 1), pa.decimal128(30, 1), pa.decimal256(30, 1), pa.decimal256(6, 1),
    pa.date32(), pa.date64(), pa.time32("s"), pa.time32("ms"), pa.time64("us"), pa.time64("ns"),
    pa.timestamp("s"), pa.timestamp("ms"), pa.timestamp("us"), pa.timestamp("ns"),
    pa.timestamp("s", "Europe/Paris"), pa.timestamp("ms", "Europe/Paris"), pa.timestamp("ns", "+01:00"),
    pa.timestamp("ms", "UTC"), pa.duration("s"), pa.duration("ns"), pa.month_day_nano_interval(),
    pa.dictionary(pa.int8(), pa.string()), pa.dictionary(pa.uint16(), pa.binary(), True),
    pa.dictionary(pa.int64(), pa.large_string()), pa.dictionary(pa.int32(), pa.int32()),
    pa.bool8(), pa.json_(), pa.json_(pa.large_string()), pa.uuid(),
    pa.list_(pa.int32()), pa.struct([pa.field("x", pa.int32())]),
]
ORIGIN_STORED = {  # stored type -> one leaf of that type, by name
    "bool": lambda n: leaf(n, BOOLEAN), "int8": lambda n: leaf(n, INT32, lt=LT["INT"](8, True)),
    "int32": lambda n: leaf(n, INT32), "int64": lambda n: leaf(n, INT64),
    "uint64": lambda n: leaf(n, INT64, lt=LT["INT"](64, False)), "float": lambda n: leaf(n, FLOAT),
    "flba2": lambda n: leaf(n, FLBA, length=2), "flba16": lambda n: leaf(n, FLBA, length=16),
    "string": lambda n: leaf(n, BYTE_ARRAY, lt=LT["STRING"]()), "binary": lambda n: leaf(n, BYTE_ARRAY),
    "decimal_int32": lambda n: leaf(n, INT32, lt=LT["DECIMAL"](5, 1)),
    "decimal_int64": lambda n: leaf(n, INT64, lt=LT["DECIMAL"](15, 1)),
    "decimal_flba": lambda n: leaf(n, FLBA, length=13, lt=LT["DECIMAL"](30, 1)),
    "decimal_ba": lambda n: leaf(n, BYTE_ARRAY, lt=LT["DECIMAL"](5, 1)),
    "date": lambda n: leaf(n, INT32, lt=LT["DATE"]()), "time_ms": lambda n: leaf(n, INT32, lt=LT["TIME"](False, "ms")),
    "ts_ms": lambda n: leaf(n, INT64, lt=LT["TIMESTAMP"](False, "ms")),
    "ts_ms_utc": lambda n: leaf(n, INT64, lt=LT["TIMESTAMP"](True, "ms")),
    "ts_ns_utc": lambda n: leaf(n, INT64, lt=LT["TIMESTAMP"](True, "ns")), "int96": lambda n: leaf(n, INT96),
    "json": lambda n: leaf(n, BYTE_ARRAY, lt=LT["JSON"]()), "uuid": lambda n: leaf(n, FLBA, length=16, lt=LT["UUID"]()),
    "null": lambda n: leaf(n, INT32, lt=LT["UNKNOWN"]()),
}


def crafted_origin_files():
    out = {}
    for stored, node in ORIGIN_STORED.items():
        fields, origin = [], []
        for i, t in enumerate(ORIGIN_TYPES):
            fields.append(node(f"c{i}"))
            origin.append(pa.field(f"c{i}", t))
        out[f"origin_{stored}"] = footer_only(fields, origin_kv(pa.schema(origin)))
    # Nested origins: lists, maps, structs; positional, names ignored.
    stored = [
        group("l", [group("list", [leaf("element", INT64)], rep=REP)], lt=L()),
        group("l2", [group("list", [leaf("element", BYTE_ARRAY, lt=LT["STRING"]())], rep=REP)], lt=L()),
        group("l3", [group("list", [leaf("element", INT64)], rep=REP)], lt=L()),
        group("l4", [group("list", [leaf("element", INT64)], rep=REP)], lt=L()),
        group("m", [kv_group(key=leaf("key", BYTE_ARRAY, rep=REQ, lt=LT["STRING"]()), value=leaf("value", INT64))], lt=M()),
        group("m2", [kv_group(key=leaf("key", BYTE_ARRAY, rep=REQ, lt=LT["STRING"]()), value=leaf("value", INT64))], lt=M()),
        group("m3", [kv_group(value=leaf("value", INT64))], lt=M()),
        group("m4", [kv_group(value=leaf("value", BYTE_ARRAY, lt=LT["STRING"]()))], lt=M()),
        group("s", [leaf("a", INT64), leaf("b", BYTE_ARRAY, lt=LT["STRING"]())]),
        group("s2", [leaf("a", INT64), leaf("b", BYTE_ARRAY, lt=LT["STRING"]())]),
        group("s3", [leaf("a", INT64), leaf("b", BYTE_ARRAY, lt=LT["STRING"]())]),
        leaf("r", INT64, rep=REP), group("g", [leaf("x", INT64)], rep=REP),
        group("a2", [group("array", [leaf("x", INT64, rep=REP)], rep=REP, lt=L())], lt=L()),
        group("m1", [group("key_value", [leaf("key", INT64, rep=REQ)], rep=REP)], lt=M()),
        group("lm", [group("list", [leaf("element", INT64)], rep=REP)], lt=L()),
        group("t", [leaf("x", INT64)]),
    ]
    origin = pa.schema([
        pa.field("renamed", pa.large_list(pa.field("x", pa.duration("s"), metadata={"k": "v"}))),
        pa.field("l2", pa.list_(pa.large_string()), metadata={"PARQUET:field_id": "7", "a": "b"}),
        pa.field("l3", pa.list_(pa.int64(), 3)),
        pa.field("l4", pa.list_(pa.int32())),
        pa.field("m", pa.map_(pa.large_string(), pa.duration("ms"), keys_sorted=True)),
        pa.field("m2", pa.map_(pa.string(), pa.int64(), keys_sorted=True)),
        pa.field("m3", pa.map_(pa.int32(), pa.duration("s"), keys_sorted=True)),
        pa.field("m4", pa.map_(pa.int32(), pa.string(), keys_sorted=True)),
        pa.field("s", pa.struct([pa.field("x", pa.duration("us")), pa.field("y", pa.string_view())])),
        pa.field("s2", pa.struct([pa.field("a", pa.duration("us"))])),
        pa.field("s3", pa.list_(pa.duration("us"))),
        pa.field("r", pa.large_list(pa.duration("s"))),
        pa.field("g", pa.list_(pa.struct([pa.field("x", pa.duration("s"))]))),
        pa.field("a2", pa.large_list(pa.large_list(pa.duration("s")))),
        pa.field("m1", pa.large_list(pa.duration("s"))),
        pa.field("lm", pa.map_(pa.int64(), pa.int64())),
        pa.field("t", pa.struct([pa.field("x", pa.timestamp("ms", "UTC"))]), metadata={"top": "1"}),
    ], metadata={"origin": "yes"})
    out["origin_nested"] = footer_only(stored, origin_kv(origin) + [("other", "dropped by pyarrow")])
    return out


# --- Files written by pyarrow --------------------------------------------------

def written_files():
    """name -> (table, write_table keyword arguments)."""
    n = 3
    ts = [1_000_000 * i for i in range(n)]  # whole microseconds: coercible
    dec = [decimal.Decimal("1.5"), None, decimal.Decimal("-2.25")]

    def col(t, values):
        return pa.array(values, t)

    leaf_types = {
        "null": col(pa.null(), [None] * n), "bool": col(pa.bool_(), [True, None, False]),
        "int8": col(pa.int8(), [1, None, -1]), "int16": col(pa.int16(), [1, 2, 3]),
        "int32": col(pa.int32(), [1, 2, None]), "int64": col(pa.int64(), [1, 2, 3]),
        "uint8": col(pa.uint8(), [1, 2, 3]), "uint16": col(pa.uint16(), [1, 2, 3]),
        "uint32": col(pa.uint32(), [1, 2, 3]), "uint64": col(pa.uint64(), [1, 2, 3]),
        "float16": col(pa.float16(), [None] * n), "float32": col(pa.float32(), [1.5, None, 2]),
        "float64": col(pa.float64(), [1.5, 2, 3]),
        "decimal32": col(pa.decimal32(7, 2), dec), "decimal64": col(pa.decimal64(15, 2), dec),
        "decimal128": col(pa.decimal128(5, 2), dec), "decimal128_38": col(pa.decimal128(38, 2), dec),
        "decimal256": col(pa.decimal256(5, 2), dec), "decimal256_76": col(pa.decimal256(76, 2), dec),
        "date32": col(pa.date32(), [1, 2, None]), "date64": col(pa.date64(), [86400000, None, 0]),
        "time32_s": col(pa.time32("s"), [1, 2, 3]), "time32_ms": col(pa.time32("ms"), [1, 2, 3]),
        "time64_us": col(pa.time64("us"), [1, 2, 3]), "time64_ns": col(pa.time64("ns"), [1, 2, 3]),
        "ts_s": col(pa.timestamp("s"), ts), "ts_ms": col(pa.timestamp("ms"), ts),
        "ts_us": col(pa.timestamp("us"), ts), "ts_ns": col(pa.timestamp("ns"), ts),
        "ts_s_paris": col(pa.timestamp("s", "Europe/Paris"), ts),
        "ts_ms_utc": col(pa.timestamp("ms", "UTC"), ts), "ts_us_offset": col(pa.timestamp("us", "+01:00"), ts),
        "ts_ns_tokyo": col(pa.timestamp("ns", "Asia/Tokyo"), ts),
        "duration_s": col(pa.duration("s"), [1, 2, 3]), "duration_ms": col(pa.duration("ms"), [1, 2, 3]),
        "duration_us": col(pa.duration("us"), [1, 2, 3]), "duration_ns": col(pa.duration("ns"), [1, 2, 3]),
        "string": col(pa.string(), ["a", None, "c"]), "large_string": col(pa.large_string(), ["a", "b", "c"]),
        "string_view": col(pa.string_view(), ["a", "b", None]), "binary": col(pa.binary(), [b"a", b"", None]),
        "large_binary": col(pa.large_binary(), [b"a", b"b", b"c"]), "binary_view": col(pa.binary_view(), [b"a", b"b", b"c"]),
        "fsb1": col(pa.binary(1), [b"a", b"b", None]), "fsb16": col(pa.binary(16), [b"0123456789abcdef"] * n),
        "uuid": col(pa.uuid(), [b"0123456789abcdef"] * n), "json": col(pa.json_(), ["{}", "[]", None]),
        "json_large": col(pa.json_(pa.large_string()), ["{}", "1", "2"]),
        "bool8": col(pa.bool8(), [1, 0, None]),
        "opaque": pa.ExtensionArray.from_storage(pa.opaque(pa.binary(), "geom", "vendor"), col(pa.binary(), [b"x", b"y", b"z"])),
        "tensor": col(pa.fixed_shape_tensor(pa.float32(), [2, 2]), [[1, 2, 3, 4]] * n),
    }
    all_types = pa.table(leaf_types)
    not_null = pa.table({k: v for k, v in leaf_types.items() if k != "null" and v.null_count == 0})
    not_null = not_null.cast(pa.schema([pa.field(f.name, f.type, False) for f in not_null.schema]))

    def dict_of(index, values, ordered=False):
        return pa.DictionaryArray.from_arrays(pa.array([0, 1, None], index), values, ordered=ordered)

    dictionaries = pa.table({
        "d_int8_string": dict_of(pa.int8(), pa.array(["a", "b"])),
        "d_int16_binary": dict_of(pa.int16(), pa.array([b"a", b"b"])),
        "d_int32_string": dict_of(pa.int32(), pa.array(["a", "b"])),
        "d_int64_large_string": dict_of(pa.int64(), pa.array(["a", "b"], pa.large_string())),
        "d_uint8_string_ordered": dict_of(pa.uint8(), pa.array(["a", "b"]), True),
        "d_uint32_large_binary": dict_of(pa.uint32(), pa.array([b"a", b"b"], pa.large_binary())),
        "d_int32_int64": dict_of(pa.int32(), pa.array([10, 20], pa.int64())),
        "d_int32_fsb": dict_of(pa.int32(), pa.array([b"ab", b"cd"], pa.binary(2))),
        "d_in_list": pa.ListArray.from_arrays([0, 2, 3, 3], dict_of(pa.int16(), pa.array(["a", "b"]))),
        "d_in_struct": pa.StructArray.from_arrays([dict_of(pa.int8(), pa.array(["x", "y"]))], ["s"]),
    })

    tz = pa.timestamp("ms", "Europe/Paris")
    nested = pa.table({
        "list": col(pa.list_(pa.int32()), [[1, 2], None, []]),
        "list_not_null": col(pa.list_(pa.field("x", pa.int32(), False)), [[1], [], [2, 3]]),
        "list_of_list": col(pa.list_(pa.list_(pa.string())), [[["a"]], [[]], None]),
        "large_list": col(pa.large_list(pa.large_string()), [["a"], None, []]),
        "fixed_size_list": col(pa.list_(pa.int16(), 2), [[1, 2], None, [3, 4]]),
        "list_of_struct": col(pa.list_(pa.struct([pa.field("a", pa.int32()), pa.field("t", tz)])), [[{"a": 1, "t": 1}], [], None]),
        "struct": col(pa.struct([pa.field("l", pa.list_(pa.duration("s"))), pa.field("m", pa.map_(pa.string(), tz))]), [None, {"l": [1], "m": [("a", 1)]}, {"l": None, "m": None}]),
        "struct_not_null": col(pa.struct([pa.field("x", pa.int8(), False), pa.field("y", pa.string_view())]), [{"x": 1, "y": "a"}] * n),
        "map": col(pa.map_(pa.string(), pa.int64()), [[("a", 1)], None, []]),
        "map_sorted": col(pa.map_(pa.large_string(), pa.float64(), keys_sorted=True), [[("a", 1.0)], [], None]),
        "map_of_list": col(pa.map_(pa.int32(), pa.list_(tz)), [[(1, [1])], None, []]),
        "map_of_struct": col(pa.map_(pa.string(), pa.struct([pa.field("d", pa.decimal256(5, 1))])), [[("a", {"d": None})], [], None]),
        "map_value_not_null": col(pa.map_(pa.string(), pa.field("v", pa.int32(), False)), [[("a", 1)], [], None]),
        "list_of_map": col(pa.list_(pa.map_(pa.binary(), pa.binary_view())), [[[(b"k", b"v")]], [], None]),
        "list_of_fixed": col(pa.list_(pa.list_(pa.float32(), 3)), [[[1, 2, 3]], None, []]),
        "large_list_of_large_list": col(pa.large_list(pa.large_list(pa.int64())), [[[1]], [[]], None]),
        "list_of_uuid": pa.ListArray.from_arrays([0, 1, 1, 1], col(pa.uuid(), [b"0123456789abcdef"]), mask=pa.array([False, True, False])),
        "list_view_like_strings": col(pa.list_(pa.string_view()), [["a"], [], None]),
    })
    metadata_table = pa.table({
        "with_metadata": col(pa.int32(), [1, 2, 3]),
        "with_field_id": col(pa.int32(), [1, 2, 3]),
        "nested": col(pa.struct([pa.field("x", pa.int64())]), [{"x": 1}] * n),
        "list": col(pa.list_(pa.int32()), [[1], [], None]),
    }).cast(pa.schema([
        pa.field("with_metadata", pa.int32(), metadata={"a": "1", "b": "2"}),
        pa.field("with_field_id", pa.int32(), metadata={"b": "x", "PARQUET:field_id": "42", "a": "y"}),
        pa.field("nested", pa.struct([pa.field("x", pa.int64(), metadata={"PARQUET:field_id": "8", "inner": "yes"})]),
                 metadata={"PARQUET:field_id": "7"}),
        pa.field("list", pa.list_(pa.field("item", pa.int32(), metadata={"PARQUET:field_id": "10"})),
                 metadata={"PARQUET:field_id": "9", "list": "meta"}),
    ], metadata={"pandas": '{"fake": true}', "owner": "quiver"}))
    int96 = pa.table({"ts": col(pa.timestamp("ns"), ts), "ts_tz": col(pa.timestamp("ns", "America/New_York"), ts),
                      "ts_ms": col(pa.timestamp("ms", "UTC"), ts)})

    files = {
        "all_types": (all_types, {}),
        "all_types_no_schema": (all_types, {"store_schema": False}),
        "not_null": (not_null, {}),
        "dictionaries": (dictionaries, {}),
        "dictionaries_no_schema": (dictionaries, {"store_schema": False}),
        "nested": (nested, {}),
        "nested_no_schema": (nested, {"store_schema": False}),
        "nested_legacy_lists": (nested, {"use_compliant_nested_type": False}),
        "nested_legacy_lists_no_schema": (nested, {"use_compliant_nested_type": False, "store_schema": False}),
        "metadata": (metadata_table, {}),
        "metadata_no_schema": (metadata_table, {"store_schema": False}),
        "int96": (int96, {"use_deprecated_int96_timestamps": True}),
        "int96_no_schema": (int96, {"use_deprecated_int96_timestamps": True, "store_schema": False}),
        "coerce_ms": (int96, {"coerce_timestamps": "ms"}),
        "version_1_0": (all_types.drop_columns(["float16", "uuid", "json", "json_large", "bool8", "opaque", "tensor"]), {"version": "1.0"}),
        "version_2_4": (all_types, {"version": "2.4"}),
        "version_2_4_no_schema": (all_types, {"version": "2.4", "store_schema": False}),
        "decimals_as_integers": (all_types.select([c for c in all_types.column_names if c.startswith("decimal")]), {"store_decimal_as_integer": True}),
        "no_columns": (pa.table({}), {}),
    }
    return files


class QuiverTestExtension(pa.ExtensionType):
    """An extension type pyarrow does not know when it reads the file."""

    def __init__(self):
        super().__init__(pa.large_string(), "quiver.test")

    def __arrow_ext_serialize__(self):
        return b"params"

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return cls()


def write_special_files(out):
    """Files whose footer pyarrow's writer must be helped to write."""
    t = pa.table({"a": pa.array([1, 2], pa.int64()), "b": pa.array(["x", "y"])})

    def with_kv(name, kv, table=t, store_schema=False):
        writer = pq.ParquetWriter(os.path.join(out, name), table.schema, store_schema=store_schema)
        writer.write_table(table)
        writer.add_key_value_metadata(kv)
        writer.close()

    schema_b64 = lambda s: base64.b64encode(s.serialize().to_pybytes())  # noqa: E731
    # The origin has one field more: ignored, ARROW:schema stays in the metadata.
    with_kv("pa_origin_field_count.parquet",
            {"ARROW:schema": schema_b64(pa.schema([pa.field("a", pa.duration("s")), pa.field("b", pa.large_string()),
                                                    pa.field("c", pa.int8())])), "k": "v"})
    # Other names, same shape: applied by position.
    with_kv("pa_origin_renamed.parquet",
            {"ARROW:schema": schema_b64(pa.schema([pa.field("x", pa.duration("s")), pa.field("y", pa.large_string())],
                                                  metadata={"from": "origin"})), "k": "v"})
    # Not base64, not an IPC message: pyarrow refuses the file.
    with_kv("pa_origin_not_base64.parquet", {"ARROW:schema": "not base64!", "k": "v"})
    with_kv("pa_origin_not_ipc.parquet", {"ARROW:schema": base64.b64encode(b"\xff\xff\xff\xff\x10\x00\x00\x00" + b"\x00" * 16)})
    with_kv("pa_origin_empty.parquet", {"ARROW:schema": ""})
    # File metadata beside ARROW:schema: pyarrow returns the origin's own metadata.
    with_kv("pa_file_metadata_extra.parquet", {"added": "after"},
            table=t.replace_schema_metadata({"table": "meta"}), store_schema=True)
    # An extension type unknown to the reader: storage type and metadata.
    ext = QuiverTestExtension()
    pa.register_extension_type(ext)
    try:
        storage = pa.array(["a", "b"], pa.large_string())
        table = pa.table({"e": pa.ExtensionArray.from_storage(ext, storage),
                          "n": pa.array([1, 2])})
        pq.write_table(table, os.path.join(out, "pa_unknown_extension.parquet"))
    finally:
        pa.unregister_extension_type("quiver.test")


# --- pyarrow's schema as JSON ---------------------------------------------------

def describe_type(t):
    """(type string, extension name or None, children) of an Arrow type."""
    ext = None
    if isinstance(t, pa.BaseExtensionType):
        ext = t.extension_name
        t = t.storage_type
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t) or \
            pa.types.is_struct(t) or pa.types.is_map(t):
        if pa.types.is_fixed_size_list(t):
            name = f"fixed_size_list[{t.list_size}]"
        elif pa.types.is_map(t):
            name = "map[keys_sorted]" if t.keys_sorted else "map"
        else:
            name = "large_list" if pa.types.is_large_list(t) else "list" if pa.types.is_list(t) else "struct"
        return name, ext, [describe_field(t.field(i)) for i in range(t.num_fields)]
    return str(t), ext, None


def describe_field(f):
    type_name, ext, children = describe_type(f.type)
    out = {"name": f.name, "type": type_name, "nullable": f.nullable,
           "metadata": [[k.decode("utf-8", "replace"), v.decode("utf-8", "replace")]
                        for k, v in (f.metadata or {}).items()]}
    if ext is not None:
        out["extension"] = ext
    if children is not None:
        out["children"] = children
    return out


def describe_schema(s):
    return {"fields": [describe_field(f) for f in s],
            "metadata": [[k.decode("utf-8", "replace"), v.decode("utf-8", "replace")]
                         for k, v in (s.metadata or {}).items()]}


def read(path, options):
    try:
        if options:
            return {"schema": describe_schema(pq.ParquetFile(path, **options).schema_arrow)}
        return {"schema": describe_schema(pq.read_schema(path))}
    except Exception as e:  # noqa: BLE001 - any failure means "pyarrow refuses it"
        return {"error": f"{type(e).__name__}: {e}".strip()}


def options_json(options):
    out = {}
    for k, v in options.items():
        if k == "list_type":
            out[k] = "large_list" if v is pa.LargeListType else "list"
        elif isinstance(v, pa.DataType):
            out[k] = str(v)
        else:
            out[k] = v
    return out


# pq.ParquetFile options recorded for some files.
OPTIONS = {
    "schema_files/pa_all_types.parquet": [
        {"read_dictionary": ["string", "binary", "large_string", "json", "fsb1"]},
        {"binary_type": pa.large_binary()}, {"binary_type": pa.binary_view()},
        {"arrow_extensions_enabled": False}],
    "schema_files/pa_all_types_no_schema.parquet": [
        {"read_dictionary": ["string", "binary", "large_string", "json", "fsb1", "uuid"]},
        {"read_dictionary": ["string", "binary"], "binary_type": pa.large_binary()},
        {"binary_type": pa.large_binary()}, {"binary_type": pa.binary_view()},
        {"binary_type": pa.binary()}, {"arrow_extensions_enabled": False},
        {"arrow_extensions_enabled": False, "read_dictionary": ["json"], "binary_type": pa.binary_view()},
        {"read_dictionary": ["no_such_column"]}, {"read_dictionary": ["struct"]}],
    "schema_files/pa_nested.parquet": [
        {"list_type": pa.LargeListType}, {"read_dictionary": ["map.key_value.key", "list_of_list.list.element.list.element"]},
        {"read_dictionary": ["struct"]}],
    "schema_files/pa_nested_no_schema.parquet": [
        {"list_type": pa.LargeListType}, {"read_dictionary": ["map.key_value.key", "struct.m.key_value.key"]},
        {"binary_type": pa.large_binary(), "list_type": pa.LargeListType}],
    "schema_files/pa_nested_legacy_lists_no_schema.parquet": [{"list_type": pa.LargeListType}],
    "schema_files/pa_int96.parquet": [{"coerce_int96_timestamp_unit": "ms"}, {"coerce_int96_timestamp_unit": "s"}],
    "schema_files/pa_int96_no_schema.parquet": [{"coerce_int96_timestamp_unit": "us"}],
    "schema_files/pa_dictionaries.parquet": [{"read_dictionary": ["d_int64_large_string", "d_int32_int64"]}],
    "schema_files/craft_lists.parquet": [{"list_type": pa.LargeListType}],
    "schema_files/craft_structs.parquet": [{"list_type": pa.LargeListType}],
    "schema_files/craft_maps.parquet": [{"list_type": pa.LargeListType}],
    "schema_files/craft_leaf_logical.parquet": [
        {"binary_type": pa.large_binary()}, {"binary_type": pa.binary_view()},
        {"arrow_extensions_enabled": False, "binary_type": pa.large_binary()},
        {"read_dictionary": ["string", "enum", "json", "bson", "bytes", "uuid", "geometry", "flba5"]},
        {"coerce_int96_timestamp_unit": "us"}],
    "schema_files/craft_leaf_converted.parquet": [
        {"read_dictionary": ["utf8", "enum", "json", "bson"]}, {"arrow_extensions_enabled": False}],
    "schema_files/craft_origin_binary.parquet": [
        {"binary_type": pa.large_binary()}, {"binary_type": pa.binary_view()},
        {"read_dictionary": ["c13", "c14", "c16", "c47"]}],
    "schema_files/craft_origin_string.parquet": [
        {"binary_type": pa.large_binary()}, {"binary_type": pa.binary_view()}],
    "schema_files/craft_origin_nested.parquet": [{"list_type": pa.LargeListType}],
    "schema_files/craft_origin_int96.parquet": [{"coerce_int96_timestamp_unit": "ms"}],
    "parquet-testing/int96_from_spark.parquet": [{"coerce_int96_timestamp_unit": "ms"}, {"coerce_int96_timestamp_unit": "us"}],
    "parquet-testing/binary.parquet": [{"binary_type": pa.large_binary()}, {"read_dictionary": ["foo"]}],
    "parquet-testing/nested_lists.snappy.parquet": [{"list_type": pa.LargeListType}],
    "parquet-testing/nested_maps.snappy.parquet": [{"list_type": pa.LargeListType}],
    "parquet-testing/repeated_no_annotation.parquet": [{"list_type": pa.LargeListType}],
    "parquet-testing/alltypes_plain.parquet": [{"read_dictionary": ["string_col", "date_string_col"]}],
}


def main():
    if os.path.isdir(FILES):
        shutil.rmtree(FILES)
    os.makedirs(FILES)
    for name, (table, kwargs) in written_files().items():
        pq.write_table(table, os.path.join(FILES, f"pa_{name}.parquet"), **kwargs)
    write_special_files(FILES)
    crafted = {name: footer_only(fields) for name, fields in {**CRAFTED, **CRAFTED_REFUSED}.items()}
    crafted.update(crafted_origin_files())
    for name, data in crafted.items():
        with open(os.path.join(FILES, f"craft_{name}.parquet"), "wb") as f:
            f.write(data)

    files = {}
    patterns = [(TESTDATA, "parquet-testing/*.parquet"), (TESTDATA, "parquet-testing/geospatial/*.parquet"),
                (TESTDATA, "quiver/*.parquet"), (HERE, "schema_files/*.parquet")]
    for root, pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            rel = os.path.relpath(path, root)
            entry = read(path, {})
            variants = []
            for options in OPTIONS.get(rel, []):
                variants.append({"options": options_json(options), **read(path, options)})
            if variants:
                entry["variants"] = variants
            files[rel] = entry
    missing = set(OPTIONS) - set(files)
    assert not missing, f"options for files that do not exist: {missing}"
    out = {
        "generator": "src/quiver/parquet/schema/testdata/dump_pyarrow_schemas.py",
        "pyarrow": pa.__version__,
        "files": files,
    }
    # One line per file: small, and a regenerated file diffs file by file.
    with open(os.path.join(HERE, "pyarrow_schemas.json"), "w") as f:
        f.write("{\n")
        f.write(f' "generator": {json.dumps(out["generator"])},\n "pyarrow": {json.dumps(out["pyarrow"])},\n')
        f.write(' "files": {\n')
        lines = [f"  {json.dumps(rel)}: {json.dumps(entry, sort_keys=True)}" for rel, entry in sorted(files.items())]
        f.write(",\n".join(lines))
        f.write("\n }\n}\n")
    refused = sorted(rel for rel, e in files.items() if "error" in e)
    print(f"{len(files)} files ({len(refused)} refused by pyarrow)")


if __name__ == "__main__":
    main()
