"""The benchmarked matmul: a blocked Triton matmul in the style of Triton's tutorial (programs grouped
along M so neighbouring programs share panels of B, K walked in BLOCK_K steps, any operand dtype)."""

import triton
import triton.language as tl

# Tile shapes for a CPU core: C blocks of 16-128 rows, K steps long enough to amortise the C block; and the
# tutorial's 256x128x64 and a 128x128x128, which AMX tiles (bf16, int8) run fastest: each B panel they pack
# serves twice the rows, and each C tile sums more K between its loads and stores.
CPU_CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8})
    for bm, bn, bk in ((64, 64, 32), (128, 64, 64), (64, 128, 64), (128, 128, 32), (32, 64, 128), (16, 128, 128),
                       (256, 128, 64), (128, 128, 128))
]
DEFAULT_CONFIG = dict(BLOCK_M=128, BLOCK_N=64, BLOCK_K=64, GROUP_M=8)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  ACC_DTYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    programs_m = tl.cdiv(M, BLOCK_M)
    programs_n = tl.cdiv(N, BLOCK_N)
    programs_in_group = GROUP_M * programs_n
    first_m = (pid // programs_in_group) * GROUP_M
    group_rows = min(programs_m - first_m, GROUP_M)
    pid_m = first_m + (pid % programs_in_group) % group_rows
    pid_n = (pid % programs_in_group) // group_rows

    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_DTYPE)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=ks[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=ACC_DTYPE)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


autotuned_matmul_kernel = triton.autotune(configs=CPU_CONFIGS, key=["M", "N", "K", "stride_am", "stride_bk"])(
    matmul_kernel)


def matmul(a, b, c, autotune=False):
    """c = a @ b (int8 operands accumulate in int32, floats in fp32); returns the config that ran."""
    M, K = a.shape
    N = b.shape[1]
    acc = tl.int32 if a.dtype.is_floating_point is False else tl.float32
    args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    if autotune:
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]), )  # noqa: E731
        autotuned_matmul_kernel[grid](*args, ACC_DTYPE=acc)
        return autotuned_matmul_kernel.best_config.kwargs
    grid = (triton.cdiv(M, DEFAULT_CONFIG["BLOCK_M"]) * triton.cdiv(N, DEFAULT_CONFIG["BLOCK_N"]), )
    matmul_kernel[grid](*args, ACC_DTYPE=acc, **DEFAULT_CONFIG)
    return DEFAULT_CONFIG
