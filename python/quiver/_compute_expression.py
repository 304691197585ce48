"""quiver.compute expressions: field("x") > 5, &, |, ~, .isin(), .is_null(),
.is_valid(), as pyarrow.compute.Expression builds and prints them
(src/quiver/compute/expression.h; docs/design.md "Expressions").

Also filters_to_expression (pyarrow.parquet's DNF rules), the translation of
a pyarrow.compute.Expression (checked by rebuilding it), and Table.filter /
RecordBatch.filter taking a mask or an expression.
"""

import functools as _functools
import operator as _operator
import re as _re

from quiver._quiver import RecordBatch as _RecordBatch
from quiver._quiver import Table as _Table
from quiver._quiver import _compute

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


def _quiver_error(name):
    import quiver

    return getattr(quiver, name)


def _is_pyarrow_expression(obj):
    return type(obj).__name__ == "Expression" and type(obj).__module__.startswith("pyarrow")


def _literal(value):
    """A literal of a Python value typed as pa.scalar types it (an int beyond
    int64 raises OverflowError, as pyarrow's)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < _INT64_MIN or value > _INT64_MAX:
            raise OverflowError("Python int too large to convert to C long")
    return _compute.expr_literal(value)


def _operand(value):
    """An _Expression for the right side of an operator."""
    if isinstance(value, Expression):
        return value._e
    if _is_pyarrow_expression(value):
        return Expression.from_pyarrow(value)._e
    return _literal(value)


class Expression:
    """A filter expression (pyarrow.compute.Expression's operators and str()).
    Build one with quiver.compute.field / quiver.compute.scalar, or from the
    CLI's --where text with Expression.parse."""

    __slots__ = ("_e",)

    def __init__(self, e):
        if not isinstance(e, _compute._Expression):
            raise TypeError("use quiver.compute.field(), quiver.compute.scalar() or "
                            "Expression.parse() to build an Expression")
        self._e = e

    # --- construction -------------------------------------------------------

    @staticmethod
    def parse(text):
        """The CLI's --where grammar (docs/interfaces.md): `x >= 5 and name ==
        'a'`, `d in (1, 2)`, `s is not null`, ... A syntax error raises
        quiver.InvalidError naming the column of the text."""
        return Expression(_compute.parse_where(text))

    @staticmethod
    def from_pyarrow(expr):
        """The same expression built by Quiver. Each translation is checked
        by rebuilding the pyarrow expression and comparing it with equals();
        a form Quiver does not express (other functions, nested field
        references, literal types it cannot tell from str()) raises
        quiver.NotImplementedError."""
        return _from_pyarrow(expr)

    def _call(self, function, *others):
        return Expression(_compute.expr_call(function, [self._e, *[_operand(o) for o in others]]))

    # --- operators as pyarrow's -----------------------------------------------

    def __eq__(self, other):
        return self._call("equal", other)

    def __ne__(self, other):
        return self._call("not_equal", other)

    def __lt__(self, other):
        return self._call("less", other)

    def __le__(self, other):
        return self._call("less_equal", other)

    def __gt__(self, other):
        return self._call("greater", other)

    def __ge__(self, other):
        return self._call("greater_equal", other)

    def __and__(self, other):
        return self._call("and_kleene", other)

    def __or__(self, other):
        return self._call("or_kleene", other)

    def __invert__(self):
        return Expression(_compute.expr_call("invert", [self._e]))

    __hash__ = None

    def __bool__(self):
        raise ValueError(
            "An Expression cannot be evaluated to python True or False. If you are using the "
            "'and', 'or' or 'not' operators, use '&', '|' or '~' instead.")

    def isin(self, values, skip_nulls=False):
        """is_in: whether the value is in `values` (an array, or a sequence
        typed as pa.array types it). A null matches a null in the set unless
        skip_nulls."""
        if not hasattr(values, "__arrow_c_array__"):
            if hasattr(values, "combine_chunks"):
                values = values.combine_chunks()
            else:
                import pyarrow

                values = pyarrow.array(values)
        return Expression(_compute.expr_is_in(self._e, values, bool(skip_nulls)))

    def is_null(self, nan_is_null=False):
        """Whether the value is null (or NaN, with nan_is_null)."""
        return Expression(_compute.expr_is_null(self._e, bool(nan_is_null)))

    def is_valid(self):
        """Whether the value is not null."""
        return Expression(_compute.expr_call("is_valid", [self._e]))

    # --- inspection -------------------------------------------------------------

    def equals(self, other):
        """Structural equality (with a pyarrow Expression: this one rebuilt in
        pyarrow equals it)."""
        if _is_pyarrow_expression(other):
            return self.to_pyarrow().equals(other)
        if not isinstance(other, Expression):
            raise TypeError(f"Expected Expression, got {type(other).__name__}")
        return self._e.equals(other._e)

    def fields(self):
        """The names of the fields the expression reads, in first-use order."""
        return list(self._e.fields())

    def __str__(self):
        return self._e.to_string()

    def __repr__(self):
        return f"<quiver.compute.Expression {self}>"

    def __reduce__(self):
        return (_rebuild, (self.to_pyarrow(),))

    def to_pyarrow(self):
        """The same pyarrow.compute.Expression."""
        return _to_pyarrow(self._e)


def _rebuild(pa_expr):
    return Expression.from_pyarrow(pa_expr)


def field(*name_or_index):
    """A top-level column by name (pyarrow.compute.field; nested references
    and indices raise quiver.NotImplementedError)."""
    if len(name_or_index) != 1 or not isinstance(name_or_index[0], str):
        raise _quiver_error("NotImplementedError")(
            "quiver.compute.field takes one top-level column name (a str); nested field "
            f"references and indices are not supported: {name_or_index!r}")
    return Expression(_compute.expr_field(name_or_index[0]))


def scalar(value):
    """A literal expression (pyarrow.compute.scalar): a Python value typed as
    pa.scalar types it, a quiver.Scalar or a pyarrow Scalar."""
    return Expression(_literal(value))


# --- pyarrow.compute.Expression <-> quiver -----------------------------------------


def _to_pyarrow(e):
    import pyarrow
    import pyarrow.compute as pc

    kind = e.kind
    if kind == "field":
        return pc.field(e.field_name)
    if kind == "literal":
        return pc.scalar(pyarrow.array(e.literal_array())[0])
    function = e.function
    args = [_to_pyarrow(a) for a in e.arguments]
    if function == "is_in":
        options = pc.SetLookupOptions(pyarrow.array(e.value_set), skip_nulls=e.skip_nulls)
        return pc.Expression._call("is_in", args, options)
    if function == "is_null":
        return pc.Expression._call("is_null", args, pc.NullOptions(nan_is_null=e.nan_is_null))
    return pc.Expression._call(function, args)


_BINARY_OPS = {"==": "equal", "!=": "not_equal", "<": "less", "<=": "less_equal",
               ">": "greater", ">=": "greater_equal", "and": "and_kleene", "or": "or_kleene"}
_DATE = _re.compile(r"-?\d{4,}-\d\d-\d\d")
_TIMESTAMP = _re.compile(r"(-?\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d)(\.\d+)?(Z?)")
_NUMBER = _re.compile(r"-?(\d+(\.\d*)?([eE][-+]?\d+)?|inf|nan)")


class _Untranslatable(Exception):
    pass


class _PyarrowText:
    """A reader of str(pyarrow Expression): the forms Quiver builds (fields,
    literals, comparisons, and / or, invert, is_in, is_null, is_valid)."""

    def __init__(self, text, binary_literals):
        self.s = text
        self.i = 0
        self.binary = binary_literals

    def fail(self):
        raise _Untranslatable()

    def peek(self, text):
        return self.s.startswith(text, self.i)

    def take(self, text):
        if not self.peek(text):
            self.fail()
        self.i += len(text)

    def expr(self):
        if self.peek("("):
            self.take("(")
            left = self.expr()
            self.take(" ")
            op = self.s[self.i:].split(" ", 1)[0]
            if op not in _BINARY_OPS:
                self.fail()
            self.take(op + " ")
            right = self.expr()
            self.take(")")
            return _compute.expr_call(_BINARY_OPS[op], [left, right])
        for name in ("invert(", "is_valid("):
            if self.peek(name):
                self.take(name)
                operand = self.expr()
                self.take(")")
                return _compute.expr_call(name[:-1], [operand])
        if self.peek("is_null("):
            self.take("is_null(")
            operand = self.expr()
            for flag in ("false", "true"):
                if self.peek(", {nan_is_null=" + flag + "})"):
                    self.take(", {nan_is_null=" + flag + "})")
                    return _compute.expr_is_null(operand, flag == "true")
            self.fail()
        if self.peek("is_in("):
            self.take("is_in(")
            operand = self.expr()
            self.take(", {value_set=")
            values = self.value_set()
            for mode in ("MATCH", "SKIP"):
                if self.peek(", null_matching_behavior=" + mode + "})"):
                    self.take(", null_matching_behavior=" + mode + "})")
                    return _compute.expr_is_in(operand, values, mode == "SKIP")
            self.fail()
        return self.atom()

    def atom(self):
        import pyarrow

        s, i = self.s, self.i
        if s.startswith('"', i):  # a string (or binary) literal
            j = i + 1
            out = []
            while j < len(s) and s[j] != '"':
                if s[j] == "\\" and j + 1 < len(s):
                    out.append({"n": "\n", "t": "\t", "r": "\r"}.get(s[j + 1], s[j + 1]))
                    j += 2
                    continue
                out.append(s[j])
                j += 1
            if j >= len(s):
                self.fail()
            self.i = j + 1
            text = "".join(out)
            if self.binary and _re.fullmatch(r"([0-9A-F]{2})*", text):
                return _literal(bytes.fromhex(text))
            return _literal(text)
        if s.startswith("null[", i):
            j = s.index("]", i)
            self.i = j + 1
            name = s[i + 5:j]
            try:
                type_ = pyarrow.null() if name == "null" else pyarrow.type_for_alias(name)
            except (ValueError, KeyError):
                self.fail()
            return _literal(pyarrow.scalar(None, type=type_))
        for word, value in (("true", True), ("false", False)):
            if s.startswith(word, i) and not self._name_char(i + len(word)):
                self.i = i + len(word)
                return _literal(value)
        m = _TIMESTAMP.match(s, i)
        if m and not self._name_char(m.end()):
            import datetime

            fraction = m.group(2) or ""
            unit = {0: "s", 4: "ms", 7: "us", 10: "ns"}.get(len(fraction))
            if unit is None:
                self.fail()
            base = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")
            epoch = datetime.datetime(1970, 1, 1)
            seconds = (base - epoch) // datetime.timedelta(seconds=1)
            ticks = seconds * {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
            ticks += int(fraction[1:] or "0")
            type_ = pyarrow.timestamp(unit, tz="UTC" if m.group(3) else None)
            self.i = m.end()
            return _literal(pyarrow.scalar(ticks, type=pyarrow.int64()).cast(type_))
        m = _DATE.match(s, i)
        if m and not self._name_char(m.end()):
            import datetime

            self.i = m.end()
            return _literal(datetime.date.fromisoformat(m.group(0)))
        m = _NUMBER.match(s, i)
        if m and not self._name_char(m.end()):
            self.i = m.end()
            text = m.group(0)
            if _re.fullmatch(r"-?\d+", text):
                value = int(text)
                if value < _INT64_MIN or value > _INT64_MAX:
                    self.fail()
                return _literal(value)
            return _literal(float(text))
        # A field name: up to the next ')' / ',' / ' ' (str() does not quote names).
        j = i
        while j < len(s) and s[j] not in "), ":
            j += 1
        if j == i:
            self.fail()
        self.i = j
        return _compute.expr_field(s[i:j])

    def _name_char(self, j):
        return j < len(self.s) and self.s[j] not in "), "

    def value_set(self):
        """<type>:[\\n  v,\\n  v\\n] or null:N nulls, as a pyarrow array."""
        import pyarrow

        colon = self.s.index(":", self.i)
        type_name = self.s[self.i:colon]
        self.i = colon + 1
        if type_name == "null":
            m = _re.match(r"(\d+) nulls", self.s[self.i:])
            if not m:
                self.fail()
            self.i += m.end()
            return pyarrow.nulls(int(m.group(1)))
        try:
            type_ = pyarrow.type_for_alias(type_name)
        except (ValueError, KeyError):
            self.fail()
        if self.peek("[]"):
            self.take("[]")
            return pyarrow.array([], type=type_)
        end = self.s.find("\n]", self.i)
        if not self.peek("[\n") or end < 0:
            self.fail()
        items = self.s[self.i + 2:end].split(",\n")
        self.i = end + 2
        values = []
        for item in items:
            if not item.startswith("  ") or item == "  ...":
                self.fail()
            values.append(self._value(item[2:], type_))
        try:
            return pyarrow.array(values, type=type_)
        except (pyarrow.ArrowInvalid, pyarrow.ArrowTypeError, TypeError, ValueError):
            self.fail()

    def _value(self, text, type_):
        import datetime

        import pyarrow

        if text == "null":
            return None
        if pyarrow.types.is_string(type_) or pyarrow.types.is_large_string(type_):
            if not (text.startswith('"') and text.endswith('"')):
                self.fail()
            return text[1:-1]
        if pyarrow.types.is_binary(type_) or pyarrow.types.is_large_binary(type_):
            return bytes.fromhex(text)
        if pyarrow.types.is_boolean(type_):
            return text == "true"
        if pyarrow.types.is_integer(type_):
            return int(text)
        if pyarrow.types.is_floating(type_):
            return float(text)
        if pyarrow.types.is_date(type_):
            return datetime.date.fromisoformat(text)
        if pyarrow.types.is_timestamp(type_) and type_.unit in ("s", "ms", "us") and type_.tz is None:
            return datetime.datetime.fromisoformat(text)
        self.fail()


def _from_pyarrow(expr):
    text = str(expr)
    for binary in (False, True):
        try:
            reader = _PyarrowText(text, binary)
            e = reader.expr()
            if reader.i != len(text):
                continue
        except (_Untranslatable, ValueError, TypeError, OverflowError, IndexError):
            continue
        candidate = Expression(e)
        try:
            if candidate.to_pyarrow().equals(expr):
                return candidate
        except Exception:  # noqa: BLE001 - a failed rebuild is a refusal below
            continue
    raise _quiver_error("NotImplementedError")(
        f"quiver cannot translate the pyarrow expression {text!r}: build it with "
        "quiver.compute.field (comparisons, &, |, ~, isin, is_null, is_valid)")


# --- pyarrow.parquet.filters_to_expression -------------------------------------------


def filters_to_expression(filters):
    """pyarrow.parquet.filters_to_expression with Quiver expressions: a list of
    (column, op, value) tuples is an AND, a list of such lists an OR; ops
    '==', '=', '!=', '<', '<=', '>', '>=', 'in', 'not in' ('not in' is
    ~isin). A quiver Expression is returned as it is; a pyarrow Expression
    is translated (Expression.from_pyarrow)."""
    if isinstance(filters, Expression):
        return filters
    if _is_pyarrow_expression(filters):
        return Expression.from_pyarrow(filters)
    invalid = _quiver_error("InvalidError")
    if filters is None or len(filters) == 0 or any(len(f) == 0 for f in filters):
        raise invalid("Malformed filters")
    if isinstance(filters[0][0], str):
        filters = [filters]

    def predicate(col, op, val):
        f = field(col)
        if op in ("=", "=="):
            return f == val
        if op == "!=":
            return f != val
        if op == "<":
            return f < val
        if op == ">":
            return f > val
        if op == "<=":
            return f <= val
        if op == ">=":
            return f >= val
        if op == "in":
            return f.isin(val)
        if op == "not in":
            return ~f.isin(val)
        raise invalid(f'"{op}" is not a valid operator in predicates.')

    disjunction = []
    for conjunction in filters:
        members = [predicate(col, op, val) for col, op, val in conjunction]
        disjunction.append(_functools.reduce(_operator.and_, members))
    return _functools.reduce(_operator.or_, disjunction)


# --- Table.filter / RecordBatch.filter --------------------------------------------------


def _as_expression(predicate):
    if isinstance(predicate, Expression):
        return predicate
    if _is_pyarrow_expression(predicate):
        return Expression.from_pyarrow(predicate)
    return None


def filter_by_expression(data, predicate):
    """The rows of a Table / RecordBatch (quiver's or any Arrow one) where the
    expression is true, a null dropping the row (pyarrow's
    Table.filter(Expression)); evaluated in C++ without the GIL."""
    expr = _as_expression(predicate)
    if expr is None:
        raise TypeError(f"Expected a quiver.compute.Expression, got {type(predicate).__name__}")
    as_batch = type(data).__name__ == "RecordBatch"
    return _compute.filter_by_expression(data, expr._e, as_batch)


def _tabular_filter(self, mask, null_selection_behavior="drop"):
    """The rows where `mask` is true: a boolean array / chunked array (as
    quiver.compute.filter), or an Expression (quiver's or pyarrow's, a null
    dropping the row), as pyarrow's Table.filter."""
    if _as_expression(mask) is not None:
        return filter_by_expression(self, mask)
    from quiver import compute

    return compute.filter(self, mask, null_selection_behavior)


_Table.filter = _tabular_filter
_RecordBatch.filter = _tabular_filter

__all__ = ["Expression", "field", "scalar", "filters_to_expression"]
