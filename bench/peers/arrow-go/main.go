// Command quiver-peer-arrow-go is the arrow-go peer of `make bench-peers`:
// a long-running process that speaks the line protocol of
// bench/peers/PROTOCOL.md over stdin/stdout (one JSON object per line each
// way), writing and reading Parquet with github.com/apache/arrow-go/v18.
//
//	quiver-peer-arrow-go                                   server mode
//	quiver-peer-arrow-go interop --input-dir D --out-dir O interop files
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

const (
	peerName      = "arrow-go"
	arrowGoModule = "github.com/apache/arrow-go/v18"
	readBatchSize = 1 << 16
)

// mem is the one allocator of the peer: Go's garbage-collected heap
// (memory.NewGoAllocator allocates []byte through the Go runtime, not malloc).
var mem = memory.NewGoAllocator()

// shipped: QUIVER_PEER_ALLOCATOR=shipped, the Go runtime as a program gets
// it: no runtime.GC() forced between timed repetitions (pinned: forced, so
// that no repetition collects another's garbage).
var shipped = os.Getenv("QUIVER_PEER_ALLOCATOR") == "shipped"

// collectBetweenReps runs the garbage collector outside the timing (pinned).
func collectBetweenReps() {
	if !shipped {
		runtime.GC()
	}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "interop" {
		os.Exit(interopMain(os.Args[2:]))
	}
	if len(os.Args) > 1 {
		fmt.Fprintf(os.Stderr, "usage: %s                  (server mode, PROTOCOL.md)\n"+
			"       %s interop --input-dir DIR --out-dir OUT\n", os.Args[0], os.Args[0])
		os.Exit(2)
	}
	os.Exit(serve())
}

// ---------------------------------------------------------------------------
// Start-up: runtime facts.

// moduleVersion reads the arrow-go version the binary was built with from the
// build info (go.mod pins it; the binary cannot disagree with it).
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == arrowGoModule {
				if dep.Replace != nil {
					return dep.Path + " " + dep.Version + " => " + dep.Replace.Path + " " + dep.Replace.Version
				}
				return dep.Path + " " + dep.Version
			}
		}
	}
	return arrowGoModule + " (unknown version)"
}

// gcPercent returns GOGC as the runtime has it (SetGCPercent returns the old
// value; it is restored at once).
func gcPercent() int {
	old := debug.SetGCPercent(-1)
	debug.SetGCPercent(old)
	return old
}

func describeGOGC(p int) string {
	if p < 0 {
		return "off"
	}
	return fmt.Sprint(p)
}

func describeMemLimit() string {
	limit := debug.SetMemoryLimit(-1) // a negative input only reads it
	if limit == (1<<63)-1 {
		return "none"
	}
	return fmt.Sprint(limit)
}

// pinThreads runs the peer on one P (GOMAXPROCS=1) unless the environment
// sets GOMAXPROCS: the benchmark is single-threaded on every side, and with
// more Ps Go's concurrent garbage collector would mark on another core
// during a timed repetition.
func pinThreads() int {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	return runtime.GOMAXPROCS(0)
}

// ---------------------------------------------------------------------------
// Server mode.

type peer struct {
	out *bufio.Writer

	input  string
	rec    arrow.RecordBatch // the loaded table as one record batch
	leaves []leaf            // its Parquet leaf columns
}

type leaf struct {
	path    string
	boolean bool
}

func (p *peer) reply(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "encoding the reply: " + err.Error()})
	}
	p.out.Write(b)
	p.out.WriteByte('\n')
	p.out.Flush()
}

