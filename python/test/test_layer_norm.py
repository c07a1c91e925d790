"""Layer-norm forward with column loops, as in Triton's tutorial."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=mask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("M,N,block", [(1, 8, 8), (17, 300, 128), (64, 1024, 256), (5, 1000, 1024)])
def test_layer_norm_forward(dtype, M, N, block):
    x = torch.randn(M, N).to(dtype)
    w = torch.rand(N).to(dtype)
    b = torch.randn(N).to(dtype)
    y = torch.empty_like(x)
    mean = torch.empty(M)
    rstd = torch.empty(M)
    eps = 1e-5
    layer_norm_fwd[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=block)
    expected = torch.nn.functional.layer_norm(x.float(), (N, ), w.float(), b.float(), eps).to(dtype)
    tol = 1e-4 if dtype == torch.float32 else 3e-2
    torch.testing.assert_close(y, expected, rtol=tol, atol=tol)
    torch.testing.assert_close(mean, x.float().mean(dim=1), rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(rstd, 1 / torch.sqrt(x.float().var(dim=1, unbiased=False) + eps), rtol=1e-3,
                               atol=1e-3)
