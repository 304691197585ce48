//! The `filter` command of make bench-filter (bench/peers/PROTOCOL.md,
//! "Filtered reads"): a filtered read of a Parquet file held in memory, the
//! way an arrow-rs user who wants every pruning the crate offers writes it.
//!
//! The crate evaluates a `RowFilter` (here one `ArrowPredicateFn` per clause
//! of the predicate, each decoding only its clause's columns) and skips the
//! pages a `RowSelection` leaves out (with the offset index loaded), but it
//! does not choose row groups or pages from statistics itself: that is left
//! to its caller. So this peer does it, inside the timing:
//!   - row groups: `StatisticsConverter` row-group mins/maxes, a row group
//!     kept if every clause may hold in it (a clause: some term may);
//!   - pages: the column index's page mins/maxes and the offset index's
//!     first rows give, per term, the row ranges of the pages that may hold
//!     a match; ranges are united over a clause's terms, intersected over the
//!     clauses, and become the `RowSelection` of the kept row groups.
//! A term `col OP literal` may hold in a row group / page with statistics
//! min..max when: `<` min < lit, `<=` min <= lit, `>` max > lit, `>=` max >=
//! lit, `==` min <= lit <= max; unknown statistics may always hold.
//! The reply counts what this pruning skipped: row groups, and pages of the
//! columns read (projection and filter columns) in the kept row groups that
//! hold no selected row.

use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

use arrow_array::{
    Array, ArrayRef, BooleanArray, Int64Array, RecordBatch, RecordBatchReader, Scalar, StringArray,
};
use arrow_schema::{ArrowError, DataType, SchemaRef};
use bytes::Bytes;
use parquet::arrow::arrow_reader::statistics::StatisticsConverter;
use parquet::arrow::arrow_reader::{
    ArrowPredicate, ArrowPredicateFn, ArrowReaderMetadata, ArrowReaderOptions,
    ParquetRecordBatchReaderBuilder, RowFilter, RowSelection,
};
use parquet::arrow::ProjectionMask;
use parquet::file::metadata::page_index::PageIndexProvider;
use parquet::file::metadata::{PageIndexPolicy, ParquetMetaData};
use serde_json::{json, Value};

use crate::{err, write_ipc, Res, READ_BATCH_SIZE};

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

#[derive(Clone)]
struct Term {
    column: String,
    op: Op,
    literal: Value,
}

type Clause = Vec<Term>;

fn parse_predicate(v: &Value) -> Res<Vec<Clause>> {
    let clauses = v["and"]
        .as_array()
        .ok_or("filter: predicate without \"and\"")?;
    clauses
        .iter()
        .map(|c| {
            c.as_array()
                .ok_or_else(|| "filter: a clause is not a list".to_string())?
                .iter()
                .map(|t| {
                    let column = t[0]
                        .as_str()
                        .ok_or("filter: term without a column")?
                        .to_string();
                    let op = match t[1].as_str().unwrap_or("") {
                        "<" => Op::Lt,
                        "<=" => Op::Le,
                        ">" => Op::Gt,
                        ">=" => Op::Ge,
                        "==" => Op::Eq,
                        o => return Err(format!("filter: unknown op {o:?}")),
                    };
                    Ok(Term {
                        column,
                        op,
                        literal: t[2].clone(),
                    })
                })
                .collect()
        })
        .collect()
}

/// The literal as a one-element array of `dt` (cast from Int64 or Utf8; a
/// date travels as {"date": days}).
fn literal(v: &Value, dt: &DataType) -> Res<ArrayRef> {
    let raw: ArrayRef = if let Some(d) = v.get("date") {
        Arc::new(Int64Array::from(vec![d
            .as_i64()
            .ok_or("filter: bad date literal")?]))
    } else if let Some(i) = v.as_i64() {
        Arc::new(Int64Array::from(vec![i]))
    } else if let Some(s) = v.as_str() {
        Arc::new(StringArray::from(vec![s]))
    } else {
        return Err(format!(
            "filter: literal {v} is neither an integer, a date nor a string"
        ));
    };
    let raw = if matches!(dt, DataType::Date32) {
        arrow_cast::cast(&raw, &DataType::Int32).map_err(err)?
    } else {
        raw
    };
    arrow_cast::cast(&raw, dt).map_err(err)
}

