"""The benchmarked matmul: a blocked Triton matmul in the style of Triton's tutorial (programs grouped
along M so neighbouring programs share panels of B, K walked in BLOCK_K steps, any operand dtype)."""

import torch
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
def grouped_block(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    """The (row, column) block of C of this program: programs grouped along M, GROUP_M row blocks a group, so that
    neighbouring programs share panels of B."""
    pid = tl.program_id(0)
    programs_m = tl.cdiv(M, BLOCK_M)
    programs_n = tl.cdiv(N, BLOCK_N)
    programs_in_group = GROUP_M * programs_n
    first_m = (pid // programs_in_group) * GROUP_M
    group_rows = min(programs_m - first_m, GROUP_M)
    return first_m + (pid % programs_in_group) % group_rows, (pid % programs_in_group) // group_rows


@triton.jit
def store_block(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """C's block (pid_m, pid_n) = acc, in C's element type, the rows and columns inside C."""
    out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  ACC_DTYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    pid_m, pid_n = grouped_block(M, N, BLOCK_M, BLOCK_N, GROUP_M)

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
    store_block(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N)


autotuned_matmul_kernel = triton.autotune(configs=CPU_CONFIGS, key=["M", "N", "K", "stride_am", "stride_bk"])(
    matmul_kernel)


def launch_blocked(kernel, autotuned, M, N, args, autotune, **constants):
    """A launch of a kernel over blocks of C [M, N]: autotuned over CPU_CONFIGS, or with DEFAULT_CONFIG; returns the
    config that ran."""
    if autotune:
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]), )  # noqa: E731
        autotuned[grid](*args, **constants)
        return autotuned.best_config.kwargs
    grid = (triton.cdiv(M, DEFAULT_CONFIG["BLOCK_M"]) * triton.cdiv(N, DEFAULT_CONFIG["BLOCK_N"]), )
    kernel[grid](*args, **constants, **DEFAULT_CONFIG)
    return DEFAULT_CONFIG


def matmul(a, b, c, autotune=False):
    """c = a @ b (int8 operands accumulate in int32, floats in fp32); returns the config that ran."""
    M, K = a.shape
    N = b.shape[1]
    acc = tl.int32 if a.dtype.is_floating_point is False else tl.float32
    args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return launch_blocked(matmul_kernel, autotuned_matmul_kernel, M, N, args, autotune, ACC_DTYPE=acc)


