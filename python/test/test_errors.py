"""An op tritium cannot lower yet is a clear compilation error, never a crash."""

import inspect
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl

from tritium import TritiumCompilationError


@triton.jit
def histogram_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    h = tl.histogram(x, BINS)
    tl.store(out_ptr + tl.arange(0, BINS), h)


def _line_of(fn, text):
    source, first = inspect.getsourcelines(fn.fn)
    for offset, line in enumerate(source):
        if text in line:
            return first + offset
    raise AssertionError(text)


def test_unlowered_op_is_a_compilation_error_naming_op_kernel_and_line():
    x = torch.randint(0, 8, (16, ), dtype=torch.int32)
    out = torch.empty(8, dtype=torch.int32)
    with pytest.raises(triton.CompilationError) as info:
        histogram_kernel[(1, )](x, out, BLOCK=16, BINS=8)
    error = info.value
    assert isinstance(error, TritiumCompilationError)
    assert error.op == "tt.histogram"
    assert error.kernel == "histogram_kernel"
    assert error.lineno == _line_of(histogram_kernel, "tl.histogram")
    message = str(error)
    assert "tt.histogram" in message and "histogram_kernel" in message
    assert "tl.histogram(x, BINS)" in message, "the message shows the kernel's source line"
    assert "What to do" in message


def test_compilation_error_does_not_crash_the_process():
    code = textwrap.dedent("""
        import torch, triton, triton.language as tl
        @triton.jit
        def k(x_ptr, BLOCK: tl.constexpr):
            tl.atomic_add(x_ptr + tl.arange(0, BLOCK), 1.0)
        try:
            k[(1,)](torch.zeros(4), BLOCK=4)
        except triton.CompilationError as e:
            print("caught", e.op)
    """)
    path = "tritium_error_probe.py"
    with open(path, "w") as f:
        f.write(code)
    try:
        out = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120)
    finally:
        import os
        os.remove(path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "caught tt.atomic_rmw"


def test_compilation_error_pickles():
    import pickle
    error = TritiumCompilationError("k", "linalg", "f.py:3:4: error: tritium cannot lower 'tt.gather' yet")
    restored = pickle.loads(pickle.dumps(error))
    assert restored.op == "tt.gather" and restored.lineno == 3
