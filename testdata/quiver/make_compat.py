#!/usr/bin/env python3
"""Writes the compat_*.parquet files in this folder: small files of the kinds
real-world writers make that pyarrow reads (or refuses) in a way a strict
reader would not, each a fixed input of the reader corpus tests
(python/tests/test_reader_corpus.py, whose manifest says what pyarrow does
with each) and of the schema tests (src/quiver/parquet/schema/testdata).

  .venv/bin/python testdata/quiver/make_compat.py

Footers and pages are built by hand (one row group, PLAIN, uncompressed,
data page v1) with the Thrift encoder of python/tests/hostile_parquet.py:
  compat_root_type             the root element carries a physical type
                               (INT32; pyarrow ignores it: Arrow C++
                               schema.cc Unflatten makes every element with
                               children a group)
  compat_group_type            a nested group carries a physical type
  compat_na_nulls              converted_type 24, beyond parquet.thrift's
                               last (INTERVAL = 21), on an all-null column:
                               Arrow C++ maps Thrift value v to its
                               ConvertedType v + 1, and 25 is its obsolete NA
                               (PARQUET-1990), read as a null column
  compat_na_values             the same on a column holding values (pyarrow:
                               a null column, the values dropped)
  compat_converted_<v>         other out-of-range converted types (22, 23,
                               25, 1000, -1) on a column of values (pyarrow
                               refuses them)
  compat_unknown_logical       a LogicalType union member unknown to the
                               reader (field id 30) on an INT32 column, and
                               beside it one on a UTF8-converted BYTE_ARRAY
  compat_repetition_<v>        repetition_type out of range (3 = VECTOR in
                               newer parquet.thrift, 7)
  compat_physical_type_9       a leaf whose physical type is out of range
  compat_legacy_stats_<writer> only the legacy min / max (signed order) on
                               UINT_32, INT32 and UTF8 columns, written "by"
                               old and new parquet-mr, parquet-cpp, pyarrow
                               and no one (no created_by)
  compat_stats_type_order,     min_value / max_value beside the legacy
  compat_stats_no_order        fields, with and without column orders
and with pyarrow writing string columns that hold invalid UTF-8 (pyarrow
writes and reads them unvalidated):
  compat_utf8_dictionary       in a dictionary page (v1 data pages)
  compat_utf8_plain            in a PLAIN page (v1)
  compat_utf8_v2               dictionary and PLAIN columns, data page v2
  compat_utf8_nested           list<string> and struct<s: string>, one
                               row group of valid strings before the bad one
"""

import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tests"))

from hostile_parquet import BINARY, I32, I64, LIST, STRUCT, parquet_file, tstruct  # noqa: E402

INT32, INT64, BYTE_ARRAY = 1, 2, 6
REQUIRED, OPTIONAL = 0, 1
UTF8 = 0
CREATED_BY = "quiver testdata/quiver/make_compat.py"


def bitpacked_levels(levels):
    """Definition levels (0/1) as one RLE/bit-packed hybrid run of bit-packed
    groups, with the v1 4-byte length prefix."""
    groups = (len(levels) + 7) // 8
    body = bytearray([(groups << 1) | 1])
    for g in range(groups):
        byte = 0
        for i, level in enumerate(levels[g * 8:g * 8 + 8]):
            byte |= level << i
        body.append(byte)
    return len(body).to_bytes(4, "little") + bytes(body)


def plain(physical, values):
    if physical == INT32:
        return b"".join(v.to_bytes(4, "little", signed=True) for v in values)
    if physical == INT64:
        return b"".join(v.to_bytes(8, "little", signed=True) for v in values)
    return b"".join(len(v).to_bytes(4, "little") + v for v in values)


class Leaf:
    """A leaf column: its schema element fields and its values (None: null)."""

    def __init__(self, name, physical, values, optional=True, extra=(), stats=None):
        self.name, self.physical, self.values = name, physical, values
        self.optional, self.extra, self.stats = optional, tuple(extra), stats

    def element(self):
        fields = [(1, I32, self.physical), (3, I32, OPTIONAL if self.optional else REQUIRED),
                  (4, BINARY, self.name)] + list(self.extra)
        return tstruct(*sorted(fields, key=lambda f: f[0]))

    def page(self):
        present = [v for v in self.values if v is not None]
        body = b""
        if self.optional:
            body += bitpacked_levels([0 if v is None else 1 for v in self.values])
        body += plain(self.physical, present)
        header = tstruct((1, I32, 0), (2, I32, len(body)), (3, I32, len(body)),
                         (5, STRUCT, tstruct((1, I32, len(self.values)), (2, I32, 0),
                                             (3, I32, 3), (4, I32, 3))))
        return header + body


