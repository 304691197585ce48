// Tests for IPC schema messages: round trips of every type, the exact
// framing, dictionary id assignment, legacy framing, and malformed input.
#include "quiver/ipc/schema.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "quiver/ipc/metadata_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::ipc {
namespace {
namespace QUIVER_UNITY_ID {

namespace fb = internal::fb;

SchemaPtr RoundTrip(const Schema& schema) {
  auto buffer = SerializeSchema(schema);
  EXPECT_TRUE(buffer.ok()) << buffer.status();
  if (!buffer.ok()) return nullptr;
  auto out = ReadSchemaMessage(**buffer);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : nullptr;
}

void ExpectRoundTrip(const SchemaPtr& schema) {
  SchemaPtr out = RoundTrip(*schema);
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->Equals(*schema, /*check_metadata=*/true))
      << "expected:\n" << schema->ToString() << "\ngot:\n" << out->ToString();
}

// Every type of type.h, once nullable and once not.
FieldVector AllTypeFields() {
  std::vector<TypePtr> types = {
      null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(),
      uint64(), float16(), float32(), float64(), utf8(), large_utf8(), binary(),
      large_binary(), utf8_view(), binary_view(), fixed_size_binary(0), fixed_size_binary(7),
      date32(), date64(), timestamp(TimeUnit::kSecond), timestamp(TimeUnit::kMilli, "UTC"),
      timestamp(TimeUnit::kMicro, "Europe/Paris"), timestamp(TimeUnit::kNano, "+07:30"),
      time32(TimeUnit::kSecond), time32(TimeUnit::kMilli), time64(TimeUnit::kMicro),
      time64(TimeUnit::kNano), duration(TimeUnit::kSecond), duration(TimeUnit::kMilli),
      duration(TimeUnit::kMicro), duration(TimeUnit::kNano), month_interval(),
      day_time_interval(), month_day_nano_interval(), decimal32(9, 2), decimal64(18, -3),
      decimal128(38, 10), decimal256(76, 0), decimal128(1, 0), list(int32()),
      large_list(utf8()), fixed_size_list(float64(), 3), fixed_size_list(int8(), 0),
      struct_({field("a", int32()), field("b", utf8(), false)}), struct_({}),
      map(utf8(), int64()), map(int32(), list(utf8()), /*keys_sorted=*/true),
      dictionary(int32(), utf8()), dictionary(int8(), binary(), /*ordered=*/true),
      dictionary(uint16(), list(int64())), dictionary(int64(), decimal128(10, 2))};
  FieldVector fields;
  for (size_t i = 0; i < types.size(); ++i) {
    fields.push_back(field("f" + std::to_string(i), types[i], i % 2 == 0));
  }
  return fields;
}

TEST(SchemaMessage, RoundTripsEveryType) { ExpectRoundTrip(schema(AllTypeFields())); }

TEST(SchemaMessage, RoundTripsEachTypeAlone) {
  for (const auto& f : AllTypeFields()) {
    SCOPED_TRACE(f->ToString());
    ExpectRoundTrip(schema({f}));
  }
}

TEST(SchemaMessage, RoundTripsEmptySchema) {
  ExpectRoundTrip(schema({}));
  auto out = RoundTrip(*schema({}));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->num_fields(), 0);
  EXPECT_EQ(out->metadata(), nullptr);
}

