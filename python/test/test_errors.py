"""An op tritium cannot lower is a clear compilation error, never a crash."""

import inspect
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl

from tritium import TritiumCompilationError


@triton.jit
def inline_asm_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(out_ptr + tl.arange(0, BLOCK), y)


def _line_of(fn, text):
    source, first = inspect.getsourcelines(fn.fn)
    for offset, line in enumerate(source):
        if text in line:
            return first + offset
    raise AssertionError(text)


def test_inline_asm_is_a_compilation_error_naming_op_kernel_and_line():
    x = torch.arange(16, dtype=torch.int32)
    out = torch.empty(16, dtype=torch.int32)
    with pytest.raises(triton.CompilationError) as info:
        inline_asm_kernel[(1, )](x, out, BLOCK=16)
    error = info.value
    assert isinstance(error, TritiumCompilationError)
    assert error.op == "tt.elementwise_inline_asm"
    assert error.kernel == "inline_asm_kernel"
    assert error.lineno == _line_of(inline_asm_kernel, "tl.inline_asm_elementwise")
    message = str(error)
    assert "tt.elementwise_inline_asm" in message and "inline_asm_kernel" in message
    assert "tl.inline_asm_elementwise(" in message, "the message shows the kernel's source line"
    assert "What to do" in message


def test_compilation_error_does_not_crash_the_process(tmp_path):
    code = textwrap.dedent("""
        import torch, triton, triton.language as tl
        @triton.jit
        def k(x_ptr, BLOCK: tl.constexpr):
            x = tl.load(x_ptr + tl.arange(0, BLOCK))
            y = tl.inline_asm_elementwise("nop", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
            tl.store(x_ptr + tl.arange(0, BLOCK), y)
        try:
            k[(1,)](torch.zeros(4, dtype=torch.int32), BLOCK=4)
        except triton.CompilationError as e:
            print("caught", e.op)
    """)
    path = tmp_path / "tritium_error_probe.py"
    path.write_text(code)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "caught tt.elementwise_inline_asm"


def test_compilation_error_pickles():
    error = TritiumCompilationError("k", "linalg", "f.py:3:4: error: tritium cannot lower 'tt.gather' yet")
    restored = pickle.loads(pickle.dumps(error))
    assert restored.op == "tt.gather" and restored.lineno == 3
