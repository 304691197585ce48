"""Hand-made hostile Parquet bytes for the CLI tests (test_cli.py) and the
golden outputs (test_golden.py): a tiny Thrift compact-protocol encoder for
footers, and seeded mutations of real files."""


# A tiny Thrift compact-protocol encoder, to hand-craft hostile footers.
# A bool field carries its value in its type (TRUE / FALSE, no payload).
TRUE, FALSE, BYTE, I32, I64, BINARY, LIST, STRUCT = 1, 2, 3, 5, 6, 8, 9, 12


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(v):
    return varint((v << 1) ^ (v >> 63))


def tstruct(*fields):
    """fields: (id, type, value) in increasing id order; value is an int, a
    bytes/str, an encoded struct (bytes, for STRUCT) or (elem_type, [values])."""
    out, last = bytearray(), 0
    for fid, ftype, value in fields:
        if 0 < fid - last <= 15:
            out.append(((fid - last) << 4) | ftype)
        else:  # the long form: the type, then the id as a zigzag varint
            out += bytes([ftype]) + zigzag(fid)
        last = fid
        out += tvalue(ftype, value)
    return bytes(out + b"\0")


def tvalue(ftype, value):
    if ftype in (TRUE, FALSE):
        return b""
    if ftype == BYTE:
        return bytes([value & 0xFF])
    if ftype in (I32, I64):
        return zigzag(value)
    if ftype == BINARY:
        value = value.encode() if isinstance(value, str) else value
        return varint(len(value)) + value
    if ftype == STRUCT:
        return value
    elem, items = value
    head = bytes([(len(items) << 4) | elem]) if len(items) < 15 else bytes([0xF0 | elem]) + varint(len(items))
    return head + b"".join(tvalue(elem, x) for x in items)


def parquet_file(body, metadata):
    return b"PAR1" + body + metadata + len(metadata).to_bytes(4, "little") + b"PAR1"


def column_chunk(offset, length, num_values=0, dict_offset=None):
    fields = [(1, I32, 1), (2, LIST, (I32, [0])), (3, LIST, (BINARY, ["x"])), (4, I32, 0),
              (5, I64, num_values), (6, I64, length), (7, I64, length), (9, I64, offset)]
    if dict_offset is not None:
        fields.append((11, I64, dict_offset))
    return tstruct((2, I64, offset), (3, STRUCT, tstruct(*fields)))


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.randrange(6)
    n = len(data)
    if kind == 0:  # truncate
        return bytes(data[: rng.randrange(n)])
    if kind == 1:  # cut a piece out of the middle, keep the tail
        a = rng.randrange(n)
        b = min(n, a + rng.randrange(1, 64))
        return bytes(data[:a] + data[b:])
    if kind == 2:  # footer length
        data[n - 8 : n - 4] = rng.randrange(2**32).to_bytes(4, "little")
        return bytes(data)
    footer_len = int.from_bytes(data[n - 8 : n - 4], "little")
    footer_start = max(0, n - 8 - footer_len)
    for _ in range(rng.randrange(1, 9)):
        # Mostly the footer, where every byte matters; sometimes anywhere.
        pos = rng.randrange(footer_start, n - 8) if kind in (3, 4) else rng.randrange(n)
        if kind == 4:
            data[pos] = rng.choice([0x00, 0xFF, 0x7F, 0x80, 0x19, 0x1C, 0x29])
        else:
            data[pos] ^= 1 << rng.randrange(8)
    return bytes(data)