TEST(SchemaMessage, RoundTripsMetadataEverywhere) {
  auto field_md = key_value_metadata({{"k", "v"}, {"k", "duplicate key"}, {"", ""}});
  auto child_md = key_value_metadata({{"PARQUET:field_id", "7"}});
  auto schema_md = key_value_metadata({{"pandas", std::string("{\"x\": 1}\0bin", 12)}});
  auto s = schema({field("a", int32(), true, field_md),
                   field("b", struct_({field("c", utf8(), false, child_md)}), false),
                   field("d", list(field("elem", int64(), false, child_md)))},
                  schema_md);
  ExpectRoundTrip(s);
  auto out = RoundTrip(*s);
  ASSERT_NE(out, nullptr);
  ASSERT_NE(out->metadata(), nullptr);
  EXPECT_EQ(out->metadata()->value(0).size(), 12u);  // embedded NUL kept
  ASSERT_NE(out->field(0)->metadata(), nullptr);
  EXPECT_EQ(out->field(0)->metadata()->size(), 3);
  EXPECT_EQ(out->field(0)->metadata()->value(1), "duplicate key");
  const auto& elem = out->field(2)->type()->field(0);
  EXPECT_EQ(elem->name(), "elem");
  EXPECT_FALSE(elem->nullable());
  ASSERT_NE(elem->metadata(), nullptr);
  EXPECT_EQ(elem->metadata()->Get("PARQUET:field_id"), "7");
}

TEST(SchemaMessage, KeepsChildNamesAndMapDetails) {
  auto entries_key = field("the_key", utf8(), false);
  auto entries_item = field("the_value", list(field("x", int8())), false);
  auto map_type = std::make_shared<MapType>(entries_key, entries_item, true, "kv");
  auto s = schema({field("m", map_type), field("l", large_list(field("inner", utf8(), false))),
                   field("fl", fixed_size_list(field("v", float32()), 4))});
  auto out = RoundTrip(*s);
  ASSERT_NE(out, nullptr);
  ASSERT_TRUE(out->Equals(*s, true));
  const auto& m = TypeAs<MapType>(*out->field(0)->type());
  EXPECT_TRUE(m.keys_sorted());
  EXPECT_EQ(m.entries_field()->name(), "kv");
  EXPECT_FALSE(m.entries_field()->nullable());
  EXPECT_EQ(m.key_field()->name(), "the_key");
  EXPECT_EQ(m.item_field()->name(), "the_value");
  EXPECT_FALSE(m.item_field()->nullable());
  EXPECT_EQ(m.item_type()->field(0)->name(), "x");
  EXPECT_EQ(out->field(1)->type()->field(0)->name(), "inner");
  EXPECT_EQ(TypeAs<ListType>(*out->field(2)->type()).list_size(), 4);
  EXPECT_EQ(out->field(2)->type()->field(0)->name(), "v");
}

TEST(SchemaMessage, RoundTripsDeepNesting) {
  TypePtr t = int32();
  for (int i = 0; i < 20; ++i) {
    switch (i % 4) {
      case 0: t = list(t); break;
      case 1: t = struct_({field("s" + std::to_string(i), t), field("z", utf8())}); break;
      case 2: t = map(utf8(), t); break;
      case 3: t = large_list(field("ll", t, false)); break;
    }
  }
  ExpectRoundTrip(schema({field("deep", t)}));
}

TEST(SchemaMessage, DecimalBitWidths) {
  for (auto t : {decimal32(5, 1), decimal64(15, 3), decimal128(20, 5), decimal256(60, 30)}) {
    SCOPED_TRACE(t->ToString());
    auto out = RoundTrip(*schema({field("d", t)}));
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->field(0)->type()->id(), t->id());
    const auto& d = TypeAs<DecimalType>(*out->field(0)->type());
    EXPECT_EQ(d.precision(), TypeAs<DecimalType>(*t).precision());
    EXPECT_EQ(d.scale(), TypeAs<DecimalType>(*t).scale());
  }
}

TEST(SchemaMessage, DictionaryEncodingAttributes) {
  auto s = schema({field("a", dictionary(uint8(), utf8(), true), false),
                   field("b", dictionary(int64(), large_binary()))});
  auto out = RoundTrip(*s);
  ASSERT_NE(out, nullptr);
  ASSERT_TRUE(out->Equals(*s, true));
  const auto& a = TypeAs<DictionaryType>(*out->field(0)->type());
  EXPECT_EQ(a.index_type()->id(), Type::kUInt8);
  EXPECT_EQ(a.value_type()->id(), Type::kString);
  EXPECT_TRUE(a.ordered());
  EXPECT_FALSE(out->field(0)->nullable());
  const auto& b = TypeAs<DictionaryType>(*out->field(1)->type());
  EXPECT_EQ(b.index_type()->id(), Type::kInt64);
  EXPECT_FALSE(b.ordered());
}