@triton.jit
def grouped_matmul_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, strides, GROUPS: tl.constexpr, NUM_PROGRAMS: tl.constexpr,
                          DTYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Grouped GEMM in the style of Triton's tutorial: GROUPS independent products c_g = a_g @ b_g whose operands
    come from arrays of addresses (`sizes` holds M, N, K and `strides` the row strides of a, b, c per group);
    NUM_PROGRAMS programs walk the tiles of all groups, tile after tile. K is a multiple of BLOCK_K."""
    tile = tl.program_id(0)
    first_tile = 0
    for g in range(GROUPS):
        M = tl.load(sizes + 3 * g).to(tl.int32)
        N = tl.load(sizes + 3 * g + 1).to(tl.int32)
        K = tl.load(sizes + 3 * g + 2).to(tl.int32)
        tiles_n = tl.cdiv(N, BLOCK_N)
        tiles = tl.cdiv(M, BLOCK_M) * tiles_n
        while tile >= first_tile and tile < first_tile + tiles:
            lda = tl.load(strides + 3 * g).to(tl.int32)
            ldb = tl.load(strides + 3 * g + 1).to(tl.int32)
            ldc = tl.load(strides + 3 * g + 2).to(tl.int32)
            a_ptr = tl.load(a_ptrs + g).to(tl.pointer_type(DTYPE))
            b_ptr = tl.load(b_ptrs + g).to(tl.pointer_type(DTYPE))
            c_ptr = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float32))
            in_group = tile - first_tile
            rows = (in_group // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            cols = (in_group % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            ks = tl.arange(0, BLOCK_K)
            a_tile = a_ptr + rows[:, None] * lda + ks[None, :]
            b_tile = b_ptr + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for _ in range(0, tl.cdiv(K, BLOCK_K)):
                acc = tl.dot(tl.load(a_tile), tl.load(b_tile), acc)
                a_tile += BLOCK_K
                b_tile += BLOCK_K * ldb
            tl.store(c_ptr + rows[:, None] * ldc + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N))
            tile += NUM_PROGRAMS
        first_tile += tiles


def grouped_matmul(a_list, b_list, c_list, num_programs, blocks):
    """c_g = a_g @ b_g for every g, through grouped_matmul_kernel on num_programs programs."""
    device_longs = lambda values: torch.tensor(values, dtype=torch.int64)  # noqa: E731
    sizes = device_longs([d for a, b in zip(a_list, b_list) for d in (a.shape[0], b.shape[1], a.shape[1])])
    strides = device_longs([s for a, b, c in zip(a_list, b_list, c_list) for s in (a.stride(0), b.stride(0), c.stride(0))])
    pointers = [device_longs([t.data_ptr() for t in ts]) for ts in (a_list, b_list, c_list)]
    dtype = {torch.float32: tl.float32, torch.bfloat16: tl.bfloat16}[a_list[0].dtype]
    bm, bn, bk = blocks
    grouped_matmul_kernel[(num_programs, )](*pointers, sizes, strides, GROUPS=len(a_list), NUM_PROGRAMS=num_programs,
                                            DTYPE=dtype, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)


@triton.jit
def persistent_descriptor_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr,
                                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """A persistent matmul on tensor descriptors made in the kernel, in the style of Triton's tutorial: NUM_PROGRAMS
    programs walk the output tiles (grouped along M), operands read and C written through descriptors."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_PROGRAMS):
        first_m = (tile // per_group) * GROUP_M
        group_rows = tl.minimum(tiles_m - first_m, GROUP_M)
        tm = first_m + (tile % per_group) % group_rows
        tn = (tile % per_group) // group_rows
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            acc = tl.dot(a_desc.load([tm * BLOCK_M, k]), b_desc.load([k, tn * BLOCK_N]), acc)
        c_desc.store([tm * BLOCK_M, tn * BLOCK_N], acc)


def persistent_descriptor_matmul(a, b, c, num_programs, blocks):
    """c = a @ b through persistent_descriptor_matmul_kernel (contiguous operands, f32 c)."""
    from triton.runtime._allocation import _allocator
    # descriptors made in a kernel ask Triton's allocator for scratch, as on a GPU: a host tensor
    token = _allocator.set(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    try:
        M, K = a.shape
        N = b.shape[1]
        bm, bn, bk = blocks
        persistent_descriptor_matmul_kernel[(num_programs, )](a, b, c, M, N, K, NUM_PROGRAMS=num_programs, BLOCK_M=bm,
                                                              BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8)
    finally:
        _allocator.reset(token)


@triton.jit
def scaled_matmul_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         FORMAT: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         GROUP_M: tl.constexpr):
    """The blocked matmul of microscaled operands (OCP MX): A [M, K] and B [K, N] in FORMAT (e2m1 two values a byte
    along K, else one fp8 value a byte), each 32 values along K with an e8m0 scale byte (A's [M, K/32], B's
    [N, K/32]); K a multiple of BLOCK_K."""
    PACK: tl.constexpr = 2 if FORMAT == "e2m1" else 1
    pid_m, pid_n = grouped_block(M, N, BLOCK_M, BLOCK_N, GROUP_M)

    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    bytes_k = tl.arange(0, BLOCK_K // PACK)
    scales_k = tl.arange(0, BLOCK_K // 32)
    a_ptrs = a_ptr + rows[:, None] * stride_am + bytes_k[None, :]
    b_ptrs = b_ptr + bytes_k[:, None] * stride_bk + cols[None, :]
    a_scale_ptrs = a_scale_ptr + rows[:, None] * (K // 32) + scales_k[None, :]
    b_scale_ptrs = b_scale_ptr + cols[:, None] * (K // 32) + scales_k[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        acc = tl.dot_scaled(tl.load(a_ptrs), tl.load(a_scale_ptrs), FORMAT, tl.load(b_ptrs), tl.load(b_scale_ptrs),
                            FORMAT, acc)
        a_ptrs += BLOCK_K // PACK
        b_ptrs += (BLOCK_K // PACK) * stride_bk
        a_scale_ptrs += BLOCK_K // 32
        b_scale_ptrs += BLOCK_K // 32
    store_block(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, 1, BLOCK_M, BLOCK_N)


autotuned_scaled_matmul_kernel = triton.autotune(configs=CPU_CONFIGS, key=["M", "N", "K", "FORMAT"])(
    scaled_matmul_kernel)


def scaled_matmul(a, a_scale, b, b_scale, c, fmt, autotune=False):
    """c = dequantized(a) @ dequantized(b) for OCP MX operands (see scaled_matmul_kernel); returns the config."""
    M, N = c.shape
    K = a_scale.shape[1] * 32
    args = (a, a_scale, b, b_scale, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
    return launch_blocked(scaled_matmul_kernel, autotuned_scaled_matmul_kernel, M, N, args, autotune, FORMAT=fmt)