def write(name, leaves, root_extra=(), schema=None, paths=None, top=None,
          created_by=CREATED_BY, type_order=False):
    """One row group of `leaves`. `schema`: the SchemaElements after the root
    (default: the leaves' own, flat), `top` of them children of the root;
    `paths`: each leaf's path_in_schema; `created_by` None: none;
    `type_order`: column_orders TYPE_ORDER for every leaf."""
    rows = len(leaves[0].values)
    body, chunks = b"", []
    for i, leaf in enumerate(leaves):
        offset = 4 + len(body)
        page = leaf.page()
        body += page
        path = paths[i] if paths else [leaf.name]
        fields = [(1, I32, leaf.physical), (2, LIST, (I32, [0, 3])), (3, LIST, (BINARY, path)),
                  (4, I32, 0), (5, I64, rows), (6, I64, len(page)), (7, I64, len(page)),
                  (9, I64, offset)]
        if leaf.stats is not None:
            fields.append((12, STRUCT, tstruct(*leaf.stats)))
        meta = tstruct(*fields)
        chunks.append(tstruct((2, I64, offset), (3, STRUCT, meta)))
    elements = schema if schema is not None else [leaf.element() for leaf in leaves]
    top = len(elements) if top is None else top
    root = tstruct(*sorted([(4, BINARY, "schema"), (5, I32, top)] + list(root_extra),
                           key=lambda f: f[0]))
    group = tstruct((1, LIST, (STRUCT, chunks)), (2, I64, len(body)), (3, I64, rows))
    fields = [(1, I32, 1), (2, LIST, (STRUCT, [root] + elements)), (3, I64, rows),
              (4, LIST, (STRUCT, [group]))]
    if created_by is not None:
        fields.append((6, BINARY, created_by))
    if type_order:
        order = tstruct((1, STRUCT, tstruct()))
        fields.append((7, LIST, (STRUCT, [order] * len(leaves))))
    footer = tstruct(*fields)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(parquet_file(body, footer))


def hand_made():
    ids = Leaf("id", INT64, [1, 2, 3], optional=False)
    text = Leaf("s", BYTE_ARRAY, [b"x", None, b"z"], extra=[(6, I32, UTF8)])
    write("compat_root_type.parquet", [ids, text], root_extra=[(1, I32, INT32)])

    # group g (with a physical type) { a; b }
    a = Leaf("a", INT64, [1, 2, 3], optional=False)
    b = Leaf("b", BYTE_ARRAY, [b"x", None, b"z"], extra=[(6, I32, UTF8)])
    g = tstruct((1, I32, INT64), (3, I32, REQUIRED), (4, BINARY, "g"), (5, I32, 2))
    write("compat_group_type.parquet", [a, b], schema=[g, a.element(), b.element()],
          paths=[["g", "a"], ["g", "b"]], top=1)

    nulls = Leaf("n", INT32, [None, None, None], extra=[(6, I32, 24)])
    write("compat_na_nulls.parquet", [ids, nulls])
    values = Leaf("n", INT32, [7, None, 9], extra=[(6, I32, 24)])
    write("compat_na_values.parquet", [ids, values])
    for v in (22, 23, 25, 1000, -1):
        odd = Leaf("n", INT32, [7, None, 9], extra=[(6, I32, v)])
        write(f"compat_converted_{v}.parquet", [ids, odd])

    # LogicalType with only field 30 set (an empty struct): a member added
    # after this reader's parquet.thrift.
    unknown = (10, STRUCT, tstruct((30, STRUCT, tstruct())))
    write("compat_unknown_logical.parquet",
          [ids, Leaf("n", INT32, [7, None, 9], extra=[unknown]),
           Leaf("s", BYTE_ARRAY, [b"x", None, b"z"], extra=[(6, I32, UTF8), unknown])])

    for v in (3, 7):
        odd = Leaf("n", INT32, [7, 8, 9], optional=False)
        element = tstruct((1, I32, INT32), (3, I32, v), (4, BINARY, "n"))
        write(f"compat_repetition_{v}.parquet", [ids, odd], schema=[ids.element(), element])

    weird = Leaf("n", INT32, [7, 8, 9], optional=False)
    element = tstruct((1, I32, 9), (3, I32, REQUIRED), (4, BINARY, "n"))
    write("compat_physical_type_9.parquet", [ids, weird], schema=[ids.element(), element])