// --- The bytes ---------------------------------------------------------------

const fb::Message* ParseFramed(const Buffer& buffer) {
  EXPECT_GE(buffer.size(), 8);
  int32_t length;
  std::memcpy(&length, buffer.data() + 4, 4);
  auto message = internal::VerifyMessage(buffer.data() + 8, length, 64);
  EXPECT_TRUE(message.ok()) << message.status();
  return message.ok() ? *message : nullptr;
}

TEST(SchemaMessage, FramingBytes) {
  for (const auto& s : {schema({}), schema({field("a", int32())}),
                        schema(AllTypeFields(), key_value_metadata({{"x", "yz"}}))}) {
    auto buffer = SerializeSchema(*s);
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    const Buffer& b = **buffer;
    ASSERT_GE(b.size(), 16);
    // Continuation marker.
    EXPECT_EQ(b.data()[0], 0xFF);
    EXPECT_EQ(b.data()[1], 0xFF);
    EXPECT_EQ(b.data()[2], 0xFF);
    EXPECT_EQ(b.data()[3], 0xFF);
    // Little-endian metadata length covering the rest exactly, total a
    // multiple of 8.
    const int64_t length = bit_util::LoadLittleEndian<uint32_t>(b.data() + 4);
    EXPECT_EQ(8 + length, b.size());
    EXPECT_EQ(b.size() % 8, 0);
    // The padding after the flatbuffer is zeros, and at most 7 bytes.
    flatbuffers::FlatBufferBuilder fbb;
    auto mapper = internal::DictionaryFieldMapper::FromSchema(*s, 64);
    ASSERT_TRUE(mapper.ok());
    auto schema_offset = internal::SchemaToFlatbuffer(fbb, *s, *mapper);
    ASSERT_TRUE(schema_offset.ok());
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema,
                                 schema_offset->Union(), 0));
    const int64_t fb_size = fbb.GetSize();
    EXPECT_EQ(length, bit_util::RoundUpToMultipleOf8(8 + fb_size) - 8);
    EXPECT_EQ(0, std::memcmp(b.data() + 8, fbb.GetBufferPointer(), static_cast<size_t>(fb_size)));
    for (int64_t i = 8 + fb_size; i < b.size(); ++i) EXPECT_EQ(b.data()[i], 0) << i;
    // Message: V5, Schema header, no body.
    const fb::Message* message = ParseFramed(b);
    ASSERT_NE(message, nullptr);
    EXPECT_EQ(message->version(), fb::MetadataVersion::V5);
    EXPECT_EQ(message->header_type(), fb::MessageHeader::Schema);
    EXPECT_EQ(message->bodyLength(), 0);
    ASSERT_NE(message->header_as_Schema(), nullptr);
    EXPECT_EQ(message->header_as_Schema()->endianness(), fb::Endianness::Little);
  }
}

