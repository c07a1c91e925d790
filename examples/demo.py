"""tritium demo: stock Triton kernels on CPU tensors, checked against torch.

    python examples/demo.py
"""

import torch
import triton
import triton.language as tl

import tritium


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr):
    rm = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rn = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    rk = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def main():
    print(f"triton {triton.__version__}, active backend: {type(triton.runtime.driver.active).__module__}, "
          f"tritium {tritium.__version__} on {tritium.get_num_threads()} threads")

    n = 100_003
    x, y = torch.randn(n), torch.randn(n)
    out = torch.empty(n)
    compiled = add_kernel[(triton.cdiv(n, 1024), )](x, y, out, n, BLOCK=1024)
    torch.testing.assert_close(out, x + y)
    print(f"vector add of {n} elements: matches torch; stages: {', '.join(compiled.asm)}")

    x = torch.randn(300, 1000)
    out = torch.empty_like(x)
    softmax_kernel[(300, )](out, x, x.stride(0), 1000, BLOCK=1024)
    torch.testing.assert_close(out, torch.softmax(x, dim=1))
    print("softmax of 300x1000: matches torch")

    M, N, K = 200, 150, 170
    a, b = torch.randn(M, K), torch.randn(K, N)
    c = torch.empty(M, N)
    matmul_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, BLOCK=32)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)
    print(f"matmul {M}x{K} @ {K}x{N} with tl.dot: matches torch")
    print("demo passed")


if __name__ == "__main__":
    main()
