"""The Python examples of the documentation, run as written.

- Every fenced ```python block of README.md and python/README.md runs, each in a fresh
  namespace in a temporary working directory (so that the folders it writes go there).
- The examples in the docstrings of the ``agon`` package (``agon``, ``agon.openspiel``
  and the native classes and functions of ``agon._agon``): by the package's convention,
  an example is a reStructuredText literal block, a paragraph ending in ``::`` followed
  by an indented block, and every such block is Python code, run the same way; the
  ``>>>`` examples, if any, run with ``doctest``.

An example that needs OpenSpiel runs when OpenSpiel is installed (in CI it always is, and
its absence fails there); elsewhere it is skipped with that reason, never silently.
"""

import doctest
import inspect
import os
import re
import textwrap
from pathlib import Path

import pytest

import agon

ROOT = Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "python" / "README.md"]

try:
    import pyspiel  # noqa: F401

    HAVE_OPENSPIEL = True
except ImportError:
    HAVE_OPENSPIEL = False


def fenced_python_blocks(path):
    """`(first line number, code)` of each ```python block of the Markdown file `path`."""
    blocks = []
    lines = path.read_text().splitlines()
    k = 0
    while k < len(lines):
        if lines[k].strip() == "```python":
            start = k + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            blocks.append((start + 1, "\n".join(lines[start:end])))
            k = end
        k += 1
    return blocks


def literal_blocks(doc):
    """The literal blocks (a paragraph ending in ``::``, then an indented block) of the
    docstring `doc`, dedented."""
    lines = inspect.cleandoc(doc).splitlines()
    blocks = []
    for k, line in enumerate(lines):
        if not line.rstrip().endswith("::"):
            continue
        indent = len(line) - len(line.lstrip())
        body = []
        j = k + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
            body.append(lines[j])
            j += 1
        code = textwrap.dedent("\n".join(body)).strip("\n")
        if code:
            blocks.append(code)
    return blocks


def documented_modules():
    """The package's modules whose docstrings are checked: `agon.openspiel` only where
    OpenSpiel is installed."""
    modules = [agon, agon._agon]
    if HAVE_OPENSPIEL:
        import importlib

        modules.append(importlib.import_module("agon.openspiel"))
    return modules


def docstrings(module):
    """`(name, docstring)` of the module and of every class, function and method it
    defines."""
    found = [(module.__name__, module.__doc__ or "")]
    for name, value in vars(module).items():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(value) or callable(value):
            found.append((f"{module.__name__}.{name}", value.__doc__ or ""))
        if inspect.isclass(value):
            for member, attribute in vars(value).items():
                doc = getattr(attribute, "__doc__", None)
                if doc and (callable(attribute) or isinstance(attribute, property)):
                    found.append((f"{module.__name__}.{name}.{member}", doc))
    return found


def docstring_examples():
    examples = []
    for module in documented_modules():
        for name, doc in docstrings(module):
            for k, code in enumerate(literal_blocks(doc)):
                examples.append(pytest.param(code, id=f"{name}[{k}]"))
    return examples


def run_example(code, where, tmp_path, monkeypatch):
    """Runs `code` in a fresh namespace in `tmp_path`; skips it, saying so, where it needs
    OpenSpiel and OpenSpiel is not installed (never in CI)."""
    if re.search(r"\b(pyspiel|open_spiel|agon\.openspiel)\b", code) and not HAVE_OPENSPIEL:
        if os.environ.get("CI"):
            pytest.fail(f"{where} needs OpenSpiel, which CI installs")
        pytest.skip(f"{where} needs OpenSpiel, which is not installed")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, where, "exec"), {"__name__": "__example__"})


@pytest.mark.parametrize(
    "path,line,code",
    [
        pytest.param(path, line, code, id=f"{path.relative_to(ROOT)}:{line}")
        for path in READMES
        for line, code in fenced_python_blocks(path)
    ],
)
def test_a_python_block_of_the_readmes_runs(path, line, code, tmp_path, monkeypatch):
    run_example(code, f"{path.relative_to(ROOT)}:{line}", tmp_path, monkeypatch)


@pytest.mark.parametrize("code", docstring_examples())
def test_a_docstring_example_runs(code, request, tmp_path, monkeypatch):
    run_example(code, request.node.callspec.id, tmp_path, monkeypatch)


@pytest.mark.parametrize("module", documented_modules(), ids=lambda m: m.__name__)
def test_the_doctest_examples_pass(module):
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert results.failed == 0


def test_the_examples_are_found():
    # The collection itself is checked, so that a change of format cannot empty it.
    assert len(fenced_python_blocks(ROOT / "README.md")) >= 2
    assert [code for code in literal_blocks(agon.__doc__) if "agon.load_game" in code]
    assert literal_blocks("Run::\n\n    x = 1\n    y = 2\n\nAfter.") == ["x = 1\ny = 2"]
    assert literal_blocks("Not code: it ends in one colon:\n\n    x = 1\n") == []