def legacy_statistics():
    """Statistics with only the legacy min / max (signed order, as old writers
    computed them) on unsigned and string columns, under the writers whose
    bounds pyarrow trusts or not (metadata.cc HasCorrectStatistics)."""
    u32 = [1, 4_000_000_000 - (1 << 32), 7]  # 4e9 stored as a negative int32

    def i32(v):
        return v.to_bytes(4, "little", signed=True)

    def legacy(lo, hi, nulls=0):
        return ((1, BINARY, hi), (2, BINARY, lo), (3, I64, nulls))

    def both(lo, hi, vlo, vhi):
        return ((1, BINARY, hi), (2, BINARY, lo), (3, I64, 0), (5, BINARY, vhi), (6, BINARY, vlo))

    leaves = [
        # signed order: min 4e9 (negative), max 7
        Leaf("u", INT32, u32, optional=False, extra=[(6, I32, 13)],
             stats=legacy(i32(u32[1]), i32(7))),
        Leaf("i", INT32, [3, -2, 9], optional=False, stats=legacy(i32(-2), i32(9))),
        Leaf("s", BYTE_ARRAY, [b"b", b"\xc3\xa9", b"a"], optional=False, extra=[(6, I32, UTF8)],
             stats=legacy(b"\xc3\xa9", b"b")),
        Leaf("same", BYTE_ARRAY, [b"z", b"z", b"z"], optional=False, extra=[(6, I32, UTF8)],
             stats=legacy(b"z", b"z")),
    ]
    for tag, created_by in (("none", None), ("mr_1_8_1", "parquet-mr version 1.8.1 (build 4aba)"),
                            ("mr_1_7_0", "parquet-mr version 1.7.0"),
                            ("mr_1_10_0", "parquet-mr version 1.10.0 (build 9a9c)"),
                            ("cpp_1_2_0", "parquet-cpp version 1.2.0"),
                            ("arrow_26", "parquet-cpp-arrow version 26.0.1")):
        write(f"compat_legacy_stats_{tag}.parquet", leaves, created_by=created_by)
    # The same bounds with min_value / max_value beside them (unsigned order
    # for u and s), with and without column orders.
    typed = [
        Leaf("u", INT32, u32, optional=False, extra=[(6, I32, 13)],
             stats=both(i32(u32[1]), i32(7), i32(1), i32(u32[1]))),
        Leaf("s", BYTE_ARRAY, [b"b", b"\xc3\xa9", b"a"], optional=False, extra=[(6, I32, UTF8)],
             stats=both(b"\xc3\xa9", b"b", b"a", b"\xc3\xa9")),
    ]
    write("compat_stats_type_order.parquet", typed, created_by="parquet-mr version 1.12.3",
          type_order=True)
    write("compat_stats_no_order.parquet", typed, created_by="parquet-mr version 1.12.3")


def invalid_strings(values):
    """A string array holding `values` (bytes or None) as they are."""
    return pa.array(values, pa.binary()).view(pa.string())


def by_pyarrow():
    bad = [b"ok", b"caf\xe9", None, b"ok", b"\xff\xfe", b"fine"]
    good = [b"a", b"b", None, b"c", b"d", b"e"]
    t = pa.table({"id": pa.array(range(6), pa.int64()), "s": invalid_strings(bad),
                  "clean": invalid_strings(good)})
    common = dict(compression="none", store_schema=False)
    pq.write_table(t, os.path.join(HERE, "compat_utf8_dictionary.parquet"), **common)
    pq.write_table(t, os.path.join(HERE, "compat_utf8_plain.parquet"), use_dictionary=False,
                   **common)
    t2 = t.append_column("p", invalid_strings(bad))
    pq.write_table(t2, os.path.join(HERE, "compat_utf8_v2.parquet"), data_page_version="2.0",
                   use_dictionary=["s", "clean"], **common)

    # Two row groups: the first all valid, the second with one bad value.
    offsets = pa.array([0, 2, 2, 3, 5, 6, 6, 7], pa.int32())
    items = invalid_strings([b"a", b"b", b"c", b"d", b"e", b"\xc3\x28", None])
    lists = pa.ListArray.from_arrays(offsets, items)
    structs = pa.StructArray.from_arrays(
        [invalid_strings([b"x", b"y", b"z", b"w", b"\xed\xa0\x80", b"v", b"u"])], ["s"])
    nested = pa.table({"id": pa.array(range(7), pa.int64()), "l": lists, "st": structs})
    pq.write_table(nested, os.path.join(HERE, "compat_utf8_nested.parquet"), row_group_size=4,
                   **common)


def main():
    hand_made()
    legacy_statistics()
    by_pyarrow()
    for name in sorted(os.listdir(HERE)):
        if name.startswith("compat_"):
            print(f"{name}: {os.path.getsize(os.path.join(HERE, name))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
