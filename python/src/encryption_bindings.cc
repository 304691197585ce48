// quiver.encryption_properties (python/quiver/_encryption.py, which checks
// the values): the C++ FileEncryptionProperties behind it, held by an opaque
// object so that every file written with one Python object shares its key
// use counts, and the writer options' encryption_properties= read from it.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "common.h"
#include "quiver/parquet/encryption/encryption_properties.h"
#include "writer_bindings.h"

namespace quiver::python {

namespace {

struct NativeEncryptionProperties {
  std::shared_ptr<const parquet::FileEncryptionProperties> properties;
};

std::string Bytes(nb::handle h) {
  return std::string(PyBytes_AsString(h.ptr()), static_cast<size_t>(PyBytes_Size(h.ptr())));
}

}  // namespace

std::shared_ptr<const parquet::FileEncryptionProperties> ToEncryptionProperties(nb::handle p) {
  if (!nb::hasattr(p, "_native") ||
      !nb::isinstance<NativeEncryptionProperties>(p.attr("_native"))) {
    throw nb::type_error(
        "encryption_properties: expected what quiver.encryption_properties() returns");
  }
  return nb::cast<NativeEncryptionProperties&>(p.attr("_native")).properties;
}

void BindEncryption(nb::module_& m) {
  nb::class_<NativeEncryptionProperties>(m, "_NativeEncryptionProperties");
  m.def(
      "_make_encryption_properties",
      [](nb::bytes footer_key, nb::dict column_keys, nb::dict column_key_metadata,
         nb::object aad_prefix, bool store_aad_prefix, bool ctr, bool plaintext_footer,
         nb::object footer_key_metadata) {
        auto p = std::make_shared<parquet::FileEncryptionProperties>();
        p->footer_key = Bytes(footer_key);
        for (auto [column, key] : column_keys) p->column_keys[nb::cast<std::string>(column)] = Bytes(key);
        for (auto [column, md] : column_key_metadata) {
          p->column_key_metadata[nb::cast<std::string>(column)] = Bytes(md);
        }
        if (!aad_prefix.is_none()) p->aad_prefix = Bytes(aad_prefix);
        p->store_aad_prefix = store_aad_prefix;
        p->algorithm = ctr ? parquet::EncryptionAlgorithm::kAesGcmCtrV1
                           : parquet::EncryptionAlgorithm::kAesGcmV1;
        p->plaintext_footer = plaintext_footer;
        if (!footer_key_metadata.is_none()) p->footer_key_metadata = Bytes(footer_key_metadata);
        return NativeEncryptionProperties{std::move(p)};
      },
      nb::arg("footer_key"), nb::arg("column_keys"), nb::arg("column_key_metadata"),
      nb::arg("aad_prefix").none(), nb::arg("store_aad_prefix"), nb::arg("ctr"),
      nb::arg("plaintext_footer"), nb::arg("footer_key_metadata").none(),
      "Private: quiver.encryption_properties builds its value with it.");
}

}  // namespace quiver::python
