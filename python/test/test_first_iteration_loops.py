"""Loops whose body tests for their first iteration (Inductor's Welford step, `roffset == 0`) run that
iteration apart: same results for every trip count, none included, and for masked last tiles."""

import pytest
import torch
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers


@triton.jit
def first_iteration_marks_kernel(out_ptr, stop, START: tl.constexpr, STEP: tl.constexpr):
    # Writes 1 at the first iteration's index, 2 at the others'; nothing when the loop runs no iteration.
    for i in range(START, stop, STEP):
        if i == START:
            tl.store(out_ptr + i, 1)
        else:
            tl.store(out_ptr + i, 2)


@triton.jit
def first_iteration_from_zero_kernel(out_ptr, stop, STEP: tl.constexpr):
    acc = tl.zeros([4], tl.int32)
    for i in tl.range(0, stop, STEP):
        acc = tl.where(i == 0, acc + 100, acc + 1)
    tl.store(out_ptr + tl.arange(0, 4), acc)


@triton.jit
def welford_columns_kernel(x_ptr, mean_ptr, var_ptr, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0 = r0_offset + r0_base
        mask = (r0 < r0_numel) & xmask
        v = tl.load(x_ptr + (xindex + xnumel * r0), mask, other=0.0)
        mean_next, m2_next, weight_next = triton_helpers.welford_reduce(v, mean, m2, weight, r0_offset == 0)
        mean = tl.where(mask, mean_next, mean)
        m2 = tl.where(mask, m2_next, m2)
        weight = tl.where(mask, weight_next, weight)
    row_mean, row_m2, row_weight = triton_helpers.welford(mean, m2, weight, 1)
    tl.store(mean_ptr + xindex, row_mean[:, None], xmask)
    tl.store(var_ptr + xindex, (row_m2 / row_weight)[:, None], xmask)


@pytest.mark.parametrize("start,stop,step", [(0, 0, 1), (3, 3, 2), (5, 2, 1), (0, 3, 4), (2, 3, 1), (0, 9, 1),
                                             (3, 20, 4)])
def test_first_iteration_runs_once_and_only_when_the_loop_runs(start, stop, step):
    out = torch.zeros(24, dtype=torch.int32)
    kernel = first_iteration_marks_kernel[(1, )](out, stop, START=start, STEP=step)
    assert kernel.asm["linalg"].count("scf.for") == 2, "the first iteration runs apart"
    expected = torch.zeros(24, dtype=torch.int32)
    for n, i in enumerate(range(start, stop, step)):
        expected[i] = 1 if n == 0 else 2
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize("stop", [0, 3, 4, 5, 17])  # not 1: Triton makes an argument of 1 a constant
def test_loop_carried_values_through_a_peeled_first_iteration(stop):
    out = torch.empty(4, dtype=torch.int32)
    kernel = first_iteration_from_zero_kernel[(1, )](out, stop, STEP=4)
    assert kernel.asm["linalg"].count("scf.for") == 2, "the first iteration runs apart"
    iterations = len(range(0, stop, 4))
    assert out.tolist() == [100 + (iterations - 1) if iterations else 0] * 4


@pytest.mark.parametrize("rows,cols", [(2048, 64), (1000, 64), (37, 100), (3, 8), (1, 64)])
def test_welford_over_columns_matches_torch(rows, cols):
    x = torch.randn(rows, cols) * 3 + 1
    mean, var = torch.empty(cols), torch.empty(cols)
    welford_columns_kernel[(triton.cdiv(cols, 64), )](x, mean, var, cols, rows, XBLOCK=64, R0_BLOCK=4)
    expected_var, expected_mean = torch.var_mean(x.double(), 0, correction=0)
    torch.testing.assert_close(mean.double(), expected_mean, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(var.double(), expected_var, rtol=1e-4, atol=1e-5)