fn compare(
    op: Op,
    left: &dyn arrow_array::Datum,
    right: &dyn arrow_array::Datum,
) -> Result<BooleanArray, ArrowError> {
    use arrow_ord::cmp;
    match op {
        Op::Lt => cmp::lt(left, right),
        Op::Le => cmp::lt_eq(left, right),
        Op::Gt => cmp::gt(left, right),
        Op::Ge => cmp::gt_eq(left, right),
        Op::Eq => cmp::eq(left, right),
    }
}

/// Per entry of `mins`/`maxes` (row groups or pages): whether `op lit` may
/// hold there. Unknown (null) statistics may.
fn may_hold(op: Op, lit: &ArrayRef, mins: &ArrayRef, maxes: &ArrayRef) -> Res<Vec<bool>> {
    let s = Scalar::new(lit.clone());
    let by_min = |o| compare(o, mins, &s).map_err(err);
    let by_max = |o| compare(o, maxes, &s).map_err(err);
    let (a, b) = match op {
        Op::Lt => (by_min(Op::Lt)?, None),
        Op::Le => (by_min(Op::Le)?, None),
        Op::Gt => (by_max(Op::Gt)?, None),
        Op::Ge => (by_max(Op::Ge)?, None),
        Op::Eq => (by_min(Op::Le)?, Some(by_max(Op::Ge)?)),
    };
    Ok((0..a.len())
        .map(|i| {
            let x = a.is_null(i) || a.value(i);
            let y = b.as_ref().map_or(true, |b| b.is_null(i) || b.value(i));
            x && y
        })
        .collect())
}

