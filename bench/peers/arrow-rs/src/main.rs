//! arrow-rs peer of `make bench-peers`: speaks the line protocol of
//! bench/peers/PROTOCOL.md on stdin/stdout (one JSON object per line each
//! way), or writes the interop files (`interop --input-dir D --out-dir O`).
//!
//! Writes go through `parquet::arrow::ArrowWriter`, into a file the peer
//! creates (`File::create`, the file sink) or a `Vec<u8>` it owns (the memory
//! sink); reads through `ParquetRecordBatchReaderBuilder` over `bytes::Bytes`.
//! The settings of each variant mirror pyarrow's `pq.write_table` call of
//! bench/writer_matrix.py as far as arrow-rs allows; `variant_differences`
//! lists where it cannot.
//!
//! Allocator (QUIVER_PEER_ALLOCATOR): `pinned` (default) is jemalloc with
//! decay -1 compiled in and read back at start-up; `shipped` is Rust's
//! system allocator (glibc malloc), which a program using arrow-rs gets
//! unless it chooses another (the crates set no global allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::arrow::{ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, Encoding, Type as PhysicalType, ZstdLevel};
use parquet::file::properties::{
    BloomFilterPosition, BloomFilterProperties, CdcOptions, EnabledStatistics, WriterProperties,
    WriterVersion,
};
use serde_json::{json, Value};

mod filter; // the `filter` command of make bench-filter
mod kernel; // the `kernel` command of make bench-compute

/// The global allocator: jemalloc (pinned) or the system allocator
/// (shipped), chosen once, at the first allocation, from
/// QUIVER_PEER_ALLOCATOR (read with getenv, which allocates nothing), and
/// never changed, so every block is freed by the allocator that made it.
/// The choice costs a relaxed load and a predictable branch per call.
struct PeerAllocator;

const MODE_UNSET: u8 = 0;
const MODE_PINNED: u8 = 1;
const MODE_SHIPPED: u8 = 2;
static MODE: AtomicU8 = AtomicU8::new(MODE_UNSET);

#[cold]
fn choose_mode() -> u8 {
    // SAFETY: a NUL-terminated name; getenv returns NULL or a C string.
    let v = unsafe { libc::getenv(c"QUIVER_PEER_ALLOCATOR".as_ptr()) };
    let shipped = !v.is_null() && unsafe { std::ffi::CStr::from_ptr(v) }.to_bytes() == b"shipped";
    let mode = if shipped { MODE_SHIPPED } else { MODE_PINNED };
    // The first allocation happens on the main thread before any other
    // thread exists; a racing second chooser would choose the same.
    MODE.store(mode, Ordering::Relaxed);
    mode
}

#[inline]
fn mode() -> u8 {
    match MODE.load(Ordering::Relaxed) {
        MODE_UNSET => choose_mode(),
        m => m,
    }
}

