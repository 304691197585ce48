//! The `kernel` command of `make bench-compute` (bench/peers/PROTOCOL.md,
//! "Compute kernels"): one arrow-rs kernel call timed in a loop on columns
//! of an Arrow IPC file.
//!
//!     {"cmd": "kernel", "name": "add", "input": "PATH.arrow", "columns": ["a", "b"],
//!      "args": {...}, "reps": R, "iters": K, "empty": false, "out": null | "PATH.arrow"}
//!     -> {"seconds": [R floats: seconds per call], "iters": K}
//!
//! The input file is read once (the last one is kept) and its columns are
//! prepared outside the timing (a filter context is built there, for
//! `filter_context`). Each of the R timings runs the call K times; a call is
//! the kernel producing its materialized result, which is dropped inside
//! the loop (as criterion's `b.iter` does). `empty` runs the same call on
//! zero-row slices of the columns (the call floor). `out`: the result of
//! one more call (untimed) as an IPC file with one column `result` (an
//! aggregate as one row), for the driver's correctness gate.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use arrow_arith::aggregate::{min_string, sum};
use arrow_array::cast::AsArray;
use arrow_array::types::Float32Type;
use arrow_array::{Array, ArrayRef, BooleanArray, Float32Array, RecordBatch, Scalar, StringArray};
use arrow_schema::{DataType, Field, Schema};
use serde_json::{json, Value};

use crate::{err, Res};

/// The input file held between commands: the last one loaded.
#[derive(Default)]
pub struct Inputs {
    path: Option<String>,
    batch: Option<RecordBatch>,
}

impl Inputs {
    fn load(&mut self, path: &str) -> Res<&RecordBatch> {
        if self.path.as_deref() != Some(path) {
            self.batch = None; // free the previous input first
            self.batch = Some(crate::load_ipc(Path::new(path))?);
            self.path = Some(path.to_string());
        }
        Ok(self.batch.as_ref().unwrap())
    }
}

/// One prepared call: `want` asks for the result as an array (the gate's
/// run); timed calls pass false, and an aggregate then returns None after
/// computing its value (black_box keeps it).
type Call<'a> = Box<dyn FnMut(bool) -> Res<Option<ArrayRef>> + 'a>;

fn cast_type(name: &str) -> Res<DataType> {
    Ok(match name {
        "int8" => DataType::Int8,
        "int16" => DataType::Int16,
        "int32" => DataType::Int32,
        "int64" => DataType::Int64,
        "uint8" => DataType::UInt8,
        "uint16" => DataType::UInt16,
        "uint32" => DataType::UInt32,
        "uint64" => DataType::UInt64,
        "float32" => DataType::Float32,
        "float64" => DataType::Float64,
        other => return Err(format!("cast: unknown target type {other:?}")),
    })
}

fn string_arg<'v>(args: &'v Value, key: &str) -> Res<&'v str> {
    args[key]
        .as_str()
        .ok_or_else(|| format!("missing string argument {key:?}"))
}