TEST(SchemaMessage, WireEncodingOfTypes) {
  // Spot checks of what the flatbuffer says (what other readers see).
  auto s = schema({field("ts", timestamp(TimeUnit::kMicro, "UTC")),
                   field("t32", time32(TimeUnit::kMilli)), field("t64", time64(TimeUnit::kNano)),
                   field("d32", decimal32(7, 2)), field("d", date32()),
                   field("i", month_day_nano_interval()), field("h", float16()),
                   field("u", uint16(), false), field("sv", utf8_view()),
                   field("m", map(utf8(), int32(), true))});
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  const fb::Message* message = ParseFramed(**buffer);
  ASSERT_NE(message, nullptr);
  const auto* fields = message->header_as_Schema()->fields();
  ASSERT_EQ(fields->size(), 10u);
  auto ts = fields->Get(0)->type_as_Timestamp();
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->unit(), fb::TimeUnit::MICROSECOND);
  EXPECT_EQ(ts->timezone()->str(), "UTC");
  auto t32 = fields->Get(1)->type_as_Time();
  ASSERT_NE(t32, nullptr);
  EXPECT_EQ(t32->unit(), fb::TimeUnit::MILLISECOND);
  EXPECT_EQ(t32->bitWidth(), 32);
  auto t64 = fields->Get(2)->type_as_Time();
  EXPECT_EQ(t64->unit(), fb::TimeUnit::NANOSECOND);
  EXPECT_EQ(t64->bitWidth(), 64);
  auto d32 = fields->Get(3)->type_as_Decimal();
  ASSERT_NE(d32, nullptr);
  EXPECT_EQ(d32->bitWidth(), 32);
  EXPECT_EQ(d32->precision(), 7);
  EXPECT_EQ(d32->scale(), 2);
  EXPECT_EQ(fields->Get(4)->type_as_Date()->unit(), fb::DateUnit::DAY);
  EXPECT_EQ(fields->Get(5)->type_as_Interval()->unit(), fb::IntervalUnit::MONTH_DAY_NANO);
  EXPECT_EQ(fields->Get(6)->type_as_FloatingPoint()->precision(), fb::Precision::HALF);
  auto u = fields->Get(7)->type_as_Int();
  EXPECT_EQ(u->bitWidth(), 16);
  EXPECT_FALSE(u->is_signed());
  EXPECT_FALSE(fields->Get(7)->nullable());
  EXPECT_TRUE(fields->Get(0)->nullable());
  EXPECT_EQ(fields->Get(8)->type_type(), fb::Type::Utf8View);
  const auto* m = fields->Get(9);
  EXPECT_TRUE(m->type_as_Map()->keysSorted());
  ASSERT_EQ(m->children()->size(), 1u);
  const auto* entries = m->children()->Get(0);
  EXPECT_EQ(entries->name()->str(), "entries");
  EXPECT_FALSE(entries->nullable());
  EXPECT_EQ(entries->type_type(), fb::Type::Struct_);
  ASSERT_EQ(entries->children()->size(), 2u);
  EXPECT_EQ(entries->children()->Get(0)->name()->str(), "key");
  EXPECT_FALSE(entries->children()->Get(0)->nullable());
  EXPECT_EQ(entries->children()->Get(1)->name()->str(), "value");
}

// Collects (path, id) of dictionary encodings in pre-order.
void CollectIds(const flatbuffers::Vector<flatbuffers::Offset<fb::Field>>* fields,
                std::vector<int>* path, std::vector<std::pair<std::vector<int>, int64_t>>* out) {
  if (fields == nullptr) return;
  for (flatbuffers::uoffset_t i = 0; i < fields->size(); ++i) {
    path->push_back(static_cast<int>(i));
    const fb::Field* f = fields->Get(i);
    if (f->dictionary() != nullptr) out->emplace_back(*path, f->dictionary()->id());
    CollectIds(f->children(), path, out);
    path->pop_back();
  }
}

TEST(SchemaMessage, DictionaryIdsAreDepthFirstFromZero) {
  auto inner = dictionary(int32(), utf8());
  auto s = schema({
      field("f0", dictionary(int8(), utf8())),
      field("f1", struct_({field("a", int32()),
                           field("b", dictionary(int16(), list(field("item", inner))))})),
      field("f2", dictionary(int32(), struct_({field("x", dictionary(int8(), binary()))}))),
      field("f3", list(dictionary(int64(), utf8()))),
      field("f4", int32()),
      field("f5", map(dictionary(int32(), utf8()), dictionary(int16(), utf8()))),
  });
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  const fb::Message* message = ParseFramed(**buffer);
  ASSERT_NE(message, nullptr);
  std::vector<int> path;
  std::vector<std::pair<std::vector<int>, int64_t>> ids;
  CollectIds(message->header_as_Schema()->fields(), &path, &ids);
  std::vector<std::pair<std::vector<int>, int64_t>> expected = {
      {{0}, 0},       {{1, 1}, 1},       {{1, 1, 0}, 2}, {{2}, 3},
      {{2, 0}, 4},    {{3, 0}, 5},       {{5, 0, 0}, 6}, {{5, 0, 1}, 7}};
  EXPECT_EQ(ids, expected);
  // And the index types / ordering are on the encodings.
  const auto* f0 = message->header_as_Schema()->fields()->Get(0);
  EXPECT_EQ(f0->dictionary()->indexType()->bitWidth(), 8);
  EXPECT_TRUE(f0->dictionary()->indexType()->is_signed());
  EXPECT_EQ(f0->type_type(), fb::Type::Utf8);
  ExpectRoundTrip(s);
}

