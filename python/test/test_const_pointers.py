"""`tl.const` pointer arguments (read-only global memory, `!tt.ptr<T, "constant">` in the IR) load like any
pointer, in every access form, and the frontend keeps refusing stores through them."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x: tl.const, w: tl.const, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x_vals = tl.load(x + offs, mask=mask, other=0.0)
    first = tl.load(w)  # a scalar load through a const pointer
    tl.store(out + offs, x_vals * first + tl.load(w + 1 + offs % 2), mask=mask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int32])
def test_loads_through_const_pointers(dtype):
    n = 300
    x = (torch.arange(n) % 32).to(dtype)  # every result below 2^8: exact in every dtype
    w = torch.tensor([3, 5, 7]).to(dtype)
    out = torch.empty(n, dtype=dtype)
    scale_kernel[(triton.cdiv(n, 128), )](x, w, out, n, BLOCK=128)
    expected = x * w[0] + w[1 + torch.arange(n) % 2]
    assert torch.equal(out, expected)


@triton.jit
def const_row_sum_kernel(x: tl.const, out, COLS: tl.constexpr):
    row = tl.program_id(0)
    tl.store(out + row, tl.sum(tl.load(x + row * COLS + tl.arange(0, COLS)), axis=0))


def test_reduction_of_a_const_pointer_load():
    x = torch.randn(8, 64)
    out = torch.empty(8)
    const_row_sum_kernel[(8, )](x, out, COLS=64)
    torch.testing.assert_close(out, x.sum(1))


@triton.jit
def store_through_const_kernel(x: tl.const):
    tl.store(x, 1.0)


def test_store_through_const_pointer_is_refused():
    with pytest.raises(triton.CompilationError, match="constant"):
        store_through_const_kernel[(1, )](torch.zeros(1))
