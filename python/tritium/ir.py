"""TTIR and TTGIR text from Python: parse (verified), print, and run pass pipelines.

    from tritium import ir
    module = ir.parse(open("kernel.ttgir").read())      # raises ir.IRError(line, column, message)
    print(module)                                         # the module, printed back
    lowered = ir.run_pipeline(module, "builtin.module(convert-triton-to-linalg,canonicalize)")

Any pass tritium-opt knows can appear in a pipeline.
"""

import re

from . import _C

_LOCATION = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.M)


class IRError(ValueError):
    """Invalid IR or a failed pipeline; `line` and `column` locate the first error when known."""

    def __init__(self, diagnostics):
        match = _LOCATION.search(diagnostics)
        self.line = int(match["line"]) if match else None
        self.column = int(match["col"]) if match else None
        self.message = match["message"] if match else diagnostics.strip()
        self.diagnostics = diagnostics.strip()
        super().__init__(self.diagnostics)


class Module:
    """A verified module, kept as its text (the interface between tritium and triton)."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<tritium.ir.Module, {self.text.count(chr(10))} lines>"


def parse(text):
    """Parse and verify TTIR, TTGIR or any IR tritium understands."""
    try:
        return Module(_C.parse_and_print(str(text), with_locations=True))
    except _C.CompilationFailure as failure:
        raise IRError(str(failure)) from None


def print_module(module, locations=False):
    """The module's text, with `loc(...)` locations or without."""
    try:
        return _C.parse_and_print(str(module), with_locations=locations)
    except _C.CompilationFailure as failure:
        raise IRError(str(failure)) from None


def run_pipeline(module, pipeline):
    """Run a textual pass pipeline, e.g. "builtin.module(canonicalize,cse)"."""
    try:
        return Module(_C.run_pass_pipeline(str(module), pipeline))
    except _C.CompilationFailure as failure:
        raise IRError(str(failure)) from None
