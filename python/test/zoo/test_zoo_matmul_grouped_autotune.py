"""Zoo: autotuned matmul with grouped ("super-grouped") program ordering, K-tail masks and a fused activation."""

import pytest
import torch
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_SIZE_M": 2}),
    triton.Config({"BLOCK_M": 32, "BLOCK_N": 16, "BLOCK_K": 32, "GROUP_SIZE_M": 4}),
    triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 16, "GROUP_SIZE_M": 1}),
]


def quick_bench(kernel_call, quantiles):
    # short benchmark runs: every config still runs (and is timed) for each new key, in milliseconds not seconds
    return triton.testing.do_bench(kernel_call, warmup=1, rep=5, quantiles=quantiles)


@triton.jit
def zoo_grouped_tile(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # programs walk GROUP_SIZE_M block-rows column by column before moving to the next group of rows
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_SIZE_M * tiles_n
    group = pid // per_group
    first_m = group * GROUP_SIZE_M
    rows_in_group = tl.minimum(tiles_m - first_m, GROUP_SIZE_M)
    tile_m = first_m + (pid % per_group) % rows_in_group
    tile_n = (pid % per_group) // rows_in_group
    return tile_m, tile_n


@triton.jit
def zoo_leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"], do_bench=quick_bench)
@triton.jit
def zoo_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                      ACTIVATION: tl.constexpr):
    tile_m, tile_n = zoo_grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M)
    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b_tile = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_ok = rk < K - k0
        a = tl.load(a_tile, mask=(rm[:, None] < M) & k_ok[None, :], other=0.0)
        b = tl.load(b_tile, mask=k_ok[:, None] & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_tile += BLOCK_K * s_ak
        b_tile += BLOCK_K * s_bk
    if ACTIVATION == "leaky_relu":
        acc = zoo_leaky_relu(acc)
    c_tile = c_ptr + rm[:, None] * s_cm + rn[None, :] * s_cn
    tl.store(c_tile, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"], do_bench=quick_bench)
@triton.jit
def zoo_matmul_wrap_kernel(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                           ACTIVATION: tl.constexpr):
    # rows and columns past M/N wrap around (% M, % N) instead of being masked, with contiguity hints on the offsets;
    # only the K tail and the final store are masked. tl.dot without input_precision, as a GPU kernel would write it
    tile_m, tile_n = zoo_grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M)
    rm = tl.max_contiguous(tl.multiple_of((tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M, BLOCK_M), BLOCK_M)
    rn = tl.max_contiguous(tl.multiple_of((tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N, BLOCK_N), BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b_tile = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_tile, mask=rk[None, :] < K - kb * BLOCK_K, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < K - kb * BLOCK_K, other=0.0)
        acc += tl.dot(a, b)  # the backend's default input precision (IEEE on the CPU, no TF32 rounding)
        a_tile += BLOCK_K * s_ak
        b_tile += BLOCK_K * s_bk
    if ACTIVATION == "leaky_relu":
        acc = zoo_leaky_relu(acc)
    cm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * s_cm + cn[None, :] * s_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def matmul(a, b, out_dtype=None, activation="", kernel=zoo_matmul_kernel):
    M, K = a.shape
    K2, N = b.shape
    assert K == K2
    c = torch.empty((M, N), dtype=out_dtype or a.dtype)

    def grid(meta):
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]), )

    kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                 c.stride(1), ACTIVATION=activation)
    return c


def reference(a, b, out_dtype, activation=""):
    c = a.float() @ b.float()
    if activation == "leaky_relu":
        c = torch.nn.functional.leaky_relu(c, 0.01)
    return c.to(out_dtype)


SHAPES = [(65, 33, 47), (16, 16, 16), (1, 70, 5), (40, 1, 100), (96, 80, 64)]


@pytest.mark.parametrize("M,N,K", SHAPES)
def test_matmul_fp32(M, N, K):
    a, b = torch.randn(M, K), torch.randn(K, N)
    torch.testing.assert_close(matmul(a, b), reference(a, b, torch.float32), rtol=1e-4, atol=1e-4,
                               msg=lambda m: f"fp32 matmul {M}x{N}x{K}: {m}")


