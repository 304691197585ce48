"""quiver.csv: pyarrow.csv's names for Quiver's CSV reader
(quiver.csv.read_csv is quiver.read_csv)."""

from quiver._csv import ConvertOptions, ParseOptions, ReadOptions, read_csv

__all__ = ["ReadOptions", "ParseOptions", "ConvertOptions", "read_csv"]
