#!/usr/bin/env python3
"""Generates parquet_types_internal.h / parquet_types.cc from parquet.thrift.

Python 3 standard library only. The build does not run this script: its
outputs are committed, and a test (parquet_types_test.cc) re-runs it into a
temporary directory to check that they are up to date.

    python3 generate.py [--input parquet.thrift] [--output-dir DIR] [--check]

The input is the subset of the Thrift IDL that parquet.thrift uses:
  - `namespace <lang> <name>` lines (the `cpp` one names the C++ namespace,
    dots becoming `::`; the others are ignored),
  - enums whose values are all explicit,
  - structs and unions (union members are optional),
  - fields `<id>: required|optional <type> <name> [= <default>]`,
  - types bool, byte, i8, i16, i32, i64, double, string, binary, list<T>
    (T not itself a list), and enums/structs/unions defined earlier,
  - `//`, `#` and `/* */` comments; the `//` comment lines right above an
    enum, struct, field or enum value become its comment in the header.

For each struct the output has plain members (optional ones as
std::optional, lists as std::vector, strings and binaries as std::string),
operator==, Read(thrift::CompactReader*) / Write(thrift::CompactWriter*)
returning Status (and their bool forms Decode / Encode, used for nested
values), ForEachField(visitor) for generic code, and for unions a Kind enum
with kind() / num_set(). Names follow Quiver's style: members snake_case,
enumerators kCamelCase (EnumName() gives back the IDL spelling), C++
keywords get a trailing underscore (LogicalType::enum_).
"""

import argparse
import os
import re
import sys
import tempfile

HEADER_NAME = "parquet_types_internal.h"
SOURCE_NAME = "parquet_types.cc"
INCLUDE_DIR = "quiver/parquet/thrift"

BASE_TYPES = {
    # IDL name: (C++ type, wire type, zero value)
    "bool": ("bool", "kBooleanTrue", "false"),
    "byte": ("int8_t", "kI8", "0"),
    "i8": ("int8_t", "kI8", "0"),
    "i16": ("int16_t", "kI16", "0"),
    "i32": ("int32_t", "kI32", "0"),
    "i64": ("int64_t", "kI64", "0"),
    "double": ("double", "kDouble", "0.0"),
    "string": ("std::string", "kBinary", None),
    "binary": ("std::string", "kBinary", None),
}

READ_FUNCTIONS = {
    "byte": "ReadI8",
    "i8": "ReadI8",
    "i16": "ReadI16",
    "i32": "ReadI32",
    "i64": "ReadI64",
    "double": "ReadDouble",
    "string": "ReadBinary",
    "binary": "ReadBinary",
}

WRITE_FUNCTIONS = {
    "byte": "WriteI8",
    "i8": "WriteI8",
    "i16": "WriteI16",
    "i32": "WriteI32",
    "i64": "WriteI64",
    "double": "WriteDouble",
    "string": "WriteBinary",
    "binary": "WriteBinary",
}

CPP_KEYWORDS = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
    "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
}

UNSUPPORTED_KEYWORDS = {
    "include", "cpp_include", "typedef", "const", "service", "exception", "senum", "map",
    "set", "extends", "throws", "oneway", "uuid",
}


class IdlError(Exception):
    pass


# --------------------------------------------------------------------------
# Model


class TypeRef:
    """A field type: a base type, list<elem>, or a named enum/struct."""

    def __init__(self, name, elem=None, line=0):
        self.name = name  # "list", a base type name, or a definition name
        self.elem = elem
        self.line = line
        self.definition = None  # Enum or Struct, resolved later

    @property
    def is_list(self):
        return self.name == "list"

    @property
    def is_base(self):
        return self.name in BASE_TYPES

    @property
    def is_bool(self):
        return self.name == "bool"

    @property
    def is_enum(self):
        return isinstance(self.definition, Enum)

    @property
    def is_struct(self):
        return isinstance(self.definition, Struct)


class Field:
    def __init__(self, fid, name, requiredness, type_ref, default, doc, line):
        self.id = fid
        self.name = name
        self.requiredness = requiredness  # "required" or "optional"
        self.type = type_ref
        self.default = default  # (kind, value) or None
        self.doc = doc
        self.line = line

    @property
    def required(self):
        return self.requiredness == "required"

    @property
    def cpp_name(self):
        return member_name(self.name)