@pytest.mark.parametrize("out_dtype", [torch.float16, torch.float32], ids=["out_fp16", "out_fp32"])
@pytest.mark.parametrize("M,N,K", SHAPES)
def test_matmul_fp16_inputs_fp32_accumulation(M, N, K, out_dtype):
    a, b = torch.randn(M, K).half(), torch.randn(K, N).half()
    out = matmul(a, b, out_dtype=out_dtype)
    tol = dict(rtol=1e-4, atol=1e-4) if out_dtype == torch.float32 else dict(rtol=1e-3, atol=1e-3)
    # with fp32 accumulation the only rounding to fp16 is the final cast
    torch.testing.assert_close(out, reference(a, b, out_dtype), **tol,
                               msg=lambda m: f"fp16 matmul {M}x{N}x{K} -> {out_dtype}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("M,N,K", [(65, 33, 47), (32, 48, 20)])
def test_matmul_fused_leaky_relu(M, N, K, dtype):
    a, b = torch.randn(M, K).to(dtype), torch.randn(K, N).to(dtype)
    out = matmul(a, b, activation="leaky_relu")
    expected = reference(a, b, dtype, activation="leaky_relu")
    assert (expected < 0).any() and (expected > 0).any()
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float32 else dict(rtol=1e-3, atol=1e-3)
    torch.testing.assert_close(out, expected, **tol, msg=lambda m: f"matmul+leaky_relu {M}x{N}x{K} {dtype}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("M,N,K", [(65, 33, 47), (1, 70, 5), (96, 80, 64)])
@pytest.mark.parametrize("activation", ["", "leaky_relu"], ids=["none", "leaky_relu"])
def test_matmul_wraparound_offsets_with_hints(M, N, K, dtype, activation):
    a, b = torch.randn(M, K).to(dtype), torch.randn(K, N).to(dtype)
    out = matmul(a, b, out_dtype=torch.float32, activation=activation, kernel=zoo_matmul_wrap_kernel)
    torch.testing.assert_close(out, reference(a, b, torch.float32, activation), rtol=1e-4, atol=1e-4,
                               msg=lambda m: f"wrap-around matmul {M}x{N}x{K} {dtype} {activation}: {m}")


def test_matmul_transposed_operand():
    a = torch.randn(47, 65).t()  # 65 x 47 with column-major strides
    b = torch.randn(47, 33)
    torch.testing.assert_close(matmul(a, b), a @ b, rtol=1e-4, atol=1e-4)


def test_autotuner_picked_one_of_the_configs_per_key():
    a, b = torch.randn(50, 30), torch.randn(30, 20)
    matmul(a, b)
    best = zoo_matmul_kernel.best_config
    assert any(best.kwargs == c.kwargs for c in CONFIGS), f"best_config {best} is not one of the configs"
    keys = [k for k in zoo_matmul_kernel.cache if 50 in k and 20 in k and 30 in k]
    assert keys, f"no autotune cache entry for M,N,K=50,20,30: {list(zoo_matmul_kernel.cache)}"


@triton.jit
def zoo_tile_order_kernel(out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(0)
    tile_m, tile_n = zoo_grouped_tile(pid, M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M)
    tl.store(out_ptr + 2 * pid, tile_m)
    tl.store(out_ptr + 2 * pid + 1, tile_n)


@pytest.mark.parametrize("tiles_m,tiles_n,group", [(5, 3, 2), (4, 4, 4), (7, 2, 3), (3, 5, 1), (2, 6, 8)])
def test_grouped_ordering_covers_every_tile_once(tiles_m, tiles_n, group):
    bm = bn = 16
    n = tiles_m * tiles_n
    out = torch.full((n, 2), -1, dtype=torch.int32)
    zoo_tile_order_kernel[(n, )](out, tiles_m * bm - 3, tiles_n * bn - 5, BLOCK_M=bm, BLOCK_N=bn, GROUP_SIZE_M=group)
    expected = []
    for pid in range(n):
        per_group = group * tiles_n
        first = (pid // per_group) * group
        rows = min(tiles_m - first, group)
        expected.append((first + (pid % per_group) % rows, (pid % per_group) // rows))
    assert [tuple(r) for r in out.tolist()] == expected, f"tile order {out.tolist()} != {expected}"
    assert sorted(expected) == [(i, j) for i in range(tiles_m) for j in range(tiles_n)]
