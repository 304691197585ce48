// quiver.Schema and quiver.Field: views of the library's Schema and Field
// with pyarrow's names (names, types, field(), metadata as a dict of bytes,
// __arrow_c_schema__, equals, to_string in pyarrow's layout). Their pickling
// and the rest of the Python surface are in python/quiver/_table.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "objects.h"
#include "quiver/c_data/bridge.h"

namespace quiver::python {

namespace {

nb::object MetadataDict(const MetadataPtr& metadata) {
  if (metadata == nullptr) return nb::none();
  nb::dict out;
  for (int64_t i = 0; i < metadata->size(); ++i) {
    const std::string& k = metadata->key(i);
    const std::string& v = metadata->value(i);
    out[nb::bytes(k.data(), k.size())] = nb::bytes(v.data(), v.size());
  }
  return out;
}

// pyarrow's rendering of a metadata value: quoted, cut after 70 - key
// length characters with "' + <rest>".
std::string MetadataLines(const KeyValueMetadata& metadata, const std::string& indent) {
  std::string out;
  for (int64_t i = 0; i < metadata.size(); ++i) {
    const std::string& k = metadata.key(i);
    const std::string& v = metadata.value(i);
    const int64_t limit = 70 - static_cast<int64_t>(k.size());
    out += "\n" + indent + k + ": '";
    if (limit > 0 && static_cast<int64_t>(v.size()) > limit) {
      out += v.substr(0, static_cast<size_t>(limit)) + "' + " +
             std::to_string(static_cast<int64_t>(v.size()) - limit);
    } else {
      out += v + "'";
    }
  }
  return out;
}

// One field as pyarrow's Schema.to_string shows it: "name: type[ not null]"
// then "child i, ..." lines for nested types (2 spaces in at the first level,
// 4 more at each deeper one) and its metadata when asked.
void FieldLines(const Field& field, int depth, bool show_field_metadata, std::string* out) {
  *out += field.ToString();
  const DataType& type = *field.type();
  if (type.id() != Type::kDictionary) {
    const std::string indent(static_cast<size_t>(depth == 0 ? 2 : 2 + 4 * depth), ' ');
    for (int i = 0; i < type.num_fields(); ++i) {
      *out += "\n" + indent + "child " + std::to_string(i) + ", ";
      FieldLines(*type.field(i), depth + 1, show_field_metadata, out);
    }
  }
  if (show_field_metadata && field.metadata() != nullptr && field.metadata()->size() > 0) {
    const std::string indent(static_cast<size_t>(2 + 4 * depth), ' ');
    *out += "\n" + indent + "-- field metadata --" + MetadataLines(*field.metadata(), indent);
  }
}

std::string SchemaText(const Schema& schema, bool show_field_metadata, bool show_schema_metadata) {
  std::string out;
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (i > 0) out += "\n";
    FieldLines(*schema.field(i), 0, show_field_metadata, &out);
  }
  if (show_schema_metadata && schema.metadata() != nullptr && schema.metadata()->size() > 0) {
    out += "\n-- schema metadata --" + MetadataLines(*schema.metadata(), "");
  }
  return out;
}

nb::object FieldCapsule(const Field& field) {
  auto* c = static_cast<ArrowSchema*>(std::calloc(1, sizeof(ArrowSchema)));
  if (c == nullptr) throw std::bad_alloc();
  Status st = ExportField(field, c);
  if (!st.ok()) {
    std::free(c);
    Raise(st);
  }
  return nb::steal(PyCapsule_New(c, "arrow_schema", [](PyObject* capsule) noexcept {
    auto* p = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
    if (p == nullptr) {
      PyErr_Clear();
      return;
    }
    if (p->release != nullptr) p->release(p);
    std::free(p);
  }));
}

FieldPtr FieldFromPyObject(nb::handle obj) {
  if (nb::isinstance<PyField>(obj)) return nb::cast<const PyField&>(obj).field;
  if (!nb::hasattr(obj, "__arrow_c_schema__")) {
    throw nb::type_error("a field needs __arrow_c_schema__ (a quiver or pyarrow Field)");
  }
  nb::object capsule = obj.attr("__arrow_c_schema__")();
  ArrowSchema c = MoveOutSchemaCapsule(capsule);
  return Unwrap(ImportField(&c));
}

}  // namespace