// SAFETY: every call goes to one of two allocators for the whole process.
unsafe impl GlobalAlloc for PeerAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mode() == MODE_PINNED {
            unsafe { tikv_jemallocator::Jemalloc.alloc(layout) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mode() == MODE_PINNED {
            unsafe { tikv_jemallocator::Jemalloc.alloc_zeroed(layout) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mode() == MODE_PINNED {
            unsafe { tikv_jemallocator::Jemalloc.dealloc(ptr, layout) }
        } else {
            unsafe { System.dealloc(ptr, layout) }
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if mode() == MODE_PINNED {
            unsafe { tikv_jemallocator::Jemalloc.realloc(ptr, layout, new_size) }
        } else {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}

#[global_allocator]
static GLOBAL: PeerAllocator = PeerAllocator;

const PEER: &str = "arrow-rs";
const PARQUET_VERSION: &str = "60.1.0";
const JEMALLOCATOR_VERSION: &str = "0.7.0";

/// Rows per RecordBatch when reading: Arrow C++'s (pyarrow's) default
/// ArrowReaderProperties batch size; arrow-rs's own default is 1024.
const READ_BATCH_SIZE: usize = 64 * 1024;

/// The variants of PROTOCOL.md, all of which this peer can write.
const VARIANTS: &[&str] = &[
    "default",
    "bloom_filter",
    "parquet_2",
    "zstd",
    "zstd_parquet_2",
    "snappy",
    "cdc",
    "number_distinct_values",
    "cdc_zstd",
    "cdc_snappy",
];

const INTEROP_VARIANTS: &[&str] = &["default", "parquet_2", "zstd", "cdc"];

type Res<T> = Result<T, String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

// ---------------------------------------------------------------------------
// Allocator pin.

/// Pinned: reads back jemalloc's decay options; exits 2 unless both are -1.
/// Shipped: says so (and refuses a jemalloc override, which would not apply).
fn check_allocator() -> String {
    if mode() == MODE_SHIPPED {
        if std::env::var_os("_RJEM_MALLOC_CONF").is_some() {
            eprintln!("quiver-peer-arrow-rs: shipped allocator, but _RJEM_MALLOC_CONF is set");
            std::process::exit(2);
        }
        return "SHIPPED: Rust's system allocator (std::alloc::System, glibc malloc), which a \
                program using arrow-rs gets unless it sets a global allocator of its own"
            .to_string();
    }
    // SAFETY: NUL-terminated mallctl names of ssize_t / const char* options.
    let dirty = unsafe { tikv_jemalloc_ctl::raw::read::<isize>(b"opt.dirty_decay_ms\0") };
    let muzzy = unsafe { tikv_jemalloc_ctl::raw::read::<isize>(b"opt.muzzy_decay_ms\0") };
    let version = unsafe { tikv_jemalloc_ctl::raw::read_str(b"version\0") }
        .ok()
        .and_then(|v| std::str::from_utf8(v).ok())
        .map(|v| v.trim_end_matches('\0').split('-').next().unwrap_or(v).to_string())
        .unwrap_or_else(|| "?".to_string());
    match (dirty, muzzy) {
        (Ok(-1), Ok(-1)) => {}
        (d, m) => {
            eprintln!(
                "quiver-peer-arrow-rs: allocator not pinned: jemalloc opt.dirty_decay_ms = {d:?}, \
                 opt.muzzy_decay_ms = {m:?} (both must be -1). The decay is compiled in by \
                 bench/peers/arrow-rs/.cargo/config.toml (JEMALLOC_SYS_WITH_MALLOC_CONF; build \
                 with bench/peers/arrow-rs/build.sh) and is overridden at run time by \
                 _RJEM_MALLOC_CONF (this jemalloc is built with the _rjem_ prefix): \
                 _RJEM_MALLOC_CONF = {:?}",
                std::env::var("_RJEM_MALLOC_CONF").ok()
            );
            std::process::exit(2);
        }
    }
    format!(
        "jemalloc {version} (tikv-jemallocator {JEMALLOCATOR_VERSION}, _rjem_ prefix), \
         dirty/muzzy decay -1 compiled in (--with-malloc-conf) and read back through mallctl; \
         run-time overrides come only from _RJEM_MALLOC_CONF (MALLOC_CONF is not read)"
    )
}

// ---------------------------------------------------------------------------
// Variants.

struct Variant {
    version: WriterVersion,
    compression: Compression,
    bloom: bool,
    cdc: bool,
    ndv_stats: bool,
}

fn variant(name: &str) -> Res<Variant> {
    let zstd1 = Compression::ZSTD(ZstdLevel::try_new(1).map_err(err)?);
    let base = Variant {
        version: WriterVersion::PARQUET_1_0,
        compression: Compression::UNCOMPRESSED,
        bloom: false,
        cdc: false,
        ndv_stats: false,
    };
    Ok(match name {
        "default" => base,
        "bloom_filter" => Variant { bloom: true, ..base },
        "parquet_2" => Variant { version: WriterVersion::PARQUET_2_0, ..base },
        "zstd" => Variant { compression: zstd1, ..base },
        "zstd_parquet_2" => Variant {
            version: WriterVersion::PARQUET_2_0,
            compression: zstd1,
            ..base
        },
        "snappy" => Variant { compression: Compression::SNAPPY, ..base },
        "cdc" => Variant { cdc: true, ..base },
        "number_distinct_values" => Variant { ndv_stats: true, ..base },
        "cdc_zstd" => Variant { cdc: true, compression: zstd1, ..base },
        "cdc_snappy" => Variant { cdc: true, compression: Compression::SNAPPY, ..base },
        _ => return Err(format!("unknown variant {name:?} (known: {})", VARIANTS.join(", "))),
    })
}

fn cdc_options() -> CdcOptions {
    CdcOptions { min_chunk_size: 256 * 1024, max_chunk_size: 1024 * 1024, norm_level: 0 }
}

/// The WriterProperties of `name` for a table of `schema` and `rows` rows
/// (the per-column settings need the Parquet leaf columns of the schema).
fn writer_properties(name: &str, schema: &SchemaRef, rows: usize) -> Res<WriterProperties> {
    let v = variant(name)?;
    let mut b = WriterProperties::builder()
        .set_writer_version(v.version)
        .set_compression(v.compression)
        .set_dictionary_enabled(true)
        .set_data_page_size_limit(1 << 20)
        .set_dictionary_page_size_limit(1 << 20)
        .set_data_page_row_count_limit(20_000)
        .set_write_batch_size(1024)
        .set_max_row_group_row_count(Some(1 << 20))
        .set_max_row_group_bytes(None)
        // Row-group statistics without a page index: Page-level statistics
        // would write the ColumnIndex and force the OffsetIndex on.
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_write_page_header_statistics(false)
        .set_offset_index_disabled(true)
        // pyarrow writes min/max whole (and drops them above 4096 bytes).
        .set_statistics_truncate_length(None)
        // Date64 as INT32 DATE and list elements named "element", as pyarrow.
        .set_coerce_types(true)
        .set_bloom_filter_position(BloomFilterPosition::End)
        .set_write_row_group_number_distinct_values(v.ndv_stats);
    if v.cdc {
        b = b.set_content_defined_chunking(Some(cdc_options()));
    }
    let parquet_schema = ArrowSchemaConverter::new()
        .with_coerce_types(true)
        .convert(schema)
        .map_err(err)?;
    if v.version == WriterVersion::PARQUET_2_0 {
        // arrow-rs's PARQUET_2_0 falls back from the dictionary to DELTA_*;
        // pyarrow (data_page_version 2.0) to PLAIN, and RLE for BOOLEAN.
        b = b.set_encoding(Encoding::PLAIN);
    }
    for col in parquet_schema.columns() {
        let boolean = col.physical_type() == PhysicalType::BOOLEAN;
        if boolean && v.version == WriterVersion::PARQUET_2_0 {
            b = b.set_column_encoding(col.path().clone(), Encoding::RLE);
        }
        if v.bloom && !boolean {
            b = b.set_column_bloom_filter_properties(
                col.path().clone(),
                BloomFilterProperties::builder()
                    .with_fpp(0.05)
                    .with_max_ndv(rows as u64)
                    .build(),
            );
        }
    }
    Ok(b.build())
}

fn compression_name(c: Compression) -> String {
    match c {
        Compression::ZSTD(level) => format!("ZSTD(ZstdLevel({}))", level.compression_level()),
        other => format!("{other:?}"),
    }
}

fn variant_settings(name: &str, sink: &str, table: Option<&RecordBatch>) -> Res<Value> {
    let v = variant(name)?;
    let sink_text = match sink {
        "file" => "File::create(path) passed to ArrowWriter as is (the writer wraps every sink \
                   in an 8 KiB BufWriter of its own, parquet/src/file/writer.rs TrackedWrite); \
                   ArrowWriter::into_inner closes the writer and the File is dropped (closed) \
                   inside the timing; no fsync",
        _ => "Vec<u8> (new, empty, per repetition), taken back with ArrowWriter::into_inner",
    };
    let mut s = json!({
        "WriterProperties": {
            "set_writer_version": format!("{:?}", v.version),
            "set_compression": compression_name(v.compression),
            "set_dictionary_enabled": true,
            "set_data_page_size_limit": 1 << 20,
            "set_dictionary_page_size_limit": 1 << 20,
            "set_data_page_row_count_limit": 20000,
            "set_write_batch_size": 1024,
            "set_max_row_group_row_count": 1 << 20,
            "set_max_row_group_bytes": null,
            "set_statistics_enabled": "EnabledStatistics::Chunk",
            "set_write_page_header_statistics": false,
            "set_offset_index_disabled": true,
            "set_statistics_truncate_length": null,
            "set_coerce_types": true,
            "set_bloom_filter_position": "BloomFilterPosition::End",
            "set_write_row_group_number_distinct_values": v.ndv_stats,
            "set_content_defined_chunking": if v.cdc {
                json!({"min_chunk_size": 256 * 1024, "max_chunk_size": 1024 * 1024, "norm_level": 0})
            } else {
                Value::Null
            },
        },
        "ArrowWriterOptions": {"with_skip_arrow_metadata": false},
        "sink": sink_text,
        "read": {"ParquetRecordBatchReaderBuilder::with_batch_size": READ_BATCH_SIZE,
                 "input": "bytes::Bytes of the whole file"},
        "crates": format!("parquet {PARQUET_VERSION} (features arrow, zstd, snap, simdutf8), \
                           arrow-* {PARQUET_VERSION}"),
    });
    let w = s["WriterProperties"].as_object_mut().unwrap();
    if v.version == WriterVersion::PARQUET_2_0 {
        w.insert("set_encoding".into(), json!("PLAIN (dictionary fallback)"));
        w.insert("set_column_encoding".into(), json!("RLE for every BOOLEAN leaf"));
    }
    if v.bloom {
        let cols = match table {
            Some(t) => {
                let parquet_schema = ArrowSchemaConverter::new()
                    .with_coerce_types(true)
                    .convert(&t.schema())
                    .map_err(err)?;
                let names: Vec<String> = parquet_schema
                    .columns()
                    .iter()
                    .filter(|c| c.physical_type() != PhysicalType::BOOLEAN)
                    .map(|c| c.path().string())
                    .collect();
                json!(names)
            }
            None => json!("every non-BOOLEAN leaf column of the loaded table"),
        };
        w.insert(
            "set_column_bloom_filter_properties".into(),
            json!({"columns": cols, "fpp": 0.05,
                   "max_ndv": table.map(|t| json!(t.num_rows())).unwrap_or(json!("table rows"))}),
        );
    }
    Ok(json!({"settings": s, "differences": variant_differences(&v)}))
}

fn variant_differences(v: &Variant) -> Vec<String> {
    let mut d = vec![
        "Format version: arrow-rs has one WriterVersion knob that sets both the data page \
         version and FileMetaData.version (PARQUET_1_0: v1 pages, footer version 1; \
         PARQUET_2_0: v2 pages, footer version 2); pyarrow version='2.6' writes footer \
         version 2 with v1 pages. Logical types (UINT_32/64, DATE, TIMESTAMP, FLOAT16, \
         STRING, LIST) are written the same under either WriterVersion."
            .to_string(),
        "Page header statistics: arrow-rs writes them only with EnabledStatistics::Page, \
         which also writes the ColumnIndex and overrides set_offset_index_disabled (the \
         OffsetIndex is always written then). To keep the page index off this peer uses \
         EnabledStatistics::Chunk + set_offset_index_disabled(true): row-group min/max/null \
         count only, no statistics in data page headers (pyarrow writes them there)."
            .to_string(),
        "Statistics length: arrow-rs truncates min/max to 64 bytes by default; this peer \
         sets set_statistics_truncate_length(None) so they are written whole. pyarrow writes \
         them whole and drops min/max longer than 4096 bytes; same result for the benchmark \
         data (strings of at most 399 bytes)."
            .to_string(),
        "Schema: set_coerce_types(true) so Date64 is written as INT32 DATE and list elements \
         are named 'element', as pyarrow does (arrow-rs's default writes Date64 as plain \
         INT64 and names them 'item'). The ARROW:schema key/value is written by ArrowWriter \
         by default."
            .to_string(),
        "Arrow dictionary columns (Dictionary(Int32, Utf8)): arrow-rs re-encodes the \
         values through its own dictionary encoder, bounded by dictionary_page_size_limit \
         (string_dictionary: a 5,326-entry dictionary page, then PLAIN pages); pyarrow writes \
         the Arrow dictionary itself as the dictionary page whatever its size (781,837 \
         entries, 160 MB) and only indices in the data pages. Same pages for the \
         low-cardinality groups."
            .to_string(),
        "Rows per page: arrow-rs checks data_page_row_count_limit only between write \
         batches (1024 values), so a page closes at the first batch boundary at or past \
         20,000 rows: 20,480-row pages where pyarrow cuts exactly at 20,000."
            .to_string(),
    ];
    if v.version == WriterVersion::PARQUET_2_0 {
        d.push(
            "Data page v2: arrow-rs's PARQUET_2_0 would fall back from the dictionary to \
             DELTA_BINARY_PACKED / DELTA_BYTE_ARRAY and write BOOLEAN as RLE; this peer sets \
             the fallback to PLAIN and BOOLEAN leaves to RLE, as pyarrow. Footer version 2."
                .to_string(),
        );
    }
    if v.bloom {
        d.push(
            "Bloom filters: arrow-rs sizes each filter for max_ndv = table rows at fpp 0.05, \
             then folds it down after the values are inserted to the smallest size whose \
             estimated fpp stays within 0.05 (the sizes equal pyarrow 26's on the benchmark \
             data). Written after the row group, before the footer \
             (BloomFilterPosition::End). BOOLEAN leaves get none."
                .to_string(),
        );
    }
    if v.cdc {
        d.push(
            "CDC: arrow-rs's content-defined chunking (experimental in 60.1, only through \
             ArrowWriter), CdcOptions {min 256 KiB, max 1 MiB, norm_level 0}. The pages \
             differ from pyarrow's where the 20,480-row page limit or the dictionary \
             fallback cut them."
                .to_string(),
        );
    }
    if v.ndv_stats {
        d.push(
            "Distinct count: set_write_row_group_number_distinct_values(true) makes ArrowWriter \
             hash every non-null value of each column and store distinct_count in the \
             row-group statistics."
                .to_string(),
        );
    }
    d
}

// ---------------------------------------------------------------------------
// Load / write / read.

fn load_ipc(path: &Path) -> Res<RecordBatch> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let reader = arrow_ipc::reader::FileReader::try_new(file, None).map_err(err)?;
    let schema = reader.schema();
    let batches = reader.collect::<Result<Vec<_>, _>>().map_err(err)?;
    if batches.len() == 1 {
        return Ok(batches.into_iter().next().unwrap());
    }
    arrow_select::concat::concat_batches(&schema, &batches).map_err(err)
}

/// One timed write into a file created at `path`: File::create, ArrowWriter,
/// write, close, and the file closed (dropped) inside the timing. No
/// BufWriter of ours: the writer wraps every sink in a BufWriter of its own
/// (parquet/src/file/writer.rs TrackedWrite).
fn write_file(table: &RecordBatch, props: &WriterProperties, path: &str) -> Res<f64> {
    let t0 = Instant::now();
    let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let options = ArrowWriterOptions::new().with_properties(props.clone());
    let mut w = ArrowWriter::try_new_with_options(file, table.schema(), options).map_err(err)?;
    w.write(table).map_err(err)?;
    let file = w.into_inner().map_err(err)?; // close (footer included), the File back
    drop(file);
    Ok(t0.elapsed().as_secs_f64())
}

/// One timed write into a Vec<u8> the caller owns.
fn write_memory(table: &RecordBatch, props: &WriterProperties) -> Res<(f64, Vec<u8>)> {
    let t0 = Instant::now();
    let options = ArrowWriterOptions::new().with_properties(props.clone());
    let mut w =
        ArrowWriter::try_new_with_options(Vec::new(), table.schema(), options).map_err(err)?;
    w.write(table).map_err(err)?;
    let buf = w.into_inner().map_err(err)?; // close (footer included), the Vec back
    Ok((t0.elapsed().as_secs_f64(), buf))
}

fn remove(path: &str) {
    let _ = std::fs::remove_file(path);
}

fn cmd_write(table: Option<&RecordBatch>, c: &Value) -> Res<Value> {
    let table = table.ok_or("no table loaded")?;
    let name = c["variant"].as_str().ok_or("write: missing \"variant\"")?;
    let reps = c["reps"].as_u64().ok_or("write: missing \"reps\"")? as usize;
    let sink = c["sink"].as_str().unwrap_or("mem");
    if c["use_threads"].as_bool() == Some(true) {
        return Err("unsupported: ArrowWriter writes the columns of a row group one after \
                    another (no use_threads)"
            .to_string());
    }
    let out = c["out"].as_str();
    let props = writer_properties(name, &table.schema(), table.num_rows())?;
    let mut seconds = Vec::with_capacity(reps);
    let mut bytes = 0usize;
    match sink {
        "file" => {
            let path = c["path"].as_str().ok_or("write: the file sink needs \"path\"")?;
            for i in 0..reps {
                remove(path); // untimed
                seconds.push(write_file(table, &props, path)?);
                bytes = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?.len()
                    as usize;
                match out {
                    Some(o) if i + 1 == reps => {
                        std::fs::rename(path, o).map_err(|e| format!("{o}: {e}"))?
                    }
                    _ => remove(path),
                }
            }
        }
        "mem" => {
            for i in 0..reps {
                let (s, buf) = write_memory(table, &props)?;
                seconds.push(s);
                bytes = buf.len();
                if let (Some(o), true) = (out, i + 1 == reps) {
                    std::fs::write(o, &buf).map_err(|e| format!("{o}: {e}"))?;
                }
                drop(buf); // untimed
            }
        }
        other => return Err(format!("unknown sink {other:?} (file or mem)")),
    }
    Ok(json!({"seconds": seconds, "bytes": bytes}))
}

/// The decoded batches as an Arrow IPC file (the read gate compares them
/// with pyarrow's reading of the same file).
fn write_ipc(path: &str, schema: &SchemaRef, batches: &[RecordBatch]) -> Res<()> {
    let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut w = arrow_ipc::writer::FileWriter::try_new(file, schema).map_err(err)?;
    for b in batches {
        w.write(b).map_err(err)?;
    }
    w.finish().map_err(err)
}

fn cmd_read(c: &Value) -> Res<Value> {
    let path = c["file"].as_str().ok_or("read: missing \"file\"")?;
    let reps = c["reps"].as_u64().ok_or("read: missing \"reps\"")? as usize;
    let out = c["out"].as_str();
    let bytes = Bytes::from(std::fs::read(path).map_err(|e| format!("{path}: {e}"))?);
    let mut seconds = Vec::with_capacity(reps);
    let mut rows = 0usize;
    for i in 0..reps {
        let t0 = Instant::now();
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
            .map_err(err)?
            .with_batch_size(READ_BATCH_SIZE)
            .build()
            .map_err(err)?;
        let schema = reader.schema();
        let batches = reader.collect::<Result<Vec<_>, _>>().map_err(err)?;
        seconds.push(t0.elapsed().as_secs_f64());
        rows = batches.iter().map(|b| b.num_rows()).sum();
        if let (Some(o), true) = (out, i + 1 == reps) {
            write_ipc(o, &schema, &batches)?;
        }
        drop(batches); // untimed
    }
    Ok(json!({"seconds": seconds, "rows": rows}))
}

// ---------------------------------------------------------------------------
// Server.

fn reply(out: &mut impl Write, v: &Value) {
    let line = serde_json::to_string(v).expect("JSON");
    // A closed stdout means the driver is gone: stop.
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        std::process::exit(1);
    }
}

fn serve(startup: Value) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    reply(&mut out, &startup);
    let mut table: Option<RecordBatch> = None;
    let mut kernel_inputs = kernel::Inputs::default();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                reply(&mut out, &json!({"error": format!("stdin: {e}")}));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let c: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                reply(&mut out, &json!({"error": format!("bad JSON: {e}")}));
                continue;
            }
        };
        let cmd = c["cmd"].as_str().unwrap_or("");
        if cmd == "quit" {
            std::process::exit(0);
        }
        // A panic inside arrow-rs becomes an error reply; the server goes on.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Res<Value> {
            match cmd {
                "load" => {
                    let input = c["input"].as_str().ok_or("load: missing \"input\"")?;
                    table = None; // free the previous table first
                    let t = load_ipc(Path::new(input))?;
                    let v = json!({"ok": true, "rows": t.num_rows(), "columns": t.num_columns()});
                    table = Some(t);
                    Ok(v)
                }
                "write" => cmd_write(table.as_ref(), &c),
                "read" => cmd_read(&c),
                "kernel" => kernel::cmd_kernel(&mut kernel_inputs, &c),
                "filter" => filter::cmd_filter(&c),
                "settings" => {
                    let name = c["variant"].as_str().ok_or("settings: missing \"variant\"")?;
                    let sink = c["sink"].as_str().unwrap_or("mem");
                    variant_settings(name, sink, table.as_ref())
                }
                other => Err(format!("unknown cmd {other:?}")),
            }
        }));
        let v = match result {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => json!({"error": e}),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".to_string());
                json!({"error": format!("panic: {msg}")})
            }
        };
        reply(&mut out, &v);
    }
}