// --- Legacy framing and trailing bytes ------------------------------------------

TEST(SchemaMessage, ReadsLegacyFramingWithoutContinuation) {
  auto s = schema({field("a", utf8()), field("b", dictionary(int32(), int64()))},
                  key_value_metadata({{"k", "v"}}));
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  // Legacy: int32 length then the flatbuffer (which then sits at offset 4).
  std::vector<uint8_t> legacy((*buffer)->data() + 4, (*buffer)->data() + (*buffer)->size());
  auto out = ReadSchemaMessage(legacy.data(), static_cast<int64_t>(legacy.size()));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)->Equals(*s, true));
}

TEST(SchemaMessage, ReadsBareFlatbufferWithoutPrefix) {
  auto s = schema({field("a", large_utf8()), field("b", list(int8()))});
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  std::vector<uint8_t> bare((*buffer)->data() + 8, (*buffer)->data() + (*buffer)->size());
  auto out = ReadSchemaMessage(bare.data(), static_cast<int64_t>(bare.size()));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)->Equals(*s, true));
}

TEST(SchemaMessage, IgnoresTrailingBytesAndReadsMisaligned) {
  auto s = schema({field("a", float64())});
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  std::vector<uint8_t> bytes(3, 0xAB);  // misalign the message by 3 bytes
  bytes.insert(bytes.end(), (*buffer)->data(), (*buffer)->data() + (*buffer)->size());
  bytes.insert(bytes.end(), {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0});  // an EOS after it
  auto out = ReadSchemaMessage(bytes.data() + 3, static_cast<int64_t>(bytes.size()) - 3);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)->Equals(*s));
}

// --- Malformed input -------------------------------------------------------------

TEST(SchemaMessage, RejectsTruncationAtEveryLength) {
  auto s = schema(AllTypeFields(), key_value_metadata({{"a", "b"}}));
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  const Buffer& b = **buffer;
  for (int64_t n = 0; n < b.size(); ++n) {
    // Copy into an exact-size allocation so ASan sees any overread.
    std::vector<uint8_t> bytes(b.data(), b.data() + n);
    auto out = ReadSchemaMessage(bytes.data(), n);
    EXPECT_FALSE(out.ok()) << "accepted a message truncated to " << n << " bytes";
  }
  EXPECT_FALSE(ReadSchemaMessage(nullptr, 0).ok());
}

TEST(SchemaMessage, SurvivesEveryByteFlip) {
  auto s = schema({field("a", dictionary(int8(), utf8())), field("b", map(utf8(), list(int32()))),
                   field("c", timestamp(TimeUnit::kNano, "UTC")), field("d", decimal256(40, 2)),
                   field("e", struct_({field("x", fixed_size_list(int16(), 2))}))},
                  key_value_metadata({{"k", "v"}}));
  auto buffer = SerializeSchema(*s);
  ASSERT_TRUE(buffer.ok());
  const Buffer& b = **buffer;
  int accepted = 0;
  for (int64_t i = 0; i < b.size(); ++i) {
    for (uint8_t x : {0x01, 0x80, 0xFF, 0x10}) {
      std::vector<uint8_t> bytes(b.data(), b.data() + b.size());
      bytes[static_cast<size_t>(i)] ^= x;
      auto out = ReadSchemaMessage(bytes.data(), static_cast<int64_t>(bytes.size()));
      if (out.ok()) {
        ++accepted;
        ASSERT_NE(*out, nullptr);
        (void)(*out)->ToString();  // a usable schema
      } else {
        EXPECT_FALSE(out.status().message().empty());
      }
    }
  }
  // Some flips hit names, padding or values and give another valid schema.
  EXPECT_GT(accepted, 0);
}

