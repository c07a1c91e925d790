"""Fused row softmax, one row per program."""

import pytest
import torch
import triton
import triton.language as tl

from conftest import tolerances


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    out = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(rows, )](out, x, x.stride(0), out.stride(0), cols, BLOCK=triton.next_power_of_2(cols))
    return out


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (64, 128), (37, 1000), (128, 781), (4, 4096)])
def test_softmax(dtype, shape):
    x = (torch.randn(shape) * 4).to(dtype)
    expected = torch.softmax(x.float(), dim=1).to(dtype)
    rtol, atol = tolerances(dtype)
    torch.testing.assert_close(softmax(x), expected, rtol=max(rtol, 1e-5), atol=max(atol, 1e-6))


def test_softmax_strided_rows():
    x = torch.randn(32, 300)[:, :200]
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=1))


def test_softmax_extreme_values():
    x = torch.tensor([[1e4, -1e4, 0.0, 88.0], [-100.0, -100.0, -100.0, -100.0]])
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=1))