fn union(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut all: Vec<Range<usize>> = a.iter().chain(b).cloned().collect();
    all.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::new();
    for r in all {
        match out.last_mut() {
            Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

fn intersect(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        let (s, e) = (a[i].start.max(b[j].start), a[i].end.min(b[j].end));
        if s < e {
            out.push(s..e);
        }
        if a[i].end < b[j].end {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

struct Pruned {
    row_groups: Vec<usize>,
    selection: Option<RowSelection>,
    row_groups_skipped: usize,
    pages_skipped: usize,
    pages_total: usize,
}

/// Row groups and pages this peer's pruning keeps (see the module's comment).
fn prune(
    md: &ParquetMetaData,
    schema: &SchemaRef,
    clauses: &[Clause],
    read_cols: &[usize],
) -> Res<Pruned> {
    let descr = md.file_metadata().schema_descr();
    let rgs = md.row_groups();
    let mut keep = vec![true; rgs.len()];
    for clause in clauses {
        let mut any = vec![false; rgs.len()];
        for t in clause {
            let conv = StatisticsConverter::try_new(&t.column, schema, descr).map_err(err)?;
            let lit = literal(&t.literal, conv.arrow_field().data_type())?;
            let mins = conv.row_group_mins(rgs.iter()).map_err(err)?;
            let maxes = conv.row_group_maxes(rgs.iter()).map_err(err)?;
            for (i, m) in may_hold(t.op, &lit, &mins, &maxes)?.into_iter().enumerate() {
                any[i] |= m;
            }
        }
        for (k, a) in keep.iter_mut().zip(any) {
            *k &= a;
        }
    }
    let row_groups: Vec<usize> = (0..rgs.len()).filter(|&i| keep[i]).collect();
    let mut out = Pruned {
        row_groups_skipped: rgs.len() - row_groups.len(),
        row_groups: row_groups.clone(),
        selection: None,
        pages_skipped: 0,
        pages_total: 0,
    };
    let Some(index) = md.page_index() else {
        return Ok(out);
    };
    let index: &dyn PageIndexProvider = index.as_ref();
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut base = 0usize;
    for &rg in &row_groups {
        let rows = rgs[rg].num_rows() as usize;
        let mut sel: Option<Vec<Range<usize>>> = None;
        for clause in clauses {
            let mut any: Vec<Range<usize>> = Vec::new();
            for t in clause {
                let conv = StatisticsConverter::try_new(&t.column, schema, descr).map_err(err)?;
                let col = conv
                    .parquet_column_index()
                    .ok_or("filter: column not in the file")?;
                let (Some(offsets), true) = (
                    index.offset_index(rg, col),
                    index.column_index(rg, col).is_some(),
                ) else {
                    any = vec![0..rows];
                    break;
                };
                let lit = literal(&t.literal, conv.arrow_field().data_type())?;
                let mins = conv
                    .data_page_mins(index, std::iter::once(&rg))
                    .map_err(err)?;
                let maxes = conv
                    .data_page_maxes(index, std::iter::once(&rg))
                    .map_err(err)?;
                let locs = offsets.page_locations();
                let mut mine = Vec::new();
                for (p, m) in may_hold(t.op, &lit, &mins, &maxes)?.into_iter().enumerate() {
                    if m {
                        let s = locs[p].first_row_index as usize;
                        let e = locs.get(p + 1).map_or(rows, |l| l.first_row_index as usize);
                        mine.push(s..e);
                    }
                }
                any = union(&any, &mine);
            }
            sel = Some(match sel {
                None => any,
                Some(s) => intersect(&s, &any),
            });
        }
        let sel = sel.unwrap_or_else(|| vec![0..rows]);
        // Pages of the columns read that hold no selected row.
        for &col in read_cols {
            if let Some(offsets) = index.offset_index(rg, col) {
                let locs = offsets.page_locations();
                out.pages_total += locs.len();
                for (p, l) in locs.iter().enumerate() {
                    let s = l.first_row_index as usize;
                    let e = locs.get(p + 1).map_or(rows, |n| n.first_row_index as usize);
                    if intersect(&sel, &[s..e]).is_empty() {
                        out.pages_skipped += 1;
                    }
                }
            }
        }
        ranges.extend(sel.into_iter().map(|r| r.start + base..r.end + base));
        base += rows;
    }
    out.selection = Some(RowSelection::from_consecutive_ranges(
        ranges.into_iter(),
        base,
    ));
    Ok(out)
}

/// The clause's predicate: its terms evaluated on a batch of its columns,
/// OR-ed (a null is not a match).
fn clause_predicate(
    clause: Clause,
    schema: &SchemaRef,
    mask: ProjectionMask,
) -> Res<Box<dyn ArrowPredicate>> {
    let mut lits = Vec::new();
    for t in &clause {
        let f = schema.field_with_name(&t.column).map_err(err)?;
        lits.push(literal(&t.literal, f.data_type())?);
    }
    Ok(Box::new(ArrowPredicateFn::new(
        mask,
        move |batch: RecordBatch| {
            let mut acc: Option<BooleanArray> = None;
            for (t, lit) in clause.iter().zip(&lits) {
                let col = batch.column_by_name(&t.column).ok_or_else(|| {
                    ArrowError::SchemaError(format!("no column {} in the filter batch", t.column))
                })?;
                let m = compare(t.op, col, &Scalar::new(lit.clone()))?;
                acc = Some(match acc {
                    None => m,
                    Some(a) => arrow_arith::boolean::or_kleene(&a, &m)?,
                });
            }
            Ok(acc.unwrap_or_else(|| BooleanArray::from(vec![true; batch.num_rows()])))
        },
    )))
}

fn filtered_read(
    bytes: &Bytes,
    columns: &[String],
    clauses: &[Clause],
) -> Res<(Vec<RecordBatch>, SchemaRef, Pruned)> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let meta = ArrowReaderMetadata::load(bytes, options).map_err(err)?;
    let schema = meta.schema().clone();
    let md = meta.metadata().clone();
    let descr = md.file_metadata().schema_descr();
    let leaf = |name: &str| -> Res<usize> { schema.index_of(name).map_err(err) };
    let out_idx: Vec<usize> = columns
        .iter()
        .map(|c| leaf(c.as_str()))
        .collect::<Res<_>>()?;
    let mut read_cols: Vec<usize> = out_idx.clone();
    for c in clauses {
        for t in c {
            read_cols.push(leaf(t.column.as_str())?);
        }
    }
    read_cols.sort_unstable();
    read_cols.dedup();
    let pruned = prune(&md, &schema, clauses, &read_cols)?;
    let mut predicates = Vec::new();
    for c in clauses {
        let mut idx: Vec<usize> = c
            .iter()
            .map(|t| leaf(t.column.as_str()))
            .collect::<Res<_>>()?;
        idx.sort_unstable();
        idx.dedup();
        predicates.push(clause_predicate(
            c.clone(),
            &schema,
            ProjectionMask::roots(descr, idx),
        )?);
    }
    let mut builder = ParquetRecordBatchReaderBuilder::new_with_metadata(bytes.clone(), meta)
        .with_batch_size(READ_BATCH_SIZE)
        .with_projection(ProjectionMask::roots(descr, out_idx.iter().cloned()))
        .with_row_groups(pruned.row_groups.clone())
        .with_row_filter(RowFilter::new(predicates));
    if let Some(sel) = &pruned.selection {
        builder = builder.with_row_selection(sel.clone());
    }
    let reader = builder.build().map_err(err)?;
    let read_schema = reader.schema();
    // The reader returns the projection in file order: put it in the order asked.
    let order: Vec<usize> = columns
        .iter()
        .map(|c| read_schema.index_of(c))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let out_schema = Arc::new(read_schema.project(&order).map_err(err)?);
    let mut batches = Vec::new();
    for b in reader {
        batches.push(b.map_err(err)?.project(&order).map_err(err)?);
    }
    Ok((batches, out_schema, pruned))
}

pub fn cmd_filter(c: &Value) -> Res<Value> {
    if c["use_threads"].as_bool().unwrap_or(false) {
        return Err("unsupported: the arrow-rs peer reads on one thread".into());
    }
    if c["mode"].as_str().unwrap_or("pushdown") != "pushdown" {
        return Err("unsupported: mode is the quiver peer's".into());
    }
    let path = c["file"].as_str().ok_or("filter: missing \"file\"")?;
    let reps = c["reps"].as_u64().ok_or("filter: missing \"reps\"")? as usize;
    let columns: Vec<String> = c["columns"]
        .as_array()
        .ok_or("filter: missing \"columns\"")?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| "filter: bad column".to_string())
        })
        .collect::<Res<_>>()?;
    let clauses = parse_predicate(&c["predicate"])?;
    // The file's bytes in memory, outside the timing (the file is on /dev/shm).
    let bytes = Bytes::from(std::fs::read(path).map_err(|e| format!("{path}: {e}"))?);
    let mut seconds = Vec::with_capacity(reps);
    let mut rows = 0usize;
    let mut last = None;
    for i in 0..reps {
        let t0 = Instant::now();
        let (batches, schema, pruned) = filtered_read(&bytes, &columns, &clauses)?;
        seconds.push(t0.elapsed().as_secs_f64());
        rows = batches.iter().map(|b| b.num_rows()).sum();
        if let (Some(o), true) = (c["out"].as_str(), i + 1 == reps) {
            write_ipc(o, &schema, &batches)?;
        }
        last = Some(pruned);
        drop(batches); // untimed
    }
    let p = last.ok_or("filter: reps is 0")?;
    Ok(
        json!({"seconds": seconds, "rows": rows, "source": "memory (the file's bytes, Bytes)",
              "row_groups_pruned": p.row_groups_skipped,
              "row_groups": p.row_groups_skipped + p.row_groups.len(),
              "pages_skipped": p.pages_skipped, "pages": p.pages_total}),
    )
}