TEST(SchemaMessage, RejectsGarbage) {
  std::vector<uint8_t> zeros(64, 0);
  auto eos = ReadSchemaMessage(zeros.data(), 64);
  EXPECT_FALSE(eos.ok());
  std::vector<uint8_t> junk = {0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                               9, 10, 11, 12, 13, 14, 15, 16};
  auto out = ReadSchemaMessage(junk.data(), static_cast<int64_t>(junk.size()));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsInvalid()) << out.status();
  std::vector<uint8_t> negative = {0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF};
  EXPECT_FALSE(ReadSchemaMessage(negative.data(), 8).ok());
  std::vector<uint8_t> huge = {0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0};
  EXPECT_FALSE(ReadSchemaMessage(huge.data(), 12).ok());
}

// Frames a hand-built Schema table as a message.
template <typename BuildFields>
std::shared_ptr<Buffer> HandBuiltSchemaMessage(BuildFields&& build) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> fields = build(fbb);
  auto schema_offset = fb::CreateSchema(fbb, fb::Endianness::Little, fbb.CreateVector(fields));
  auto framed = internal::FinishMessage(fbb, fb::MessageHeader::Schema, schema_offset.Union(), 0,
                                        8, DefaultMemoryPool());
  EXPECT_TRUE(framed.ok());
  return *framed;
}

flatbuffers::Offset<fb::Field> IntField(flatbuffers::FlatBufferBuilder& fbb, const char* name,
                                        int width = 32) {
  return fb::CreateField(fbb, fbb.CreateString(name), true, fb::Type::Int,
                         fb::CreateInt(fbb, width, true).Union());
}

TEST(SchemaMessage, UnsupportedTypesAreNotImplementedWithTheirName) {
  struct Case {
    fb::Type type;
    const char* name;
  };
  for (Case c : {Case{fb::Type::ListView, "ListView"},
                 Case{fb::Type::LargeListView, "LargeListView"},
                 Case{fb::Type::RunEndEncoded, "RunEndEncoded"}, Case{fb::Type::Union, "Union"}}) {
    auto message = HandBuiltSchemaMessage([&](flatbuffers::FlatBufferBuilder& fbb) {
      flatbuffers::Offset<void> table;
      std::vector<flatbuffers::Offset<fb::Field>> kids;
      switch (c.type) {
        case fb::Type::ListView:
          table = fb::CreateListView(fbb).Union();
          kids = {IntField(fbb, "item")};
          break;
        case fb::Type::LargeListView:
          table = fb::CreateLargeListView(fbb).Union();
          kids = {IntField(fbb, "item")};
          break;
        case fb::Type::RunEndEncoded:
          table = fb::CreateRunEndEncoded(fbb).Union();
          kids = {IntField(fbb, "run_ends"), IntField(fbb, "values")};
          break;
        default:
          table = fb::CreateUnion(fbb, fb::UnionMode::Dense).Union();
          kids = {IntField(fbb, "a")};
          break;
      }
      auto children = fbb.CreateVector(kids);
      return std::vector<flatbuffers::Offset<fb::Field>>{
          fb::CreateField(fbb, fbb.CreateString("col"), true, c.type, table, 0, children)};
    });
    auto out = ReadSchemaMessage(*message);
    ASSERT_FALSE(out.ok()) << c.name;
    EXPECT_TRUE(out.status().IsNotImplemented()) << out.status();
    EXPECT_NE(out.status().message().find(c.name), std::string::npos) << out.status();
    EXPECT_NE(out.status().message().find("col"), std::string::npos) << out.status();
  }
}