class Enum:
    def __init__(self, name, doc, line):
        self.name = name
        self.values = []  # (name, value, doc)
        self.doc = doc
        self.line = line


class Struct:
    def __init__(self, name, is_union, doc, line):
        self.name = name
        self.is_union = is_union
        self.fields = []
        self.doc = doc
        self.line = line


class Document:
    def __init__(self):
        self.namespaces = {}
        self.definitions = []  # Enum and Struct, in file order
        self.by_name = {}


# --------------------------------------------------------------------------
# Lexer

TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r]+)
  | (?P<newline>\n)
  | (?P<line_comment>//[^\n]*|\#[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<string>"[^"\n]*"|'[^'\n]*')
  | (?P<number>[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?))
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<punct>[{}<>:;,=()\[\]])
    """,
    re.VERBOSE | re.DOTALL,
)


class Token:
    def __init__(self, kind, text, line):
        self.kind = kind
        self.text = text
        self.line = line
        self.doc = []  # comment lines right above this token
        self.trailing = []  # comment on the same line, after the item


def tokenize(text):
    tokens = []
    comments = []  # (first_line, last_line, [text lines]) of // comments
    pos = 0
    line = 1
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise IdlError(f"line {line}: unexpected character {text[pos]!r}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "line_comment":
            body = value[1:] if value.startswith("#") else value[2:]
            if body.startswith(" "):
                body = body[1:]
            comments.append((line, line, [body.rstrip()]))
        elif kind == "block_comment":
            # Block comments are not carried into the output (the upstream
            # licence header and the like); only their line count matters.
            pass
        elif kind not in ("ws", "newline"):
            tokens.append(Token(kind, value, line))
        line += value.count("\n")
        pos = m.end()
    attach_comments(tokens, comments)
    return tokens


def attach_comments(tokens, comments):
    """Gives each token the run of // lines that ends on the line above it,
    and the comment that follows it on its own line (if no token follows)."""
    by_line = {}
    for first, _, lines in comments:
        by_line[first] = lines[0]
    first_token_on_line = {}
    last_token_on_line = {}
    for index, token in enumerate(tokens):
        first_token_on_line.setdefault(token.line, index)
        last_token_on_line[token.line] = index
    for line, index in first_token_on_line.items():
        doc = []
        probe = line - 1
        while probe in by_line and probe not in first_token_on_line:
            doc.insert(0, by_line[probe])
            probe -= 1
        tokens[index].doc = doc
    for line, text in by_line.items():
        if line in first_token_on_line:
            tokens[first_token_on_line[line]].trailing = [text]


# --------------------------------------------------------------------------
# Parser


class Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self, offset=0):
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def next(self):
        token = self.peek()
        if token is None:
            raise IdlError("unexpected end of file")
        self.pos += 1
        return token

    def expect(self, text):
        token = self.next()
        if token.text != text:
            raise IdlError(f"line {token.line}: expected {text!r}, found {token.text!r}")
        return token

    def expect_ident(self):
        token = self.next()
        if token.kind != "ident":
            raise IdlError(f"line {token.line}: expected a name, found {token.text!r}")
        return token

    def skip_separator(self):
        token = self.peek()
        if token is not None and token.text in (";", ","):
            self.pos += 1

    def parse(self):
        doc = Document()
        while self.peek() is not None:
            token = self.next()
            if token.text == "namespace":
                lang = self.expect_ident().text
                name = self.expect_ident().text
                doc.namespaces[lang] = name
            elif token.text == "enum":
                self.add(doc, self.parse_enum(token))
            elif token.text in ("struct", "union"):
                self.add(doc, self.parse_struct(token))
            elif token.text in UNSUPPORTED_KEYWORDS:
                raise IdlError(f"line {token.line}: '{token.text}' is not supported by generate.py")
            else:
                raise IdlError(f"line {token.line}: unexpected {token.text!r}")
        return doc

    @staticmethod
    def add(doc, definition):
        if definition.name in doc.by_name or definition.name in BASE_TYPES:
            raise IdlError(f"line {definition.line}: {definition.name} is defined twice")
        doc.definitions.append(definition)
        doc.by_name[definition.name] = definition

    def parse_enum(self, keyword):
        name = self.expect_ident()
        enum = Enum(name.text, keyword.doc + keyword.trailing, keyword.line)
        self.expect("{")
        while self.peek() is not None and self.peek().text != "}":
            value_name = self.expect_ident()
            if self.peek() is None or self.peek().text != "=":
                raise IdlError(f"line {value_name.line}: enum value {value_name.text} needs "
                               "an explicit number")
            self.expect("=")
            number = self.next()
            if number.kind != "number":
                raise IdlError(f"line {number.line}: enum value must be an integer")
            value = parse_int(number)
            if not -(2**31) <= value < 2**31:
                raise IdlError(f"line {number.line}: enum value out of i32 range")
            self.skip_separator()
            enum.values.append((value_name.text, value, value_name.doc + value_name.trailing))
        self.expect("}")
        names = [v[0] for v in enum.values]
        if len(set(names)) != len(names):
            raise IdlError(f"line {enum.line}: enum {enum.name} repeats a name")
        numbers = [v[1] for v in enum.values]
        if len(set(numbers)) != len(numbers):
            raise IdlError(f"line {enum.line}: enum {enum.name} repeats a value")
        if not enum.values:
            raise IdlError(f"line {enum.line}: enum {enum.name} is empty")
        return enum

    def parse_struct(self, keyword):
        name = self.expect_ident()
        struct = Struct(name.text, keyword.text == "union", keyword.doc + keyword.trailing,
                        keyword.line)
        self.expect("{")
        while self.peek() is not None and self.peek().text != "}":
            struct.fields.append(self.parse_field(struct))
        self.expect("}")
        ids = [f.id for f in struct.fields]
        if len(set(ids)) != len(ids):
            raise IdlError(f"line {struct.line}: {struct.name} repeats a field id")
        names = [f.cpp_name for f in struct.fields]
        if len(set(names)) != len(names):
            raise IdlError(f"line {struct.line}: {struct.name} repeats a field name")
        return struct

    def parse_field(self, struct):
        first = self.next()
        if first.kind != "number":
            raise IdlError(f"line {first.line}: expected a field id, found {first.text!r} "
                           "(fields need explicit ids)")
        fid = parse_int(first)
        if not 1 <= fid <= 32767:
            raise IdlError(f"line {first.line}: field id {fid} must be 1..32767")
        self.expect(":")
        requiredness = None
        if self.peek() is not None and self.peek().text in ("required", "optional"):
            requiredness = self.next().text
        if struct.is_union:
            if requiredness == "required":
                raise IdlError(f"line {first.line}: union members cannot be required")
            requiredness = "optional"
        elif requiredness is None:
            raise IdlError(f"line {first.line}: field {fid} of {struct.name} needs 'required' "
                           "or 'optional' (default requiredness is not supported)")
        type_ref = self.parse_type()
        name = self.expect_ident()
        default = None
        if self.peek() is not None and self.peek().text == "=":
            self.next()
            default = parse_constant(self.next())
        self.skip_separator()
        return Field(fid, name.text, requiredness, type_ref, default,
                     first.doc + first.trailing, first.line)

    def parse_type(self):
        token = self.expect_ident()
        if token.text == "list":
            self.expect("<")
            elem = self.parse_type()
            if elem.is_list:
                raise IdlError(f"line {token.line}: nested lists are not supported")
            self.expect(">")
            return TypeRef("list", elem, token.line)
        if token.text in UNSUPPORTED_KEYWORDS:
            raise IdlError(f"line {token.line}: type '{token.text}' is not supported")
        return TypeRef(token.text, None, token.line)


def parse_int(token):
    try:
        return int(token.text, 0)
    except ValueError:
        raise IdlError(f"line {token.line}: {token.text!r} is not an integer") from None


def parse_constant(token):
    if token.kind == "number":
        if re.fullmatch(r"[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)", token.text):
            return ("int", int(token.text, 0))
        return ("double", float(token.text))
    if token.kind == "string":
        return ("string", token.text[1:-1])
    if token.kind == "ident" and token.text in ("true", "false"):
        return ("bool", token.text == "true")
    if token.kind == "ident":
        return ("ident", token.text)
    raise IdlError(f"line {token.line}: unsupported default value {token.text!r}")


# --------------------------------------------------------------------------
# Validation


def resolve(doc):
    defined = set()
    for definition in doc.definitions:
        if isinstance(definition, Struct):
            for field in definition.fields:
                resolve_type(doc, field.type, defined, definition)
                check_default(field)
        defined.add(definition.name)


def resolve_type(doc, type_ref, defined, owner):
    if type_ref.is_list:
        resolve_type(doc, type_ref.elem, defined, owner)
        return
    if type_ref.is_base:
        return
    definition = doc.by_name.get(type_ref.name)
    if definition is None:
        raise IdlError(f"line {type_ref.line}: unknown type {type_ref.name}")
    if type_ref.name not in defined:
        raise IdlError(f"line {type_ref.line}: {owner.name} uses {type_ref.name} before its "
                       "definition (or itself)")
    type_ref.definition = definition


def check_default(field):
    if field.default is None:
        return
    kind, value = field.default
    t = field.type
    ok = False
    if t.is_bool:
        # Old IDL files wrote bool defaults as 0/1.
        ok = kind == "bool" or (kind == "int" and value in (0, 1))
    elif t.name in ("byte", "i8", "i16", "i32", "i64"):
        bits = {"byte": 8, "i8": 8, "i16": 16, "i32": 32, "i64": 64}[t.name]
        ok = kind == "int" and -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)
    elif t.name == "double":
        ok = kind in ("int", "double")
    elif t.name in ("string", "binary"):
        ok = kind == "string"
    elif t.is_enum:
        ok = (kind == "int" and any(v == value for _, v, _ in t.definition.values)) or (
            kind == "ident" and enum_value_by_ident(t.definition, value) is not None)
    if not ok:
        raise IdlError(f"line {field.line}: bad default for field {field.name}")


def enum_value_by_ident(enum, ident):
    name = ident.split(".")[-1]
    if "." in ident and ident.split(".")[0] != enum.name:
        return None
    for value_name, _, _ in enum.values:
        if value_name == name:
            return value_name
    return None


# --------------------------------------------------------------------------
# Naming


def member_name(idl_name):
    """isAdjustedToUTC -> is_adjusted_to_utc, TYPE_ORDER -> type_order."""
    if idl_name.isupper() or "_" in idl_name:
        name = idl_name.lower()
    else:
        name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", idl_name)
        name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    if name in CPP_KEYWORDS:
        name += "_"
    return name


def constant_name(idl_name):
    """PLAIN_DICTIONARY -> kPlainDictionary, INT_8 -> kInt8."""
    parts = [p for p in re.split(r"_+", idl_name) if p]
    return "k" + "".join(p[:1].upper() + p[1:].lower() for p in parts)


def default_constant_name(field):
    """is_compressed -> kIsCompressedDefault."""
    return "k" + "".join(p.capitalize() for p in field.cpp_name.strip("_").split("_")) + "Default"


# --------------------------------------------------------------------------
# C++ emission


def cpp_type(t):
    if t.is_list:
        return f"std::vector<{cpp_type(t.elem)}>"
    if t.is_base:
        return BASE_TYPES[t.name][0]
    return t.name


def wire_type(t):
    if t.is_list:
        return "kList"
    if t.is_base:
        return BASE_TYPES[t.name][1]
    if t.is_enum:
        return "kI32"
    return "kStruct"


def element_wire_type(t):
    return "thrift::kListBool" if t.is_bool else f"thrift::CompactType::{wire_type(t)}"


def default_literal(field):
    """The C++ literal of an IDL default, or None."""
    if field.default is None:
        return None
    kind, value = field.default
    t = field.type
    if t.is_bool:
        return "true" if value else "false"
    if t.is_enum:
        if kind == "int":
            name = next(n for n, v, _ in t.definition.values if v == value)
        else:
            name = enum_value_by_ident(t.definition, value)
        return f"{t.name}::{constant_name(name)}"
    if t.name == "double":
        return repr(float(value))
    if t.name in ("string", "binary"):
        return cpp_string_literal(value)
    if t.name == "i64":
        return f"int64_t{{{value}}}"
    return str(value)


def cpp_string_literal(value):
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append(f"\\x{ord(ch):02x}")
    return '"' + "".join(out) + '"'


def member_initializer(field):
    if not field.required:
        return ""
    literal = default_literal(field)
    if literal is not None:
        return f" = {literal}"
    t = field.type
    if t.is_base and BASE_TYPES[t.name][2] is not None:
        return f" = {BASE_TYPES[t.name][2]}"
    if t.is_enum:
        return "{}"
    return ""


def comment_lines(doc, indent):
    return [f"{indent}//{' ' + line if line else ''}" for line in doc]


class Emitter:
    def __init__(self, doc, input_name):
        self.doc = doc
        self.input_name = input_name
        ns = doc.namespaces.get("cpp")
        if not ns:
            raise IdlError("the IDL needs a 'namespace cpp ...' line")
        self.namespace = ns.replace(".", "::")

    def banner(self):
        return [
            f"// Generated by generate.py from {self.input_name}: do not edit.",
            f"// Regenerate with: python3 src/{INCLUDE_DIR}/generate.py",
        ]

    # ---------------------------------------------------------------- header

    def header(self):
        out = self.banner()
        out += [
            "//",
            "// The Parquet metadata structures as plain C++ values, with their Thrift",
            "// compact protocol encoding (see compact_protocol_internal.h). Enum members keep any",
            "// value read from a file, also values this version does not name, so that",
            "// newer files pass through unchanged. A union is a struct whose members are",
            "// all optional: kind() tells which one is set; Read rejects more than one,",
            "// and accepts none (a member added after this version is skipped).",
            "//",
            "// Read() starts from a default-constructed value, skips unknown field ids",
            "// and fields whose wire type does not match the IDL (as the Apache Thrift",
            "// generated C++ and Java code does; a list whose element type does not",
            "// match is an error instead, as in parquet-rs), and fails with Invalid when",
            "// a required field is missing. After a failed Read the value is unspecified.",
            "#pragma once",
            "",
            "#include <cstdint>",
            "#include <optional>",
            "#include <string>",
            "#include <string_view>",
            "#include <vector>",
            "",
            f'#include "{INCLUDE_DIR}/compact_protocol_internal.h"',
            '#include "quiver/util/status.h"',
            "",
            f"namespace {self.namespace} {{",
            "",
        ]
        for definition in self.doc.definitions:
            if isinstance(definition, Enum):
                out += self.enum_declaration(definition)
            else:
                out += self.struct_declaration(definition)
            out.append("")
        structs = [d.name for d in self.doc.definitions if isinstance(d, Struct)]
        out.append("// Every struct and union above, in IDL order (for generic code and tests).")
        out.append("template <typename... T>")
        out.append("struct TypeList {};")
        out.append("using AllStructs = TypeList<")
        for i, name in enumerate(structs):
            out.append(f"    {name}{',' if i + 1 < len(structs) else '>;'}")
        out.append("")
        out.append(f"}}  // namespace {self.namespace}")
        return "\n".join(out) + "\n"

    def enum_declaration(self, enum):
        out = comment_lines(enum.doc, "")
        out.append(f"enum class {enum.name} : int32_t {{")
        names = set()
        for name, value, doc in enum.values:
            cname = constant_name(name)
            if cname in names:
                raise IdlError(f"enum {enum.name}: two values map to {cname}")
            names.add(cname)
            out += comment_lines(doc, "  ")
            out.append(f"  {cname} = {value},")
        out.append("};")
        example = enum.values[0][0]
        out.append(f'// The IDL spelling of a value (e.g. "{example}"), or "" if it has none.')
        out.append(f"std::string_view EnumName({enum.name} value);")
        return out

    def struct_declaration(self, struct):
        out = comment_lines(struct.doc, "")
        out.append(f"struct {struct.name} {{")
        if struct.is_union:
            out.append("  // Which member is set; the values are the field ids.")
            out.append("  enum class Kind : int16_t {")
            out.append("    kNone = 0,")
            kinds = {"kNone"}
            for field in struct.fields:
                kname = constant_name(field.name)
                if kname in kinds:
                    raise IdlError(f"union {struct.name}: two members map to {kname}")
                kinds.add(kname)
                out.append(f"    {kname} = {field.id},")
            out.append("  };")
            out.append("")
        for field in struct.fields:
            out += comment_lines(field.doc, "  ")
            if field.required:
                out.append(f"  {cpp_type(field.type)} {field.cpp_name}"
                           f"{member_initializer(field)};")
            else:
                out.append(f"  std::optional<{cpp_type(field.type)}> {field.cpp_name};")
        defaults = [f for f in struct.fields if not f.required and f.default is not None]
        if defaults:
            out.append("")
        for field in defaults:
            t = cpp_type(field.type)
            constant_type = "std::string_view" if t == "std::string" else t
            out.append(f"  // What an absent {field.cpp_name} means.")
            out.append(f"  static constexpr {constant_type} {default_constant_name(field)} = "
                       f"{default_literal(field)};")
            out.append(f"  {constant_type} {field.cpp_name}_or_default() const {{")
            if constant_type == "std::string_view":
                out.append(f"    return {field.cpp_name} ? std::string_view(*{field.cpp_name}) : "
                           f"{default_constant_name(field)};")
            else:
                out.append(f"    return {field.cpp_name}.value_or({default_constant_name(field)});")
            out.append("  }")
        if struct.fields:
            out.append("")
        if struct.is_union:
            out.append("  // The set member (the lowest field id if several are), or kNone.")
            out.append("  Kind kind() const;")
            out.append("  // Number of members set (a valid union has at most one).")
            out.append("  int num_set() const;")
            out.append("")
        out.append("  // Reads / appends the Thrift compact encoding.")
        out.append("  Status Read(thrift::CompactReader* reader);")
        out.append("  Status Write(thrift::CompactWriter* writer) const;")
        out.append("  // The same without a Status per struct (used for nested values): Decode")
        out.append("  // expects a default-constructed value; on false, reader->status() or")
        out.append("  // writer->status() holds the error.")
        out.append("  [[nodiscard]] bool Decode(thrift::CompactReader* reader);")
        out.append("  [[nodiscard]] bool Encode(thrift::CompactWriter* writer) const;")
        out.append("")
        out.append("  // Calls visitor(field_id, idl_name, member) for each member in IDL order.")
        for qualifier in ("", " const"):
            out.append("  template <typename Visitor>")
            out.append(f"  void ForEachField(Visitor&& visitor){qualifier} {{")
            for field in struct.fields:
                line = (f'    visitor(int16_t{{{field.id}}}, std::string_view("{field.name}"), '
                        f"this->{field.cpp_name});")
                if len(line) > 100:
                    line = (f"    visitor(int16_t{{{field.id}}}, "
                            f'std::string_view("{field.name}"),\n'
                            f"            this->{field.cpp_name});")
                out.append(line)
            if not struct.fields:
                out.append("    static_cast<void>(visitor);")
            out.append("  }")
        out.append("")
        out.append(f'  static constexpr std::string_view kName = "{struct.name}";')
        out.append(f"  static constexpr bool kIsUnion = {'true' if struct.is_union else 'false'};")
        out.append("")
        out.append(f"  friend bool operator==(const {struct.name}&, "
                   f"const {struct.name}&) = default;")
        out.append("};")
        return out

    # ---------------------------------------------------------------- source

    def source(self):
        out = self.banner()
        out += [
            "",
            f'#include "{INCLUDE_DIR}/{HEADER_NAME}"',
            "",
            "#include <utility>",
            "",
            f"namespace {self.namespace} {{",
            "",
        ]
        for definition in self.doc.definitions:
            if isinstance(definition, Enum):
                out += self.enum_definition(definition)
            else:
                out += self.struct_definition(definition)
        out.append(f"}}  // namespace {self.namespace}")
        return "\n".join(out) + "\n"

    def enum_definition(self, enum):
        out = [f"std::string_view EnumName({enum.name} value) {{", "  switch (value) {"]
        for name, _, _ in enum.values:
            out.append(f"    case {enum.name}::{constant_name(name)}:")
            out.append(f'      return "{name}";')
        out += ["  }", '  return "";', "}", ""]
        return out

    def struct_definition(self, struct):
        out = []
        if struct.is_union:
            out += self.union_helpers(struct)
        out += self.read_function(struct)
        out += self.write_function(struct)
        return out

    def union_helpers(self, struct):
        name = struct.name
        out = [f"{name}::Kind {name}::kind() const {{"]
        for field in sorted(struct.fields, key=lambda f: f.id):
            out.append(f"  if (this->{field.cpp_name}) return Kind::{constant_name(field.name)};")
        out += ["  return Kind::kNone;", "}", ""]
        out.append(f"int {name}::num_set() const {{")
        out.append("  int count = 0;")
        for field in struct.fields:
            out.append(f"  if (this->{field.cpp_name}) ++count;")
        out += ["  return count;", "}", ""]
        return out

    def read_function(self, struct):
        name = struct.name
        out = [
            f"Status {name}::Read(thrift::CompactReader* reader) {{",
            f"  *this = {name}();",
            "  if (Decode(reader)) return Status::OK();",
            "  return reader->status();",
            "}",
            "",
            f"bool {name}::Decode(thrift::CompactReader* reader) {{",
        ]
        required = [f for f in struct.fields if f.required]
        for field in required:
            out.append(f"  bool has_{field.cpp_name} = false;")
        out += [
            "  if (!reader->ReadStructBegin()) return false;",
            "  while (true) {",
            "    thrift::CompactType ftype;",
            "    int16_t fid;",
            "    if (!reader->ReadFieldBegin(&ftype, &fid)) return false;",
            "    if (ftype == thrift::CompactType::kStop) break;",
        ]
        if struct.fields:
            out.append("    switch (fid) {")
            for field in struct.fields:
                out += self.read_case(field)
            out += ["      default:", "        break;", "    }"]
        else:
            out.append("    static_cast<void>(fid);")
        out += [
            "    if (!reader->Skip(ftype)) return false;",
            "  }",
            "  if (!reader->ReadStructEnd()) return false;",
        ]
        for field in required:
            out.append(f"  if (!has_{field.cpp_name}) {{")
            out.append(f'    return reader->MissingField("{name}", "{field.name}");')
            out.append("  }")
        if struct.is_union:
            out.append("  if (num_set() > 1) {")
            out.append(f'    return reader->Fail(Status::Invalid("thrift: union {name} has ", '
                       "num_set(),")
            out.append('                                        " members set, at most one is '
                       'allowed (ends at byte ",')
            out.append('                                        reader->position(), ")"));')
            out.append("  }")
        out += ["  return true;", "}", ""]
        return out

    def read_case(self, field):
        t = field.type
        member = f"this->{field.cpp_name}"
        if t.is_bool:
            condition = "thrift::IsBool(ftype)"
        else:
            condition = f"ftype == thrift::CompactType::{wire_type(t)}"
        body = []
        if t.is_bool:
            body.append(f"{member} = ftype == thrift::CompactType::kBooleanTrue;")
        elif field.required:
            if t.is_struct:
                # A repeated field replaces the earlier value.
                body.append(f"{member} = {t.name}();")
            body += read_value(t, member)
        elif t.is_enum or t.is_list:
            body += read_value(t, member, optional=True)
        else:
            body += read_value(t, f"{member}.emplace()")
        if field.required:
            body.append(f"has_{field.cpp_name} = true;")
        body.append("continue;")
        out = [f"      case {field.id}:", f"        if ({condition}) {{"]
        out += ["          " + line if line else "" for line in body]
        out += ["        }", "        break;"]
        return out

    def write_function(self, struct):
        name = struct.name
        out = [
            f"Status {name}::Write(thrift::CompactWriter* writer) const {{",
            "  if (Encode(writer)) return Status::OK();",
            "  return writer->status();",
            "}",
            "",
            f"bool {name}::Encode(thrift::CompactWriter* writer) const {{",
        ]
        if struct.is_union:
            out.append("  if (num_set() > 1) {")
            out.append(f'    return writer->Fail(Status::Invalid("thrift: union {name} has ", '
                       "num_set(),")
            out.append('                                        " members set, at most one is '
                       'allowed"));')
            out.append("  }")
        out.append("  if (!writer->WriteStructBegin()) return false;")
        for field in struct.fields:
            out += self.write_field(field)
        out += ["  return writer->WriteStructEnd();", "}", ""]
        return out

    def write_field(self, field):
        t = field.type
        member = f"this->{field.cpp_name}"
        value = member if field.required else f"*{member}"
        body = []
        if t.is_bool:
            body.append(f"if (!writer->WriteBoolField({field.id}, {value})) return false;")
        elif not field.required and (t.is_struct or t.is_list):
            body.append("if (!writer->WriteFieldBegin("
                        f"thrift::CompactType::{wire_type(t)}, {field.id})) return false;")
            body += write_value(t, value, pointer=member)
        else:
            body.append("if (!writer->WriteFieldBegin("
                        f"thrift::CompactType::{wire_type(t)}, {field.id})) return false;")
            body += write_value(t, value)
        if field.required:
            return ["  " + line for line in body]
        out = [f"  if ({member}) {{"]
        out += ["    " + line for line in body]
        out.append("  }")
        return out


def read_value(t, target, optional=False):
    """Lines that read a value of type t into the lvalue `target`. With
    optional=True the target is a std::optional that gets emplaced."""
    if t.is_list:
        lines = []
        if optional:
            lines.append(f"auto& list = {target}.emplace();")
            target = "list"
        else:
            lines.append(f"{target}.clear();  // a repeated field replaces the earlier one")
        lines += [
            "int32_t size;",
            f"if (!reader->ReadListBeginOf({element_wire_type(t.elem)}, &size)) return false;",
            f"reader->ReserveList(&{target}, size);",
            "for (int32_t i = 0; i < size; ++i) {",
        ]
        elem = t.elem
        if elem.is_bool:
            lines += ["  bool value;", "  if (!reader->ReadBool(&value)) return false;",
                      f"  {target}.push_back(value);"]
        elif elem.is_enum:
            lines += ["  int32_t value;", "  if (!reader->ReadI32(&value)) return false;",
                      f"  {target}.push_back(static_cast<{elem.name}>(value));"]
        elif elem.is_struct:
            lines.append(f"  if (!{target}.emplace_back().Decode(reader)) return false;")
        else:
            lines.append(f"  if (!reader->{READ_FUNCTIONS[elem.name]}"
                         f"(&{target}.emplace_back())) return false;")
        lines.append("}")
        return lines
    if t.is_enum:
        assign = f"{target} = static_cast<{t.name}>(value);"
        if optional:
            assign = f"{target}.emplace(static_cast<{t.name}>(value));"
        return ["int32_t value;", "if (!reader->ReadI32(&value)) return false;", assign]
    if t.is_struct:
        return [f"if (!{target}.Decode(reader)) return false;"]
    return [f"if (!reader->{READ_FUNCTIONS[t.name]}(&{target})) return false;"]


def write_value(t, value, pointer=None):
    """Lines that write `value` of type t; `pointer` (a std::optional
    holding the value) gives nicer code for member access."""
    if t.is_list:
        elem = t.elem
        lines = [
            f"const auto& list = {value};",
            f"if (!writer->WriteListBegin({element_wire_type(elem)}, "
            "static_cast<int64_t>(list.size()))) {",
            "  return false;",
            "}",
        ]
        if elem.is_bool:
            lines += ["for (bool element : list) {",
                      "  if (!writer->WriteBool(element)) return false;", "}"]
        elif elem.is_enum:
            lines += [f"for ({elem.name} element : list) {{",
                      "  if (!writer->WriteI32(static_cast<int32_t>(element))) return false;",
                      "}"]
        elif elem.is_struct:
            lines += ["for (const auto& element : list) {",
                      "  if (!element.Encode(writer)) return false;", "}"]
        else:
            lines += ["for (const auto& element : list) {",
                      f"  if (!writer->{WRITE_FUNCTIONS[elem.name]}(element)) return false;",
                      "}"]
        if pointer is None:
            # A required list at function scope: keep `list` local.
            lines = ["{"] + ["  " + line for line in lines] + ["}"]
        return lines
    if t.is_enum:
        return [f"if (!writer->WriteI32(static_cast<int32_t>({value}))) return false;"]
    if t.is_struct:
        if pointer:
            return [f"if (!{pointer}->Encode(writer)) return false;"]
        return [f"if (!{value}.Encode(writer)) return false;"]
    return [f"if (!writer->{WRITE_FUNCTIONS[t.name]}({value})) return false;"]


# --------------------------------------------------------------------------
# Driver


def generate(input_path):
    with open(input_path, encoding="utf-8") as f:
        text = f.read()
    doc = Parser(tokenize(text)).parse()
    resolve(doc)
    emitter = Emitter(doc, os.path.basename(input_path))
    return {HEADER_NAME: emitter.header(), SOURCE_NAME: emitter.source()}


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--input", default=os.path.join(here, "parquet.thrift"))
    parser.add_argument("--output-dir", default=here)
    parser.add_argument("--check", action="store_true",
                        help="only compare with the files in --output-dir; exit 1 if stale")
    args = parser.parse_args(argv)
    try:
        outputs = generate(args.input)
    except (IdlError, OSError) as e:
        print(f"generate.py: {args.input}: {e}", file=sys.stderr)
        return 2
    stale = []
    for name, content in outputs.items():
        path = os.path.join(args.output_dir, name)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except OSError:
            current = None
        if current == content:
            continue
        stale.append(path)
        if not args.check:
            # Write to a temporary file first so that a failure never leaves
            # a half-written output behind.
            fd, tmp = tempfile.mkstemp(dir=args.output_dir, prefix=f".{name}.")
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(content)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates files as 0600
            os.replace(tmp, path)
    if args.check and stale:
        for path in stale:
            print(f"generate.py: {path} is out of date", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