func serve() int {
	threads := pinThreads()
	gogc := gcPercent()
	if gogc < 0 {
		// GOGC=off: nothing is collected and a long matrix runs out of memory.
		fmt.Fprintln(os.Stderr, "quiver-peer-arrow-go: refusing to run with GOGC=off "+
			"(the Go heap must be collected); unset GOGC")
		return 2
	}
	if m := os.Getenv("QUIVER_PEER_ALLOCATOR"); m != "" && m != "pinned" && m != "shipped" {
		fmt.Fprintf(os.Stderr, "quiver-peer-arrow-go: QUIVER_PEER_ALLOCATOR=%q (pinned or shipped)\n", m)
		return 2
	}
	p := &peer{out: bufio.NewWriterSize(os.Stdout, 1<<16)}
	mode, gc := "pinned", "runtime.GC() before every timed repetition, outside the timing"
	if shipped {
		mode, gc = "shipped", "SHIPPED: no forced collection (the runtime's own pacing, as a program gets it)"
	}
	p.reply(map[string]any{
		"peer":    peerName,
		"version": moduleVersion() + " (" + runtime.Version() + ")",
		"allocator": fmt.Sprintf("Go runtime heap, not malloc (memory.NewGoAllocator for every "+
			"arrow-go buffer); GOGC=%s, GOMEMLIMIT=%s, GOMAXPROCS=%d; %s", describeGOGC(gogc),
			describeMemLimit(), threads, gc),
		"allocator_mode": mode,
		"threads":        threads,
	})

	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var cmd map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &cmd); err != nil {
			p.reply(errReply(fmt.Errorf("bad command line: %w", err)))
			continue
		}
		var name string
		if err := json.Unmarshal(cmd["cmd"], &name); err != nil {
			p.reply(errReply(errors.New(`missing or non-string "cmd"`)))
			continue
		}
		if name == "quit" {
			return 0
		}
		p.reply(p.dispatch(name, cmd))
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "quiver-peer-arrow-go: reading stdin:", err)
		return 1
	}
	return 0 // end of input: as quit
}

func errReply(err error) map[string]any { return map[string]any{"error": err.Error()} }

// dispatch runs one command; a panic inside arrow-go becomes an error reply.
func (p *peer) dispatch(name string, cmd map[string]json.RawMessage) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = errReply(fmt.Errorf("panic in %s: %v", name, r))
		}
	}()
	var res any
	var err error
	switch name {
	case "load":
		var input string
		if err = field(cmd, "input", &input, true); err == nil {
			res, err = p.load(input)
		}
	case "write":
		var w writeCmd
		w.Sink = "mem"
		if err = json.Unmarshal(mustJSON(cmd), &w); err == nil {
			res, err = p.write(w)
		}
	case "read":
		var path string
		var reps int
		var outPath *string
		if err = field(cmd, "file", &path, true); err == nil {
			if err = field(cmd, "reps", &reps, true); err == nil {
				if err = field(cmd, "out", &outPath, false); err == nil {
					res, err = p.read(path, reps, outPath)
				}
			}
		}
	case "settings":
		var variant string
		sink := "mem"
		if err = field(cmd, "variant", &variant, true); err == nil {
			if err = field(cmd, "sink", &sink, false); err == nil {
				res, err = p.settings(variant, sink)
			}
		}
	default:
		err = fmt.Errorf("unknown cmd %q", name)
	}
	if err != nil {
		return errReply(err)
	}
	return res
}

// writeCmd is PROTOCOL.md's write command.
type writeCmd struct {
	Variant    string  `json:"variant"`
	Reps       int     `json:"reps"`
	Sink       string  `json:"sink"` // "file" or "mem"
	Path       string  `json:"path"` // the file sink's file
	Out        *string `json:"out"`
	UseThreads bool    `json:"use_threads"`
}

func mustJSON(cmd map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(cmd)
	return b
}

func field(cmd map[string]json.RawMessage, key string, dst any, required bool) error {
	raw, ok := cmd[key]
	if !ok {
		if required {
			return fmt.Errorf("missing %q", key)
		}
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("bad %q: %w", key, err)
	}
	return nil
}

// ---------------------------------------------------------------------------
// load