TEST(SchemaMessage, RejectsImpossibleParameters) {
  using Builder = std::function<flatbuffers::Offset<fb::Field>(flatbuffers::FlatBufferBuilder&)>;
  std::vector<std::pair<std::string, Builder>> cases = {
      {"int width 12", [](auto& fbb) { return IntField(fbb, "x", 12); }},
      {"decimal width 100",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Decimal,
                                fb::CreateDecimal(fbb, 10, 2, 100).Union());
       }},
      {"decimal precision 0",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Decimal,
                                fb::CreateDecimal(fbb, 0, 2, 128).Union());
       }},
      {"decimal32 precision 10",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Decimal,
                                fb::CreateDecimal(fbb, 10, 2, 32).Union());
       }},
      {"time seconds in 64 bits",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Time,
                                fb::CreateTime(fbb, fb::TimeUnit::SECOND, 64).Union());
       }},
      {"time unit 9",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Time,
                                fb::CreateTime(fbb, static_cast<fb::TimeUnit>(9), 32).Union());
       }},
      {"negative fixed_size_binary",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::FixedSizeBinary,
                                fb::CreateFixedSizeBinary(fbb, -1).Union());
       }},
      {"list without child",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::List,
                                fb::CreateList(fbb).Union());
       }},
      {"int with a child",
       [](auto& fbb) {
         auto kids = fbb.CreateVector(std::vector<flatbuffers::Offset<fb::Field>>{
             IntField(fbb, "c")});
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Int,
                                fb::CreateInt(fbb, 8, true).Union(), 0, kids);
       }},
      {"map of int",
       [](auto& fbb) {
         auto kids = fbb.CreateVector(std::vector<flatbuffers::Offset<fb::Field>>{
             IntField(fbb, "entries")});
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Map,
                                fb::CreateMap(fbb, false).Union(), 0, kids);
       }},
      {"missing type",
       [](auto& fbb) { return fb::CreateField(fbb, fbb.CreateString("x"), true); }},
      {"union tag without table",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Timestamp, 0);
       }},
      {"unknown type code",
       [](auto& fbb) {
         return fb::CreateField(fbb, fbb.CreateString("x"), true, static_cast<fb::Type>(99),
                                fb::CreateNull(fbb).Union());
       }},
      {"float index type",
       [](auto& fbb) {
         auto enc = fb::CreateDictionaryEncoding(fbb, 0, fb::CreateInt(fbb, 7, true));
         return fb::CreateField(fbb, fbb.CreateString("x"), true, fb::Type::Utf8,
                                fb::CreateUtf8(fbb).Union(), enc);
       }},
  };
  for (auto& [name, build] : cases) {
    auto message = HandBuiltSchemaMessage([&](flatbuffers::FlatBufferBuilder& fbb) {
      return std::vector<flatbuffers::Offset<fb::Field>>{build(fbb)};
    });
    auto out = ReadSchemaMessage(*message);
    ASSERT_FALSE(out.ok()) << name;
    EXPECT_TRUE(out.status().IsInvalid()) << name << ": " << out.status();
    EXPECT_NE(out.status().message().find("'x'"), std::string::npos)
        << name << ": " << out.status();
  }
}

TEST(SchemaMessage, ConflictingDictionaryIdsAreInvalid) {
  auto message = HandBuiltSchemaMessage([](flatbuffers::FlatBufferBuilder& fbb) {
    auto enc_a = fb::CreateDictionaryEncoding(fbb, 5, fb::CreateInt(fbb, 32, true));
    auto a = fb::CreateField(fbb, fbb.CreateString("a"), true, fb::Type::Utf8,
                             fb::CreateUtf8(fbb).Union(), enc_a);
    auto enc_b = fb::CreateDictionaryEncoding(fbb, 5, fb::CreateInt(fbb, 32, true));
    auto b = fb::CreateField(fbb, fbb.CreateString("b"), true, fb::Type::Binary,
                             fb::CreateBinary(fbb).Union(), enc_b);
    return std::vector<flatbuffers::Offset<fb::Field>>{a, b};
  });
  auto out = ReadSchemaMessage(*message);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("dictionary id 5"), std::string::npos) << out.status();
}

