"""What ``agon.run`` and ``agon.tournament`` return: a :class:`RunResult`, the report
the command printed with the folder it wrote and that folder's CSV files as tables.

A table is a pandas ``DataFrame`` when pandas can be imported, else a list of dicts
(one per row, keyed by column), read with :func:`read_table`. Either way a column whose
every non-empty field is a number holds numbers: ``int`` where every such field is an
integer, ``float`` otherwise (``inf`` and ``-inf`` included); an empty field of a
numeric column is ``None`` in a list of dicts and ``NaN`` in a DataFrame (whose
integer column with an empty field is therefore float, as ``pandas.read_csv`` makes
it). The other columns hold text, an empty field being ``""``; so do the columns that
are text by definition whatever their fields look like (:data:`TEXT_COLUMNS`: a game's
``digest`` is hexadecimal, and may happen to be all digits).

A summary.csv written before its ``text`` column existed (results/README.md) is read
in today's layout: the ``text`` column is added, holding each ``value`` that is a word
(the SPRT's ``decision``, the ratings' ``anchor``), whose ``value`` becomes empty.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

__all__ = ["RunResult", "Tables", "read_table", "TEXT_COLUMNS"]

TEXT_COLUMNS = frozenset({"digest", "moves", "note", "subject", "text"})
"""Columns of agon's files that are text even when every field looks like a number."""

# The numbers agon writes: integers, decimals, scientific notation (p-values), and the
# unbounded Elo of a pairing one side always won.
_INTEGER = re.compile(r"-?[0-9]+\Z")
_NUMBER = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?\Z|-?inf\Z")

Row = Dict[str, Any]
Table = Any
"""A pandas ``DataFrame``, or a ``list`` of row dicts without pandas."""


def _column(values: Sequence[str], name: str) -> List[Any]:
    """The fields of the column ``name`` as numbers where they all are (see the module
    docs), else as they are."""
    present = [v for v in values if v != ""]
    # A column with no field at all (``winner`` when every game was drawn) is an empty
    # numeric one, as pandas reads it.
    if name in TEXT_COLUMNS or not all(_NUMBER.match(v) for v in present):
        return list(values)
    if all(_INTEGER.match(v) for v in present):
        return [int(v) if v != "" else None for v in values]
    return [float(v) if v != "" else None for v in values]


def _old_summary(header: List[str], rows: List[List[str]]) -> None:
    """Brings the rows of a summary.csv without a ``text`` column to today's layout, in
    place: a ``value`` that is not a number moves to the added ``text``."""
    if header[:1] != ["section"] or "value" not in header or "text" in header:
        return
    at = header.index("value")
    header.append("text")
    for row in rows:
        word = row[at] if row[at] != "" and not _NUMBER.match(row[at]) else ""
        if word:
            row[at] = ""
        row.append(word)


def _pandas() -> Any:
    """The pandas module, or ``None`` when it cannot be imported."""
    try:
        import pandas  # noqa: PLC0415 (optional dependency)
    except ImportError:
        return None
    return pandas


def read_table(path: Union[str, Path], frame: Optional[bool] = None) -> Table:
    """Reads one CSV file agon wrote (``.csv``, or ``.csv.gz`` compressed) with its
    numeric columns as numbers (see the module docs).

    ``frame``: ``True`` for a pandas ``DataFrame``, ``False`` for a list of row dicts,
    ``None`` (the default) for a DataFrame when pandas can be imported. A file that is
    not a table (no header) raises ``ValueError`` naming it.
    """
    path = Path(path)
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    records = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    if not records:
        raise ValueError(f"{path} is empty: no header, so not a table")
    header, rows = records[0], records[1:]
    for number, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise ValueError(
                f"{path} line {number}: {len(row)} fields, but the header has {len(header)}"
            )
    if path.name.startswith("summary.csv"):
        _old_summary(header, rows)
    columns = {
        name: _column([row[i] for row in rows], name) for i, name in enumerate(header)
    }
    pandas = _pandas() if frame is not False else None
    if frame and pandas is None:
        raise ImportError("read_table(frame=True) needs pandas (pip install pandas)")
    if pandas is not None:
        data = {name: _series(pandas, name, values) for name, values in columns.items()}
        return pandas.DataFrame(data, columns=header)
    return [dict(zip(header, fields)) for fields in zip(*columns.values())] if rows else []


def _series(pandas: Any, name: str, values: List[Any]) -> Any:
    """One column as a pandas Series: text as ``object``, numbers as ``int64`` or
    ``float64`` (``NaN`` for an empty field)."""
    if name in TEXT_COLUMNS or any(isinstance(v, str) for v in values):
        return pandas.Series(values, dtype=object)
    if any(isinstance(v, float) or v is None for v in values):
        return pandas.Series([float("nan") if v is None else v for v in values], dtype=float)
    return pandas.Series(values, dtype="int64")


def _table_files(folder: Path) -> Dict[str, Path]:
    """The CSV files of ``folder`` by name (the file's name without ``.csv``), a
    compressed ``games.csv.gz`` standing for a missing ``games.csv``."""
    files: Dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file():
            continue
        if path.name.endswith(".csv"):
            files[path.name[: -len(".csv")]] = path
        elif path.name.endswith(".csv.gz"):
            files.setdefault(path.name[: -len(".csv.gz")], path)
    return files


class Tables(Mapping[str, Table]):
    """The CSV files of a folder as tables, by name (``games``, ``summary``, ``meta``,
    ``timings``, ``speed``, a study's ``study`` and ``balance``, a race's ``search``:
    whatever the command wrote). The names are listed when the mapping is made; each
    file is read when first asked for, then kept."""

    def __init__(self, folder: Optional[Path], frame: Optional[bool] = None) -> None:
        self._files = _table_files(folder) if folder is not None else {}
        self._frame = frame
        self._read: Dict[str, Table] = {}

    def __getitem__(self, name: str) -> Table:
        if name not in self._files:
            known = ", ".join(self._files) or "none"
            raise KeyError(f"no table {name!r} (tables: {known})")
        if name not in self._read:
            self._read[name] = read_table(self._files[name], self._frame)
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __repr__(self) -> str:
        return f"Tables({list(self._files)})"


class RunResult:
    """What an ``agon`` command returned to Python: the report it printed (``text``,
    also ``str(result)``, so code that prints the result prints the report), the folder
    it wrote its run, study or report into (``folder``, a ``pathlib.Path``; ``None`` for
    a command that writes no folder: ``games``, ``perft``, ``bench``, a tuning...), and
    that folder's CSV files as tables (``tables``, by name; see :class:`Tables`).

    ``RunResult(folder)`` reads any run folder, e.g. one run of a study::

        run = agon.RunResult("results/study/base/L2-self")
        run.tables["games"]
    """

    def __init__(
        self,
        folder: Optional[Union[str, Path]],
        text: str = "",
        *,
        frame: Optional[bool] = None,
    ) -> None:
        self.folder: Optional[Path] = Path(folder) if folder is not None else None
        self.text: str = text
        self.tables: Tables = Tables(self.folder, frame)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        folder = str(self.folder) if self.folder is not None else None
        return f"RunResult(folder={folder!r}, tables={list(self.tables)})"