// ---------------------------------------------------------------------------
// Interop files.

fn interop(input_dir: &Path, out_dir: &Path) -> Res<()> {
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(input_dir)
        .map_err(|e| format!("{}: {e}", input_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "arrow"))
        .collect();
    inputs.sort();
    if inputs.is_empty() {
        return Err(format!("no *.arrow files in {}", input_dir.display()));
    }
    for input in inputs {
        let group = input.file_stem().unwrap().to_string_lossy().to_string();
        let table = load_ipc(&input)?;
        for name in INTEROP_VARIANTS {
            let props = writer_properties(name, &table.schema(), table.num_rows())?;
            let (_, bytes) =
                write_memory(&table, &props).map_err(|e| format!("{group}.{name}: {e}"))?;
            let out = out_dir.join(format!("{group}.{name}.parquet"));
            std::fs::write(&out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
            println!("{} ({} rows, {} bytes)", out.display(), table.num_rows(), bytes.len());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Inspection (a debugging aid: what a file holds, page by page).

fn inspect(path: &Path) -> Res<()> {
    macro_rules! println {
        ($($t:tt)*) => {
            if writeln!(std::io::stdout(), $($t)*).is_err() {
                std::process::exit(0);
            }
        };
    }
    use parquet::column::page::Page;
    use parquet::file::properties::ReaderProperties;
    use parquet::file::reader::FileReader;
    use parquet::file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
    let bytes = Bytes::from(std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?);
    let options = ReadOptionsBuilder::new()
        .with_reader_properties(ReaderProperties::builder().set_read_page_statistics(true).build())
        .build();
    let reader = SerializedFileReader::new_with_options(bytes, options).map_err(err)?;
    let md = reader.metadata();
    let fm = md.file_metadata();
    let keys: Vec<String> = fm
        .key_value_metadata()
        .map(|kv| kv.iter().map(|k| k.key.clone()).collect())
        .unwrap_or_default();
    println!(
        "{}",
        json!({"file": path.display().to_string(), "version": fm.version(), "rows": fm.num_rows(),
               "created_by": fm.created_by(), "row_groups": md.num_row_groups(),
               "key_value_keys": keys})
    );
    for rg in 0..md.num_row_groups() {
        let rgr = reader.get_row_group(rg).map_err(err)?;
        for (ci, cc) in md.row_group(rg).columns().iter().enumerate() {
            let mut pages = Vec::new();
            let mut page_reader = rgr.get_column_page_reader(ci).map_err(err)?;
            while let Some(page) = page_reader.get_next_page().map_err(err)? {
                pages.push(match &page {
                    Page::DictionaryPage { num_values, encoding, buf, .. } => {
                        format!("dict {num_values} {encoding:?} {}B", buf.len())
                    }
                    Page::DataPage { num_values, encoding, statistics, buf, .. } => format!(
                        "v1 {num_values} {encoding:?} {}B{}",
                        buf.len(),
                        if statistics.is_some() { " stats" } else { "" }
                    ),
                    Page::DataPageV2 {
                        num_values, num_rows, encoding, statistics, is_compressed, buf, ..
                    } => format!(
                        "v2 {num_values}/{num_rows}rows {encoding:?} {}B{}{}",
                        buf.len(),
                        if *is_compressed { "" } else { " uncompressed" },
                        if statistics.is_some() { " stats" } else { "" }
                    ),
                });
            }
            let stats = cc.statistics().map(|s| {
                json!({"null_count": s.null_count_opt(), "distinct_count": s.distinct_count_opt(),
                       "min_max": s.min_bytes_opt().is_some(),
                       "min_len": s.min_bytes_opt().map(|b| b.len())})
            });
            println!(
                "{}",
                json!({"rg": rg, "column": cc.column_path().string(),
                       "type": format!("{:?}", cc.column_type()),
                       "codec": format!("{:?}", cc.compression()),
                       "encodings": cc.encodings().map(|e| format!("{e:?}")).collect::<Vec<_>>(),
                       "bytes": cc.compressed_size(),
                       "statistics": stats,
                       "column_index": cc.column_index_offset().is_some(),
                       "offset_index": cc.offset_index_offset().is_some(),
                       "bloom_filter_bytes": cc.bloom_filter_length(),
                       "size_stats": cc.unencoded_byte_array_data_bytes().is_some()
                           || cc.definition_level_histogram().is_some(),
                       "pages": pages})
            );
        }
    }
    Ok(())
}

fn usage() -> ! {
    eprintln!(
        "usage: quiver-peer-arrow-rs                  (server: bench/peers/PROTOCOL.md)\n\
         \x20      quiver-peer-arrow-rs interop --input-dir DIR --out-dir OUT\n\
         \x20      quiver-peer-arrow-rs inspect FILE.parquet   (pages and metadata, one JSON line each)"
    );
    std::process::exit(64);
}

/// The x86-64 features this binary was compiled for (the default target
/// has none of these; `-C target-cpu=native` has the machine's).
fn target_features() -> String {
    let mut f = Vec::new();
    macro_rules! feature {
        ($($name:tt),*) => { $( if cfg!(target_feature = $name) { f.push($name); } )* };
    }
    feature!("sse4.2", "popcnt", "avx", "avx2", "bmi2", "fma", "avx512f", "avx512bw", "avx512vl");
    if f.is_empty() {
        "baseline (x86-64: SSE2)".to_string()
    } else {
        f.join(",")
    }
}

fn main() {
    let allocator = check_allocator();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        serve(json!({
            "peer": PEER,
            "version": format!("parquet {PARQUET_VERSION}"),
            "allocator": allocator,
            "allocator_mode": if mode() == MODE_SHIPPED { "shipped" } else { "pinned" },
            "target_features": target_features(),
            "threads": 1,
        }));
        return;
    }
    match args[0].as_str() {
        "interop" => {
            let (mut input, mut out) = (None, None);
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--input-dir" => input = it.next().map(PathBuf::from),
                    "--out-dir" => out = it.next().map(PathBuf::from),
                    _ => usage(),
                }
            }
            let (Some(input), Some(out)) = (input, out) else { usage() };
            if let Err(e) = interop(&input, &out) {
                eprintln!("quiver-peer-arrow-rs interop: {e}");
                std::process::exit(1);
            }
        }
        "inspect" if args.len() == 2 => {
            if let Err(e) = inspect(Path::new(&args[1])) {
                eprintln!("quiver-peer-arrow-rs inspect: {e}");
                std::process::exit(1);
            }
        }
        _ => usage(),
    }
}
