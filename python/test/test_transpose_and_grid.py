"""A strided 2-D transpose copy, and a 2-D grid using program_id(1) and num_programs."""

import pytest
import torch
import triton
import triton.language as tl

from conftest import random_tensor


@triton.jit
def transpose_kernel(in_ptr, out_ptr, M, N, stride_im, stride_in, stride_om, stride_on,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(in_ptr + rows[:, None] * stride_im + cols[None, :] * stride_in, mask=mask)
    tl.store(out_ptr + cols[None, :] * stride_om + rows[:, None] * stride_on, x, mask=mask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int32, torch.int8, torch.float64])
@pytest.mark.parametrize("M,N", [(1, 1), (32, 32), (45, 70), (128, 3)])
def test_transpose_copy(dtype, M, N):
    x = random_tensor((M, N), dtype)
    out = torch.empty((N, M), dtype=dtype)
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))
    transpose_kernel[grid](x, out, M, N, x.stride(0), x.stride(1), out.stride(0), out.stride(1), BLOCK_M=16,
                           BLOCK_N=32)
    torch.testing.assert_close(out, x.t())


def test_transpose_of_strided_view():
    base = torch.randn(100, 100)
    x = base[::3, 5::2]
    out = torch.empty(x.shape[1], x.shape[0])
    M, N = x.shape
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))
    transpose_kernel[grid](x, out, M, N, x.stride(0), x.stride(1), out.stride(0), out.stride(1), BLOCK_M=16,
                           BLOCK_N=32)
    torch.testing.assert_close(out, x.t())


@triton.jit
def grid_ids_kernel(out_ptr, BLOCK: tl.constexpr):
    pid_x = tl.program_id(0)
    pid_y = tl.program_id(1)
    pid_z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    linear = (pid_z * ny + pid_y) * nx + pid_x
    lanes = tl.arange(0, BLOCK)
    values = tl.where(lanes == 0, pid_x, tl.where(lanes == 1, pid_y, tl.where(lanes == 2, pid_z, nx * 100 + ny * 10 + nz)))
    tl.store(out_ptr + linear * BLOCK + lanes, values)


@pytest.mark.parametrize("grid", [(1, 1, 1), (7, 5, 1), (3, 4, 2), (64, 1, 1), (1, 33, 1)])
def test_grid_program_ids_and_sizes(grid):
    nx, ny, nz = grid
    out = torch.full((nx * ny * nz, 4), -1, dtype=torch.int32)
    grid_ids_kernel[grid](out, BLOCK=4)
    expected = torch.tensor([[x, y, z, nx * 100 + ny * 10 + nz] for z in range(nz) for y in range(ny) for x in range(nx)],
                            dtype=torch.int32)
    torch.testing.assert_close(out, expected)


@triton.jit
def row_sum_2d_grid_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Columns of blocks on axis 1, programs stride over row blocks using num_programs.
    pid_n = tl.program_id(1)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    for start in range(tl.program_id(0) * BLOCK_M, M, tl.num_programs(0) * BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
        tl.store(out_ptr + rows[:, None] * N + cols[None, :], x * 2 + 1, mask=mask)


def test_grid_stride_loop_over_num_programs():
    x = torch.randn(300, 70)
    out = torch.zeros_like(x)
    row_sum_2d_grid_kernel[(3, triton.cdiv(70, 32))](x, out, 300, 70, BLOCK_M=16, BLOCK_N=32)
    torch.testing.assert_close(out, x * 2 + 1)