static std::string AsBytesOrStr(nb::handle h) {
  if (PyBytes_Check(h.ptr())) {
    return std::string(PyBytes_AsString(h.ptr()), static_cast<size_t>(PyBytes_Size(h.ptr())));
  }
  if (PyUnicode_Check(h.ptr())) return nb::cast<std::string>(h);
  throw nb::type_error("metadata keys and values must be str or bytes");
}

// A metadata dict ({str or bytes: str or bytes}) or None.
MetadataPtr MetadataFromPy(nb::handle obj) {
  if (obj.is_none()) return nullptr;
  if (!nb::isinstance<nb::dict>(obj)) throw nb::type_error("metadata must be a dict or None");
  std::vector<std::string> keys, values;
  for (auto [k, v] : nb::borrow<nb::dict>(obj)) {
    keys.push_back(AsBytesOrStr(k));
    values.push_back(AsBytesOrStr(v));
  }
  return std::make_shared<KeyValueMetadata>(std::move(keys), std::move(values));
}

int FieldIndex(const Schema& schema, nb::handle i_or_name) {
  if (PyUnicode_Check(i_or_name.ptr())) {
    const std::string name = nb::cast<std::string>(i_or_name);
    int found = -1;
    for (int i = 0; i < schema.num_fields(); ++i) {
      if (schema.field(i)->name() != name) continue;
      if (found >= 0) {
        Raise(Status::KeyError("the schema has more than one field named '", name, "'"));
      }
      found = i;
    }
    if (found < 0) Raise(Status::KeyError("no field named '", name, "' in the schema"));
    return found;
  }
  if (!PyLong_Check(i_or_name.ptr())) throw nb::type_error("a field index (int) or name (str)");
  int64_t i = nb::cast<int64_t>(i_or_name);
  const int64_t n = schema.num_fields();
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    Raise(Status::IndexError("field index ", nb::cast<int64_t>(i_or_name), " out of range (",
                             n, " fields)"));
  }
  return static_cast<int>(i);
}

nb::object WrapSchema(SchemaPtr schema) { return nb::cast(PySchema{std::move(schema)}); }
nb::object WrapField(FieldPtr field) { return nb::cast(PyField{std::move(field)}); }

SchemaPtr SchemaFromPyObject(nb::handle obj) {
  if (nb::isinstance<PySchema>(obj)) return nb::cast<const PySchema&>(obj).schema;
  if (!nb::hasattr(obj, "__arrow_c_schema__")) {
    throw nb::type_error("a schema needs __arrow_c_schema__ (a quiver or pyarrow Schema)");
  }
  nb::object capsule = obj.attr("__arrow_c_schema__")();
  ArrowSchema c = MoveOutSchemaCapsule(capsule);
  return Unwrap(ImportSchema(&c));
}

