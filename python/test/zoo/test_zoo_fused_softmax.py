"""Zoo: fused row softmax, one program per row, and a persistent variant whose programs stride over rows."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def zoo_softmax_row_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    valid = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=valid, other=-float("inf")).to(tl.float32)
    shifted = x - tl.max(x, axis=0)
    e = tl.exp(shifted)
    y = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y.to(out_ptr.dtype.element_ty), mask=valid)


@triton.jit
def zoo_softmax_persistent_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr,
                                  NUM_STAGES: tl.constexpr):
    first = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    valid = cols < n_cols
    for row in tl.range(first, n_rows, step, num_stages=NUM_STAGES):
        x = tl.load(in_ptr + row * in_stride + cols, mask=valid, other=-float("inf")).to(tl.float32)
        shifted = x - tl.max(x, axis=0)
        e = tl.exp(shifted)
        y = e / tl.sum(e, axis=0)
        tl.store(out_ptr + row * out_stride + cols, y.to(out_ptr.dtype.element_ty), mask=valid)


def softmax_rows(x):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    zoo_softmax_row_kernel[(n_rows, )](out, x, x.stride(0), out.stride(0), n_cols,
                                       BLOCK=triton.next_power_of_2(n_cols))
    return out


def softmax_persistent(x, programs, num_stages):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    zoo_softmax_persistent_kernel[(programs, )](out, x, x.stride(0), out.stride(0), n_rows, n_cols,
                                                BLOCK=triton.next_power_of_2(n_cols), NUM_STAGES=num_stages)
    return out


def reference(x):
    return torch.softmax(x.float(), dim=1).to(x.dtype)


def tol(dtype):
    return dict(rtol=1e-5, atol=1e-6) if dtype == torch.float32 else dict(rtol=1e-2, atol=1e-3)


DTYPES = [torch.float32, torch.float16]
SHAPES = [(1, 1), (5, 3), (16, 100), (33, 781), (7, 1024), (64, 129)]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_softmax_one_program_per_row(shape, dtype):
    x = (torch.randn(shape) * 3).to(dtype)
    out = softmax_rows(x)
    torch.testing.assert_close(out, reference(x), **tol(dtype), msg=lambda m: f"row softmax {shape} {dtype}: {m}")


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("programs,num_stages", [(1, 1), (3, 2), (4, 3)])
def test_softmax_persistent(shape, dtype, programs, num_stages):
    x = (torch.randn(shape) * 3).to(dtype)
    out = softmax_persistent(x, programs, num_stages)
    torch.testing.assert_close(out, reference(x), **tol(dtype),
                               msg=lambda m: f"persistent softmax {shape} {dtype} programs={programs}: {m}")


def test_softmax_persistent_more_programs_than_rows():
    # programs past the last row run zero iterations and must not write anything
    x = torch.randn(3, 50)
    out = torch.full_like(x, float("nan"))
    zoo_softmax_persistent_kernel[(8, )](out, x, x.stride(0), out.stride(0), 3, 50, BLOCK=64, NUM_STAGES=2)
    torch.testing.assert_close(out, reference(x), **tol(torch.float32))


def test_softmax_strided_input_and_output():
    big_in = torch.randn(12, 300)
    big_out = torch.full((12, 400), -1.0)
    x = big_in[:, :200]
    out = big_out[:, :200]
    zoo_softmax_persistent_kernel[(2, )](out, x, x.stride(0), out.stride(0), 12, 200, BLOCK=256, NUM_STAGES=2)
    torch.testing.assert_close(out, reference(x), **tol(torch.float32))
    assert torch.all(big_out[:, 200:] == -1.0), "kernel wrote outside the 200 columns of each output row"


def test_softmax_rows_sum_to_one_with_large_values():
    x = torch.tensor([[1e4, -1e4, 0.0, 88.0, 89.0], [-300.0] * 5, [0.0] * 5])
    out = softmax_rows(x)
    torch.testing.assert_close(out, reference(x), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(out.sum(1), torch.ones(3), rtol=1e-5, atol=1e-6)