TEST(SchemaMessage, MissingIndexTypeMeansInt32) {
  auto message = HandBuiltSchemaMessage([](flatbuffers::FlatBufferBuilder& fbb) {
    auto enc = fb::CreateDictionaryEncoding(fbb, 0, 0, true);
    return std::vector<flatbuffers::Offset<fb::Field>>{
        fb::CreateField(fbb, fbb.CreateString("a"), true, fb::Type::Utf8,
                        fb::CreateUtf8(fbb).Union(), enc)};
  });
  auto out = ReadSchemaMessage(*message);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)->field(0)->type()->Equals(*dictionary(int32(), utf8(), true)));
}

TypePtr NestedStructs(int levels) {
  // `levels` levels of fields in all: levels - 1 structs around an int32.
  TypePtr t = int32();
  for (int i = 1; i < levels; ++i) t = struct_({field("s", t)});
  return t;
}

TEST(SchemaMessage, NestingLimitIs64Levels) {
  ExpectRoundTrip(schema({field("top", NestedStructs(64))}));
  // 65 levels: the writer refuses...
  auto too_deep = schema({field("top", NestedStructs(65))});
  EXPECT_FALSE(SerializeSchema(*too_deep).ok());
  // ...and so does the reader when someone else wrote it.
  flatbuffers::FlatBufferBuilder fbb;
  auto schema_offset =
      internal::SchemaToFlatbuffer(fbb, *too_deep, internal::DictionaryFieldMapper());
  ASSERT_TRUE(schema_offset.ok());
  auto framed = internal::FinishMessage(fbb, fb::MessageHeader::Schema, schema_offset->Union(), 0,
                                        8, DefaultMemoryPool());
  ASSERT_TRUE(framed.ok());
  auto out = ReadSchemaMessage(**framed);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("64"), std::string::npos) << out.status();
  // Very deep input is stopped by the verifier, not by the stack.
  too_deep = schema({field("top", NestedStructs(5000))});
  flatbuffers::FlatBufferBuilder fbb2;
  schema_offset = internal::SchemaToFlatbuffer(fbb2, *too_deep, internal::DictionaryFieldMapper());
  ASSERT_TRUE(schema_offset.ok());
  framed = internal::FinishMessage(fbb2, fb::MessageHeader::Schema, schema_offset->Union(), 0, 8,
                                   DefaultMemoryPool());
  ASSERT_TRUE(framed.ok());
  EXPECT_FALSE(ReadSchemaMessage(**framed).ok());
}

TEST(SchemaMessage, RejectsOtherMessageTypesAndOldVersions) {
  flatbuffers::FlatBufferBuilder fbb;
  auto batch = fb::CreateRecordBatch(fbb, 0);
  auto framed = internal::FinishMessage(fbb, fb::MessageHeader::RecordBatch, batch.Union(), 0, 8,
                                        DefaultMemoryPool());
  ASSERT_TRUE(framed.ok());
  auto out = ReadSchemaMessage(**framed);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("RecordBatch"), std::string::npos) << out.status();

  flatbuffers::FlatBufferBuilder old;
  auto schema_offset = fb::CreateSchema(old);
  old.Finish(fb::CreateMessage(old, fb::MetadataVersion::V3, fb::MessageHeader::Schema,
                               schema_offset.Union(), 0));
  std::vector<uint8_t> bytes = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  int32_t len = static_cast<int32_t>(bit_util::RoundUpToMultipleOf8(old.GetSize()));
  std::memcpy(bytes.data() + 4, &len, 4);
  bytes.insert(bytes.end(), old.GetBufferPointer(), old.GetBufferPointer() + old.GetSize());
  bytes.resize(8 + static_cast<size_t>(len), 0);
  out = ReadSchemaMessage(bytes.data(), static_cast<int64_t>(bytes.size()));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsNotImplemented()) << out.status();
}

TEST(SchemaMessage, WriterRejectsDictionaryOfDictionary) {
  auto s = schema({field("a", dictionary(int32(), dictionary(int8(), utf8())))});
  auto out = SerializeSchema(*s);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsNotImplemented()) << out.status();
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::ipc