/// The call of kernel `name` on `cols` (PROTOCOL.md lists the kernels and
/// what each peer calls).
fn prepare<'a>(name: &str, cols: &'a [ArrayRef], args: &Value) -> Res<Call<'a>> {
    let want_cols = |n: usize| -> Res<()> {
        if cols.len() == n {
            Ok(())
        } else {
            Err(format!(
                "kernel {name}: {n} columns expected, {} given",
                cols.len()
            ))
        }
    };
    let call: Call<'a> = match name {
        "add" => {
            want_cols(2)?;
            Box::new(move |_| {
                array(arrow_arith::numeric::add_wrapping(&cols[0], &cols[1]).map_err(err)?)
            })
        }
        "subtract" => {
            want_cols(2)?;
            Box::new(move |_| {
                array(arrow_arith::numeric::sub_wrapping(&cols[0], &cols[1]).map_err(err)?)
            })
        }
        "and" | "or" => {
            want_cols(2)?;
            let (a, b) = (cols[0].as_boolean(), cols[1].as_boolean());
            if name == "and" {
                Box::new(move |_| boolean(arrow_arith::boolean::and(a, b).map_err(err)?))
            } else {
                Box::new(move |_| boolean(arrow_arith::boolean::or(a, b).map_err(err)?))
            }
        }
        "cast" => {
            want_cols(1)?;
            let to = cast_type(string_arg(args, "to")?)?;
            // arrow-rs's default CastOptions: safe = true (a value that does
            // not fit becomes null; the inputs hold none).
            Box::new(move |_| array(arrow_cast::cast::cast(&cols[0], &to).map_err(err)?))
        }
        "concat" => {
            want_cols(2)?;
            let parts = [cols[0].as_ref(), cols[1].as_ref()];
            Box::new(move |_| array(arrow_select::concat::concat(&parts).map_err(err)?))
        }
        "equal" => {
            want_cols(2)?;
            Box::new(move |_| boolean(arrow_ord::cmp::eq(&cols[0], &cols[1]).map_err(err)?))
        }
        "array_equals" => {
            want_cols(2)?;
            value_call(
                move || cols[0].as_ref() == cols[1].as_ref(),
                |eq| Arc::new(BooleanArray::from(vec![eq])),
            )
        }
        "filter" => {
            want_cols(2)?;
            let mask = cols[1].as_boolean();
            Box::new(move |_| array(arrow_select::filter::filter(&cols[0], mask).map_err(err)?))
        }
        "filter_context" => {
            want_cols(2)?;
            // Built once, outside the timing (arrow-rs's benches "filter context").
            let predicate = arrow_select::filter::FilterBuilder::new(cols[1].as_boolean())
                .optimize()
                .build();
            Box::new(move |_| array(predicate.filter(&cols[0]).map_err(err)?))
        }
        "like" | "not_like" => {
            want_cols(1)?;
            let pattern = string_arg(args, "pattern")?.to_string();
            let not = name == "not_like";
            Box::new(move |_| {
                // The pattern scalar is made inside the call, as arrow-rs's
                // comparison_kernels bench does.
                let p: Scalar<StringArray> = StringArray::new_scalar(pattern.as_str());
                let r = if not {
                    arrow_string::like::nlike(&cols[0], &p)
                } else {
                    arrow_string::like::like(&cols[0], &p)
                };
                boolean(r.map_err(err)?)
            })
        }
        "min" => {
            want_cols(1)?;
            let s = cols[0].as_string::<i32>();
            value_call(
                move || min_string(s),
                |m| Arc::new(StringArray::from(vec![m])),
            )
        }
        "sum" => {
            let a = cols.first().ok_or("kernel sum: 1 column expected")?;
            let a = a.as_primitive::<Float32Type>();
            value_call(move || sum(a), |v| Arc::new(Float32Array::from(vec![v])))
        }
        "take" => {
            want_cols(2)?;
            Box::new(move |_| {
                array(arrow_select::take::take(&cols[0], &cols[1], None).map_err(err)?)
            })
        }
        "is_in" => {
            return Err(
                "unsupported: the arrow crates have no is_in kernel (DataFusion's \
                        InList is outside them)"
                    .to_string(),
            )
        }
        other => return Err(format!("unsupported: unknown kernel {other:?}")),
    };
    Ok(call)
}

/// A call whose result is one value (an aggregate): computed and kept
/// (black_box) in a timed call, a one-row array only when wanted.
fn value_call<'a, T: 'a>(
    value: impl Fn() -> T + 'a,
    to_array: impl Fn(T) -> ArrayRef + 'a,
) -> Call<'a> {
    Box::new(move |want| {
        let v = black_box(value());
        Ok(if want { Some(to_array(v)) } else { None })
    })
}

fn array(r: ArrayRef) -> Res<Option<ArrayRef>> {
    Ok(Some(r))
}

fn boolean(r: BooleanArray) -> Res<Option<ArrayRef>> {
    Ok(Some(Arc::new(r)))
}

fn write_result(path: &str, result: &ArrayRef) -> Res<()> {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "result",
        result.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![result.clone()]).map_err(err)?;
    crate::write_ipc(path, &schema, &[batch])
}

pub fn cmd_kernel(inputs: &mut Inputs, c: &Value) -> Res<Value> {
    let name = c["name"].as_str().ok_or("kernel: missing \"name\"")?;
    let input = c["input"].as_str().ok_or("kernel: missing \"input\"")?;
    let reps = c["reps"].as_u64().ok_or("kernel: missing \"reps\"")? as usize;
    let iters = c["iters"].as_u64().unwrap_or(1).max(1) as usize;
    let empty = c["empty"].as_bool().unwrap_or(false);
    let batch = inputs.load(input)?;
    let mut cols = Vec::new();
    for col in c["columns"]
        .as_array()
        .ok_or("kernel: missing \"columns\"")?
    {
        let col = col
            .as_str()
            .ok_or("kernel: a column name is not a string")?;
        let a = batch
            .column_by_name(col)
            .ok_or_else(|| format!("{input}: no column {col:?}"))?;
        cols.push(if empty { a.slice(0, 0) } else { a.clone() });
    }
    let mut call = prepare(name, &cols, &c["args"])?;
    let mut seconds = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t0 = Instant::now();
        for _ in 0..iters {
            drop(black_box(call(false)?));
        }
        seconds.push(t0.elapsed().as_secs_f64() / iters as f64);
    }
    if let Some(out) = c["out"].as_str() {
        let result = call(true)?.ok_or("kernel: no result")?;
        write_result(out, &result)?;
    }
    Ok(json!({"seconds": seconds, "iters": iters}))
}
