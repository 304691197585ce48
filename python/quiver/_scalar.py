"""quiver.Scalar and quiver.DataType: Python views of the library's Scalar
(src/quiver/array/scalar.h) and DataType, with pyarrow's names: str(t) is
pyarrow's type string, s.as_py() the Python value pyarrow's scalar.as_py()
gives."""

import datetime as _datetime
import decimal as _decimal


class DataType:
    """An Arrow data type (str() as pyarrow prints it: "int32", "timestamp[ms, tz=UTC]")."""

    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    @property
    def name(self):
        return self._t.name

    @property
    def unit(self):
        """The time unit of temporal types ("s", "ms", "us", "ns"), else None."""
        return self._t.unit

    @property
    def tz(self):
        return self._t.tz

    def __str__(self):
        return str(self._t)

    def __repr__(self):
        return f"quiver.DataType({self})"

    @property
    def num_fields(self):
        """Child fields of a nested type (list: 1, struct: its fields), else 0."""
        return self._t.num_fields

    def field(self, i):
        """The child field `i` (a quiver.Field)."""
        return self._t.field(i)

    def __arrow_c_schema__(self):
        return self._t.__arrow_c_schema__()

    @staticmethod
    def _import(obj):
        """A DataType from any object with __arrow_c_schema__ (a pyarrow DataType...)."""
        from quiver._quiver import _DataType

        return DataType(_DataType._import(obj))

    def equals(self, other):
        """Same type (pyarrow's DataType.equals); `other` may be a pyarrow type or
        pyarrow's string alias of one."""
        result = self.__eq__(other)
        if result is NotImplemented:
            raise TypeError(f"cannot compare a quiver.DataType with {type(other).__name__}")
        return result

    def __eq__(self, other):
        if isinstance(other, DataType):
            return self._t == other._t
        if isinstance(other, str):
            # pyarrow's DataType == "int64" compares with the alias.
            return str(self) == other
        if hasattr(other, "__arrow_c_schema__"):
            try:
                return self._t == DataType._import(other)._t
            except Exception:
                return False
        return NotImplemented

    def __hash__(self):
        return hash(str(self))

    def __reduce__(self):
        return (_type_from_ipc, (_type_schema_bytes(self),))


def _type_schema_bytes(t):
    """An empty table of one field of type `t`, as IPC bytes (how a DataType pickles)."""
    from quiver._quiver import _empty_table, field, schema

    return _empty_table(schema([field("t", t)]))._ipc_bytes()


def _type_from_ipc(data):
    from quiver import _quiver

    return _quiver._table_from_ipc(data).schema.field(0).type


_EPOCH = _datetime.datetime(1970, 1, 1)
_PER_MICRO = {"s": None, "ms": None, "us": 1, "ns": 1000}


def _micros(value, unit, what="datetime.datetime", truncate=False):
    """`value` in `unit` as microseconds; nanoseconds that are not whole microseconds raise
    pyarrow's ValueError (pyarrow's as_py without pandas), unless `truncate`."""
    if unit == "s":
        return value * 1_000_000
    if unit == "ms":
        return value * 1000
    if unit == "ns":
        if value % 1000 and not truncate:
            if what == "datetime.timedelta":
                raise ValueError(f"Nanosecond duration {value} is not safely convertible to "
                                 "microseconds to convert to datetime.timedelta. Install pandas "
                                 "to return as Timedelta with nanosecond support or access the "
                                 ".value attribute.")
            raise ValueError(f"Nanosecond resolution temporal type {value} is not safely "
                             f"convertible to microseconds to convert to {what}. Install pandas "
                             "to return as Timestamp with nanosecond support or access the "
                             ".value attribute.")
        return value // 1000
    return value


_PANDAS = []


def _pandas():
    """pandas when it is installed, else None (pyarrow converts nanosecond values
    through it: pandas.Timestamp / Timedelta)."""
    if not _PANDAS:
        try:
            import pandas
        except ImportError:
            pandas = None
        _PANDAS.append(pandas)
    return _PANDAS[0]


def _tzinfo(tz):
    if tz in ("UTC", "utc", "Z", "Etc/UTC"):
        try:
            from zoneinfo import ZoneInfo

            return ZoneInfo("UTC")
        except Exception:  # pragma: no cover
            return _datetime.timezone.utc
    if len(tz) == 6 and tz[0] in "+-" and tz[3] == ":":
        minutes = int(tz[1:3]) * 60 + int(tz[4:6])
        return _datetime.timezone(_datetime.timedelta(minutes=-minutes if tz[0] == "-" else minutes))
    from zoneinfo import ZoneInfo

    return ZoneInfo(tz)


class Scalar:
    """One typed value, valid or null (pyarrow.Scalar's names: type, is_valid, as_py())."""

    __slots__ = ("_s",)

    def __init__(self, s):
        self._s = s

    @property
    def type(self):
        return DataType(self._s.type)

    @property
    def is_valid(self):
        return self._s.is_valid

    def as_py(self):
        """The Python value pyarrow's as_py gives: None, bool, int, float, Decimal, str,
        bytes, date, time, datetime (time-zone aware when the type has a zone),
        timedelta, or a dict of the fields of a struct."""
        raw = self._s.raw
        if raw is None:
            return None
        t = self._s.type
        name = t.name
        if name.startswith("decimal"):
            sign, digits, scale = raw
            return _decimal.Decimal((sign, tuple(int(d) for d in digits), -scale))
        if name == "date32":
            return _datetime.date(1970, 1, 1) + _datetime.timedelta(days=raw)
        if name == "date64":
            return _datetime.date(1970, 1, 1) + _datetime.timedelta(days=raw // 86_400_000)
        pd = _pandas() if t.unit == "ns" else None
        if name in ("time32", "time64"):
            micros = _micros(raw, t.unit, truncate=pd is not None)
            return (_EPOCH + _datetime.timedelta(microseconds=micros)).time()
        if name == "timestamp":
            if pd is not None:
                if t.tz is None:
                    return pd.Timestamp(raw, unit="ns")
                return pd.Timestamp(raw, unit="ns", tz="UTC").tz_convert(t.tz)
            moment = _EPOCH + _datetime.timedelta(microseconds=_micros(raw, t.unit))
            if t.tz is None:
                return moment
            return moment.replace(tzinfo=_datetime.timezone.utc).astimezone(_tzinfo(t.tz))
        if name == "duration":
            if pd is not None:
                return pd.Timedelta(raw, unit="ns")
            return _datetime.timedelta(microseconds=_micros(raw, t.unit, "datetime.timedelta"))
        if name == "struct":
            return {field: Scalar(child).as_py() for field, child in raw}
        return raw

    def __eq__(self, other):
        if isinstance(other, Scalar):
            return self._s == other._s
        return NotImplemented

    def __hash__(self):
        return hash((str(self.type), str(self._s)))

    def __str__(self):
        return str(self._s)

    def __repr__(self):
        return f"<quiver.Scalar {self.type}: {self._s}>"
