"""Errors tritium raises to users."""

import linecache
import re

from triton.compiler.errors import CompilationError

_DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$")
_OP_NAME = re.compile(r"'((?:tt|ttg|arith|math|scf|cf)\.[a-z_.]+)'")


class TritiumCompilationError(CompilationError):
    """A kernel tritium cannot compile. A subclass of Triton's CompilationError, so code that
    catches Triton's compilation errors catches this too.

    Attributes: kernel, op (the IR operation, when known), filename, lineno, diagnostics.
    """

    def __init__(self, kernel, stage, diagnostics):
        self.kernel = kernel
        self.stage = stage
        self.diagnostics = diagnostics.strip()
        self.filename = self.lineno = self.op = None
        first = None
        for line in self.diagnostics.splitlines():
            match = _DIAGNOSTIC.match(line)
            if match:
                first = match
                break
        if first:
            self.filename, self.lineno = first["file"], int(first["line"])
            op = _OP_NAME.search(first["message"])
            self.op = op.group(1) if op else None
        message = self._format(first)
        # CompilationError's constructor expects an AST node; we have source locations instead.
        Exception.__init__(self, message)
        self.error_message = message
        self.src = None
        self.node = None

    def _format(self, first):
        where = f" at {self.filename}:{self.lineno}" if first else ""
        what = f" operation '{self.op}'" if self.op else ""
        lines = [f"tritium cannot compile kernel '{self.kernel}'{what}{where} ({self.stage} stage)."]
        if first:
            source = linecache.getline(self.filename, self.lineno).rstrip()
            if source:
                lines.append(f"    {self.lineno} | {source}")
        lines.append(self.diagnostics)
        if self.op == "tt.elementwise_inline_asm":
            lines.append("What to do: write this computation with tl operations for the CPU "
                         "(inline assembly only runs on the GPU it was written for).")
        elif self.op:
            lines.append("What to do: rewrite this line without that operation, or run the kernel with "
                         "TRITON_INTERPRET=1 until tritium lowers it.")
        else:
            lines.append("What to do: please report this with the kernel's source; "
                         "TRITON_INTERPRET=1 runs the kernel meanwhile.")
        return "\n".join(lines)

    def __str__(self):
        return self.error_message

    def __reduce__(self):
        return (type(self), (self.kernel, self.stage, self.diagnostics))