// loadIPC reads an Arrow IPC file into one record batch (the batches are
// concatenated column by column if there are several).
func loadIPC(path string) (arrow.RecordBatch, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The reader refuses a record batch body over 256 MiB by default (a
	// guard against hostile files); these inputs are the harness's own,
	// and the string groups' and TPC-H lineitem's one batch is larger: the
	// limit is the file's size, which no body can exceed anyway.
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rdr, err := ipc.NewFileReader(f, ipc.WithAllocator(mem), ipc.WithBodySizeLimit(st.Size()))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer rdr.Close()
	schema := rdr.Schema()
	batches := make([]arrow.RecordBatch, 0, rdr.NumRecords())
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for i := 0; i < rdr.NumRecords(); i++ {
		b, err := rdr.RecordBatchAt(i) // owned by us
		if err != nil {
			return nil, fmt.Errorf("%s: batch %d: %w", path, i, err)
		}
		batches = append(batches, b)
	}
	switch len(batches) {
	case 0:
		cols := make([]arrow.Array, schema.NumFields())
		for i, fld := range schema.Fields() {
			cols[i] = array.MakeArrayOfNull(mem, fld.Type, 0)
			defer cols[i].Release()
		}
		return array.NewRecordBatch(schema, cols, 0), nil
	case 1:
		batches[0].Retain()
		return batches[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(batches))
		for j, b := range batches {
			parts[j] = b.Column(i)
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, fmt.Errorf("%s: concatenating column %d: %w", path, i, err)
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// leavesOf lists the Parquet leaf columns arrow-go writes for a schema, by
// the dotted path its per-column writer options take.
func leavesOf(schema *arrow.Schema) ([]leaf, error) {
	pqSchema, err := pqarrow.ToParquet(schema, parquet.NewWriterProperties(parquet.WithVersion(parquet.V2_6)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	out := make([]leaf, pqSchema.NumColumns())
	for i := range out {
		c := pqSchema.Column(i)
		out[i] = leaf{path: c.Path(), boolean: c.PhysicalType() == parquet.Types.Boolean}
	}
	return out, nil
}

func (p *peer) load(path string) (any, error) {
	// A failed load leaves no table: a later write must not time the old one.
	if p.rec != nil {
		p.rec.Release()
		p.rec, p.leaves, p.input = nil, nil, ""
	}
	rec, err := loadIPC(path)
	if err != nil {
		return nil, err
	}
	leaves, err := leavesOf(rec.Schema())
	if err != nil {
		rec.Release()
		return nil, fmt.Errorf("%s: arrow-go cannot map the schema to Parquet: %w", path, err)
	}
	p.rec, p.leaves, p.input = rec, leaves, path
	runtime.GC()
	return map[string]any{"ok": true, "rows": rec.NumRows(), "columns": rec.NumCols()}, nil
}

// ---------------------------------------------------------------------------
// Variants

type unsupportedError struct{ why string }

func (e unsupportedError) Error() string { return "unsupported: " + e.why }

const (
	noCDC = "arrow-go v18.8.0 has no content-defined chunking (no CDC option in parquet.WriterProperties " +
		"or pqarrow.ArrowWriterProperties; the module source has no chunker)"
	noDistinct = "arrow-go v18.8.0 cannot write distinct_count: its column writers never compute a " +
		"distinct count for the row-group statistics (only the reader decodes one)"
)

// variantConfig is one variant's writer settings in arrow-go's API, plus the
// settings in its own names and the ways it differs from the like-for-like
// list of PROTOCOL.md.
type variantConfig struct {
	props       *parquet.WriterProperties
	arrowProps  pqarrow.ArrowWriterProperties
	settings    map[string]any
	differences []string
}

var knownVariants = map[string]bool{
	"default": true, "bloom_filter": true, "parquet_2": true, "zstd": true, "zstd_parquet_2": true,
	"snappy": true, "cdc": true, "number_distinct_values": true, "cdc_zstd": true, "cdc_snappy": true,
}

// configFor builds a variant's writer properties. leaves may be nil (no table
// loaded: settings only); rows is the table's row count (bloom filter ndv).
func configFor(variant string, leaves []leaf, rows int64) (*variantConfig, error) {
	if !knownVariants[variant] {
		return nil, fmt.Errorf("unknown variant %q", variant)
	}
	if strings.HasPrefix(variant, "cdc") {
		return nil, unsupportedError{noCDC}
	}
	if variant == "number_distinct_values" {
		return nil, unsupportedError{noDistinct}
	}

	dataPageVersion, dpvName := parquet.DataPageV1, "parquet.DataPageV1"
	if variant == "parquet_2" || variant == "zstd_parquet_2" {
		dataPageVersion, dpvName = parquet.DataPageV2, "parquet.DataPageV2"
	}
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithVersion(parquet.V2_6),
		parquet.WithDataPageVersion(dataPageVersion),
		parquet.WithDictionaryDefault(true),
		parquet.WithDataPageSize(1 << 20),
		parquet.WithDictionaryPageSizeLimit(1 << 20),
		parquet.WithMaxRowGroupLength(1 << 20),
		parquet.WithBatchSize(1024),
		parquet.WithStats(true),
		parquet.WithPageIndexEnabled(false),
	}
	settings := map[string]any{
		"parquet.WithAllocator":               "memory.NewGoAllocator()",
		"parquet.WithVersion":                 "parquet.V2_6",
		"parquet.WithDataPageVersion":         dpvName,
		"parquet.WithDictionaryDefault":       true,
		"parquet.WithDataPageSize":            1 << 20,
		"parquet.WithDictionaryPageSizeLimit": 1 << 20,
		"parquet.WithMaxRowGroupLength":       1 << 20,
		"parquet.WithBatchSize":               1024,
		"parquet.WithStats":                   true,
		"parquet.WithMaxStatsSize":            "4096 (default, unchanged)",
		"parquet.WithPageIndexEnabled":        false,
		"pqarrow.WithStoreSchema":             true,
		"pqarrow.FileWriter":                  "NewFileWriter + Write(record) + Close, one row group",
		"parallel":                            "none (pqarrow.FileWriter writes the columns serially)",
	}
	differences := []string{
		"no limit on rows per page: arrow-go v18.8.0 has no max_rows_per_page option. A data page " +
			"is cut only when its buffered values reach the 1 MiB data page size (checked after every " +
			"write batch of 1024 values), and while a column is dictionary-encoded that size is the raw " +
			"(plain) size of the values, not the encoded indices as in Arrow C++ (arrow-go follows " +
			"parquet-mr here): a page holds up to 1 MiB of plain values (262,144 int32) where pyarrow's " +
			"hold at most 20,000 rows (at 100,000 rows: 1 data page per primitive column against 5)",
		"ARROW:schema: arrow-go stores the Arrow schema with every list's element field renamed to " +
			"\"element\" (pyarrow keeps the Arrow name, \"item\")",
	}

	// arrow-go's cost-based dictionary fallback (before the first data page
	// of a chunk, fall back to PLAIN when dictionary + indices are not
	// smaller than the plain values; on by default for uncompressed
	// columns) has no counterpart in Arrow C++, whose only fallback is the
	// dictionary page size limit: it is turned off on every leaf so that
	// "dictionary encoding on for every column" means the same on both sides.
	for _, l := range leaves {
		opts = append(opts, parquet.WithDictionaryCostFallbackFor(l.path, false))
	}
	settings["parquet.WithDictionaryCostFallbackFor"] = "false for every leaf column (Arrow C++ has no cost-based fallback)"

	// With v2 data pages Arrow C++ (and so pyarrow and Quiver) encodes
	// BOOLEAN values with RLE; arrow-go's default stays PLAIN (a copy of the
	// bits, no run search). arrow-go has an RLE boolean encoder: it is asked
	// for, so that both sides do the same encoding work.
	if dataPageVersion == parquet.DataPageV2 {
		var rle []string
		for _, l := range leaves {
			if l.boolean {
				opts = append(opts, parquet.WithEncodingFor(l.path, parquet.Encodings.RLE))
				rle = append(rle, l.path)
			}
		}
		if leaves != nil {
			sort.Strings(rle)
			settings["parquet.WithEncodingFor(RLE)"] = rle
		} else {
			settings["parquet.WithEncodingFor(RLE)"] = "every BOOLEAN leaf column (Arrow C++'s encoding for BOOLEAN in v2 data pages)"
		}
	}

	switch variant {
	case "zstd", "zstd_parquet_2":
		opts = append(opts, parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(1))
		settings["parquet.WithCompression"] = "compress.Codecs.Zstd"
		settings["parquet.WithCompressionLevel"] = 1
		differences = append(differences, "ZSTD is github.com/klauspost/compress/zstd (pure Go), not "+
			"libzstd: level 1 maps to its zstd.SpeedFastest encoder (zstd.EncoderLevelFromZstd(1)), "+
			"which compresses differently from libzstd level 1")
	case "snappy":
		opts = append(opts, parquet.WithCompression(compress.Codecs.Snappy))
		settings["parquet.WithCompression"] = "compress.Codecs.Snappy"
		differences = append(differences, "SNAPPY is github.com/klauspost/compress/snappy (pure Go), not the C++ snappy library")
	default:
		opts = append(opts, parquet.WithCompression(compress.Codecs.Uncompressed))
		settings["parquet.WithCompression"] = "compress.Codecs.Uncompressed"
	}

	if variant == "bloom_filter" {
		opts = append(opts,
			parquet.WithBloomFilterEnabled(true),
			parquet.WithBloomFilterFPP(0.05),
			parquet.WithBloomFilterNDV(rows),
			// Arrow C++ sizes the filter from ndv/fpp up to 128 MiB; arrow-go's
			// default cap is 1 MiB: raised to the same 128 MiB.
			parquet.WithMaxBloomFilterBytes(128<<20))
		var skipped []string
		for _, l := range leaves {
			if l.boolean {
				opts = append(opts, parquet.WithBloomFilterEnabledFor(l.path, false))
				skipped = append(skipped, l.path)
			}
		}
		settings["parquet.WithBloomFilterEnabled"] = true
		settings["parquet.WithBloomFilterFPP"] = 0.05
		if leaves != nil {
			settings["parquet.WithBloomFilterNDV"] = rows
		} else {
			settings["parquet.WithBloomFilterNDV"] = "rows of the loaded table"
		}
		settings["parquet.WithMaxBloomFilterBytes"] = 128 << 20
		differences = append(differences, "bloom filter size: arrow-go sizes each filter from ndv and "+
			"fpp (rounded up to a power of two) and writes it at that size; pyarrow 26 folds a filter "+
			"down to the distinct values actually inserted before writing it (e.g. 100,000 rows with "+
			"25% nulls: arrow-go 128 KiB a column, pyarrow 64 KiB; an all-null column: 128 KiB "+
			"against 32 bytes)")
		if leaves != nil {
			sort.Strings(skipped)
			settings["parquet.WithBloomFilterEnabledFor(false)"] = skipped
		} else {
			settings["parquet.WithBloomFilterEnabledFor(false)"] = "every BOOLEAN leaf column"
		}
	}

	return &variantConfig{
		props:       parquet.NewWriterProperties(opts...),
		arrowProps:  pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)),
		settings:    settings,
		differences: differences,
	}, nil
}

func (p *peer) settings(variant, sink string) (any, error) {
	var rows int64
	if p.rec != nil {
		rows = p.rec.NumRows()
	}
	cfg, err := configFor(variant, p.leaves, rows)
	if err != nil {
		return nil, err
	}
	settings := map[string]any{}
	for k, v := range cfg.settings {
		settings[k] = v
	}
	if sink == "file" {
		settings["sink"] = "os.Create(path) passed to pqarrow.NewFileWriter as is (no bufio: one " +
			"Write call per page header and page); FileWriter.Close closes the file, inside the " +
			"timing; no fsync"
	} else {
		settings["sink"] = "bytes.Buffer (new, empty, per repetition)"
	}
	return map[string]any{"settings": settings, "differences": cfg.differences}, nil
}

// ---------------------------------------------------------------------------
// write

// writeParquet is the timed unit: create the writer, write the record, close
// (footer included), into buf.
func writeParquet(rec arrow.RecordBatch, cfg *variantConfig, sink io.Writer) error {
	fw, err := pqarrow.NewFileWriter(rec.Schema(), sink, cfg.props, cfg.arrowProps)
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// explainWriteError adds what the input has that arrow-go refuses.
func explainWriteError(err error) error {
	if strings.Contains(err.Error(), "lists with non-zero length null components") {
		return refusedError{fmt.Errorf("%w (arrow-go v18.8.0 refuses a list array whose null slots span "+
			"child values, i.e. offsets[i] != offsets[i+1] under a null; the input is valid Arrow "+
			"and pyarrow writes it)", err)}
	}
	return err
}

// refusedError is an input arrow-go refuses to write (a limitation of
// arrow-go, not a failure of the peer): interop skips it.
type refusedError struct{ err error }

func (e refusedError) Error() string { return e.err.Error() }
func (e refusedError) Unwrap() error { return e.err }

// writeFile is the timed unit of the file sink: create the file, write,
// close (footer included, and the file closed by FileWriter.Close).
func writeFile(rec arrow.RecordBatch, cfg *variantConfig, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeParquet(rec, cfg, f); err != nil {
		f.Close()
		return err
	}
	return nil
}

func (p *peer) write(c writeCmd) (any, error) {
	if p.rec == nil {
		return nil, errors.New("no table loaded (send load first)")
	}
	if c.Reps < 1 {
		return nil, fmt.Errorf("reps must be >= 1, got %d", c.Reps)
	}
	if c.UseThreads {
		return nil, unsupportedError{"pqarrow.FileWriter writes the columns of a row group one after another (no use_threads)"}
	}
	if c.Sink != "file" && c.Sink != "mem" {
		return nil, fmt.Errorf("unknown sink %q (file or mem)", c.Sink)
	}
	if c.Sink == "file" && c.Path == "" {
		return nil, errors.New(`the file sink needs "path"`)
	}
	cfg, err := configFor(c.Variant, p.leaves, p.rec.NumRows())
	if err != nil {
		return nil, err
	}
	seconds := make([]float64, c.Reps)
	var n int
	for i := 0; i < c.Reps; i++ {
		last := i == c.Reps-1
		collectBetweenReps() // the previous repetition's garbage is not collected inside this one
		if c.Sink == "file" {
			os.Remove(c.Path)
			t0 := time.Now()
			err := writeFile(p.rec, cfg, c.Path)
			seconds[i] = time.Since(t0).Seconds()
			if err != nil {
				os.Remove(c.Path)
				return nil, fmt.Errorf("write (%s): %w", c.Variant, explainWriteError(err))
			}
			st, err := os.Stat(c.Path)
			if err != nil {
				return nil, err
			}
			n = int(st.Size())
			if last && c.Out != nil && *c.Out != "" {
				if err := os.Rename(c.Path, *c.Out); err != nil {
					return nil, err
				}
			} else {
				os.Remove(c.Path)
			}
			continue
		}
		t0 := time.Now()
		buf := new(bytes.Buffer)
		err := writeParquet(p.rec, cfg, buf)
		seconds[i] = time.Since(t0).Seconds()
		if err != nil {
			return nil, fmt.Errorf("write (%s): %w", c.Variant, explainWriteError(err))
		}
		n = buf.Len()
		if last && c.Out != nil && *c.Out != "" {
			if err := os.WriteFile(*c.Out, buf.Bytes(), 0o644); err != nil {
				return nil, err
			}
		}
	}
	return map[string]any{"seconds": seconds, "bytes": n}, nil
}

// ---------------------------------------------------------------------------
// read

// readerProps: arrow-go's defaults but for its page size guards (64 MiB
// compressed, 256 MiB uncompressed per page), which refuse files that
// pyarrow writes and reads, e.g. string_dictionary's single dictionary page
// of about 160 MB at 1 << 20 rows: raised to the largest size a Parquet page
// header can declare (int32).
func readerProps() *parquet.ReaderProperties {
	props := parquet.NewReaderProperties(mem)
	props.MaxCompressedPageSize = math.MaxInt32
	props.MaxUncompressedPageSize = math.MaxInt32
	return props
}

// writeIPC writes the decoded table as an Arrow IPC file (the read gate
// compares it with pyarrow's reading of the same file).
func writeIPC(path string, tbl arrow.Table) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(tbl.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		f.Close()
		return err
	}
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	for tr.Next() {
		if err := w.Write(tr.RecordBatch()); err != nil {
			w.Close()
			f.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (p *peer) read(path string, reps int, outPath *string) (any, error) {
	if reps < 1 {
		return nil, fmt.Errorf("reps must be >= 1, got %d", reps)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	seconds := make([]float64, reps)
	var rows int64
	for i := 0; i < reps; i++ {
		collectBetweenReps()
		t0 := time.Now()
		rdr, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(readerProps()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{Parallel: false, BatchSize: readBatchSize}, mem)
		if err != nil {
			rdr.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		tbl, err := fr.ReadTable(context.Background())
		seconds[i] = time.Since(t0).Seconds()
		if err != nil {
			rdr.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rows = tbl.NumRows()
		if i == reps-1 && outPath != nil && *outPath != "" {
			if err := writeIPC(*outPath, tbl); err != nil {
				tbl.Release()
				rdr.Close()
				return nil, err
			}
		}
		tbl.Release()
		rdr.Close()
	}
	return map[string]any{"seconds": seconds, "rows": rows}, nil
}

// ---------------------------------------------------------------------------
// interop mode

var interopVariants = []string{"default", "parquet_2", "zstd", "cdc"}

func interopMain(args []string) int {
	fs := flag.NewFlagSet("interop", flag.ContinueOnError)
	inDir := fs.String("input-dir", "", "directory of GROUP.arrow files")
	outDir := fs.String("out-dir", "", "directory for GROUP.VARIANT.parquet files")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *inDir == "" || *outDir == "" || fs.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: quiver-peer-arrow-go interop --input-dir DIR --out-dir OUT")
		return 2
	}
	inputs, err := filepath.Glob(filepath.Join(*inDir, "*.arrow"))
	if err != nil || len(inputs) == 0 {
		fmt.Fprintf(os.Stderr, "interop: no *.arrow files in %s\n", *inDir)
		return 1
	}
	sort.Strings(inputs)
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 1
	}
	failed := 0
	for _, in := range inputs {
		group := strings.TrimSuffix(filepath.Base(in), ".arrow")
		rec, err := loadIPC(in)
		if err != nil {
			fmt.Fprintln(os.Stderr, "interop:", err)
			failed++
			continue
		}
		leaves, err := leavesOf(rec.Schema())
		if err != nil {
			fmt.Fprintf(os.Stderr, "interop: %s: %v\n", group, err)
			rec.Release()
			failed++
			continue
		}
		for _, variant := range interopVariants {
			cfg, err := configFor(variant, leaves, rec.NumRows())
			var unsup unsupportedError
			if errors.As(err, &unsup) {
				fmt.Printf("skip %s.%s: %v\n", group, variant, err)
				continue
			}
			if err == nil {
				var buf bytes.Buffer
				if err = writeParquet(rec, cfg, &buf); err != nil {
					err = explainWriteError(err)
				} else {
					out := filepath.Join(*outDir, group+"."+variant+".parquet")
					if err = os.WriteFile(out, buf.Bytes(), 0o644); err == nil {
						fmt.Printf("wrote %s (%d rows, %d bytes)\n", out, rec.NumRows(), buf.Len())
					}
				}
			}
			var refused refusedError
			if errors.As(err, &refused) {
				fmt.Printf("skip %s.%s: refused by arrow-go: %v\n", group, variant, err)
			} else if err != nil {
				fmt.Fprintf(os.Stderr, "interop: %s.%s: %v\n", group, variant, err)
				failed++
			}
		}
		rec.Release()
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "interop: %d failures\n", failed)
		return 1
	}
	return 0
}