void BindSchema(nb::module_& m) {
  m.def(
      "field",
      [](const std::string& name, nb::handle type, bool nullable, nb::handle metadata) {
        return WrapField(quiver::field(name, TypeOfPy(type), nullable, MetadataFromPy(metadata)));
      },
      nb::arg("name"), nb::arg("type"), nb::arg("nullable") = true,
      nb::arg("metadata").none() = nb::none(),
      "A quiver.Field (pyarrow.field's arguments; `type`: a quiver or pyarrow DataType, or "
      "a type string such as \"int64\" or \"timestamp[ms, tz=UTC]\")");
  m.def(
      "schema",
      [](nb::handle fields, nb::handle metadata) {
        if (nb::hasattr(fields, "__arrow_c_schema__") && !nb::isinstance<nb::list>(fields)) {
          SchemaPtr s = SchemaFromPyObject(fields);
          return WrapSchema(metadata.is_none() ? s : s->WithMetadata(MetadataFromPy(metadata)));
        }
        FieldVector out;
        for (nb::handle f : fields) {
          if (nb::isinstance<nb::tuple>(f)) {
            nb::tuple pair = nb::borrow<nb::tuple>(f);
            if (pair.size() != 2) throw nb::type_error("a field as a tuple is (name, type)");
            out.push_back(quiver::field(nb::cast<std::string>(pair[0]), TypeOfPy(pair[1]), true));
          } else {
            out.push_back(FieldFromPyObject(f));
          }
        }
        return WrapSchema(std::make_shared<Schema>(std::move(out), MetadataFromPy(metadata)));
      },
      nb::arg("fields"), nb::arg("metadata").none() = nb::none(),
      "A quiver.Schema of fields (quiver / pyarrow Fields or (name, type) pairs), or of any "
      "object with __arrow_c_schema__ (pyarrow.schema's arguments)");

  nb::class_<PySchema>(m, "Schema", "An Arrow schema (pyarrow.Schema's names)")
      .def_prop_ro("names",
                   [](const PySchema& s) {
                     std::vector<std::string> out;
                     for (const auto& f : s.schema->fields()) out.push_back(f->name());
                     return out;
                   })
      .def_prop_ro("types",
                   [](const PySchema& s) {
                     nb::list out;
                     for (const auto& f : s.schema->fields()) out.append(WrapDataType(f->type()));
                     return out;
                   })
      .def_prop_ro("metadata", [](const PySchema& s) { return MetadataDict(s.schema->metadata()); },
                   "The schema's key/value metadata as {bytes: bytes}, or None")
      .def("field",
           [](const PySchema& s, nb::handle i) {
             return WrapField(s.schema->field(FieldIndex(*s.schema, i)));
           },
           nb::arg("i"), "The field at an index or with a name (KeyError when absent)")
      .def("get_field_index",
           [](const PySchema& s, const std::string& name) {
             int found = -1;
             for (int i = 0; i < s.schema->num_fields(); ++i) {
               if (s.schema->field(i)->name() != name) continue;
               if (found >= 0) return -1;  // pyarrow: -1 for a duplicated name
               found = i;
             }
             return found;
           },
           nb::arg("name"))
      .def("__len__", [](const PySchema& s) { return s.schema->num_fields(); })
      .def("__getitem__",
           [](const PySchema& s, nb::handle i) {
             return WrapField(s.schema->field(FieldIndex(*s.schema, i)));
           })
      .def("equals",
           [](const PySchema& s, nb::handle other, bool check_metadata) {
             return s.schema->Equals(*SchemaFromPyObject(other), check_metadata);
           },
           nb::arg("other"), nb::arg("check_metadata") = false)
      .def("with_metadata",
           [](const PySchema& s, nb::handle metadata) {
             return WrapSchema(s.schema->WithMetadata(MetadataFromPy(metadata)));
           },
           nb::arg("metadata"))
      .def("remove_metadata", [](const PySchema& s) { return WrapSchema(s.schema->WithMetadata(nullptr)); })
      .def("to_string",
           [](const PySchema& s, bool show_field_metadata, bool show_schema_metadata) {
             return SchemaText(*s.schema, show_field_metadata, show_schema_metadata);
           },
           nb::arg("show_field_metadata") = true, nb::arg("show_schema_metadata") = true,
           "pyarrow's Schema.to_string layout")
      .def("__arrow_c_schema__", [](const PySchema& s) { return SchemaCapsule(*s.schema); })
      .def_static("_import", [](nb::handle obj) { return WrapSchema(SchemaFromPyObject(obj)); });

  nb::class_<PyField>(m, "Field", "An Arrow field (pyarrow.Field's names)")
      .def_prop_ro("name", [](const PyField& f) { return f.field->name(); })
      .def_prop_ro("type", [](const PyField& f) { return WrapDataType(f.field->type()); })
      .def_prop_ro("nullable", [](const PyField& f) { return f.field->nullable(); })
      .def_prop_ro("metadata", [](const PyField& f) { return MetadataDict(f.field->metadata()); })
      .def("equals",
           [](const PyField& f, nb::handle other, bool check_metadata) {
             return f.field->Equals(*FieldFromPyObject(other), check_metadata);
           },
           nb::arg("other"), nb::arg("check_metadata") = false)
      .def("to_string",
           [](const PyField& f) {
             std::string out;
             FieldLines(*f.field, 0, false, &out);
             return out;
           })
      .def("__str__", [](const PyField& f) { return f.field->ToString(); })
      .def("__arrow_c_schema__", [](const PyField& f) { return FieldCapsule(*f.field); })
      .def_static("_import", [](nb::handle obj) { return WrapField(FieldFromPyObject(obj)); });
}

}  // namespace quiver::python
