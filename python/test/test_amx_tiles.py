"""bf16 and int8 `tl.dot` on AMX tiles (tdpbf16ps, tdpbssd) on hosts that have AMX, checked against
torch: every block arrangement of C tiles (2x2, 2x1, 1x2, 1x1), K summed in one run of tile steps and
in several, masked edges, operands read in place and from copies (a column-major A). On hosts without
AMX the same kernels take the other paths and must agree just as well; the test that asserts the tile
instructions are in the code says which it expects from the host's flags."""

import re

import pytest
import torch
import triton
import triton.language as tl

from test_dot_dtypes import assert_within_summation_bound
from test_host_features import host_has


def amx_in_code():
    """Whether code is generated with AMX: the host has it and TRITIUM_CPU_FEATURES (e.g. -amx) left it on."""
    from tritium import _C
    features = _C.host_target_key().split(",")
    return host_has("amx_bf16") and host_has("amx_int8") and all(f"+amx-{kind}" in features
                                                                     for kind in ("bf16", "int8", "tile"))


AMX = amx_in_code()


def dot_products_in_code(int8):
    """Whether code is generated with the dot-product instruction of the dtype (vpdpbusd, vdpbf16ps): the host
    has it and TRITIUM_CPU_FEATURES left AVX-512 on. (The key keeps avx512bf16 off for LLVM's own conversions:
    the CPU's flags tell.)"""
    import os
    removed = [term.strip().lstrip("-") for term in os.environ.get("TRITIUM_CPU_FEATURES", "").split(",")
               if term.strip().startswith("-")]
    llvm_name = "avx512vnni" if int8 else "avx512bf16"
    return (host_has("avx512_vnni" if int8 else "avx512_bf16") and
            not any(term and llvm_name.startswith(term) for term in removed))


def b_packed_in_code(int8):
    """Whether B tiles are cached packed into words of K neighbours: AMX tiles or dot products take the matmul."""
    return AMX or dot_products_in_code(int8)


@triton.jit
def blocked_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                   stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   INT8: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32 if INT8 else tl.float32)
    for k in range(0, K, BLOCK_K):
        # A float `other`: fp8 loads take no int (int8 ones take the float's conversion, 0).
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        if INT8:
            acc += tl.dot(a, b, out_dtype=tl.int32)
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(a, b, blocks, int8):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, dtype=torch.int32 if int8 else torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = blocks
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    kernel = blocked_matmul[grid](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BLOCK_M=BLOCK_M,
                                  BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, INT8=int8)
    return c, kernel


SHAPES = [
    # (M, N, K), (BLOCK_M, BLOCK_N, BLOCK_K): C tiles per block, K steps per dot
    ((64, 64, 64), (32, 32, 32)),  # 2x2 tiles, one bf16 step
    ((64, 64, 128), (32, 16, 64)),  # 2x1
    ((64, 64, 128), (16, 32, 64)),  # 1x2
    ((48, 48, 64), (16, 16, 64)),  # 1x1
    ((32, 64, 1024), (32, 64, 512)),  # 16 bf16 steps (8 int8): C tiles stored between runs of 8
    ((32, 32, 512), (32, 32, 256)),  # 8 bf16 steps: exactly one run
    ((100, 70, 200), (32, 32, 64)),  # masked edges in M, N and K
    # K loops unrolled into one tile pass per 8 steps (4 bf16 / 8 int8 iterations of BLOCK_K=64)
    ((64, 64, 320), (32, 32, 64)),  # 5 iterations: a remainder after (bf16) or instead of (int8) the unrolled loop
    ((32, 48, 1088), (32, 16, 64)),  # 17 iterations: several unrolled iterations and a remainder
]


@pytest.mark.parametrize("shape,blocks", SHAPES, ids=[f"{s[0]}x{s[1]}x{s[2]}-{b[0]}x{b[1]}x{b[2]}" for s, b in SHAPES])
def test_bf16_tiles_within_the_fp32_summation_bound(shape, blocks):
    M, N, K = shape
    g = torch.Generator().manual_seed(M + N + K)
    a = torch.randn(M, K, generator=g).bfloat16()
    b = torch.randn(K, N, generator=g).bfloat16()
    c, _ = run(a, b, blocks, int8=False)
    assert_within_summation_bound(c, a, b, torch.float32, f"bf16 {shape} blocks {blocks}")


@pytest.mark.parametrize("shape,blocks", SHAPES, ids=[f"{s[0]}x{s[1]}x{s[2]}-{b[0]}x{b[1]}x{b[2]}" for s, b in SHAPES])
def test_int8_tiles_are_exact(shape, blocks):
    M, N, K = shape
    # int8 takes tiles of 64 along K: BLOCK_K 32 is not a multiple and must take another path, exactly.
    g = torch.Generator().manual_seed(M * N + K)
    a = torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g)
    b = torch.randint(-128, 128, (K, N), dtype=torch.int8, generator=g)
    a[0, :], b[:, 0] = -128, -128  # the largest products, all of one sign
    c, _ = run(a, b, blocks, int8=True)
    assert torch.equal(c, (a.long() @ b.long()).int())


@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_column_major_operands(int8):
    """A column-major A (a transposed view) has no contiguous rows: the tile reads a copy of it; a column-major
    B is packed like any other."""
    M, N, K = 64, 64, 128
    g = torch.Generator().manual_seed(5)
    if int8:
        a = torch.randint(-128, 128, (K, M), dtype=torch.int8, generator=g).t()
        b = torch.randint(-128, 128, (N, K), dtype=torch.int8, generator=g).t()
    else:
        a = torch.randn(K, M, generator=g).bfloat16().t()
        b = torch.randn(N, K, generator=g).bfloat16().t()
    c, _ = run(a, b, (32, 32, 64), int8)
    if int8:
        assert torch.equal(c, (a.long() @ b.long()).int())
    else:
        assert_within_summation_bound(c, a, b, torch.float32, "column-major bf16")


@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_tile_instructions_follow_the_host(int8):
    """Hosts with AMX-BF16/AMX-INT8 (and Linux's permission for the tile state) compute these dots with tile
    instructions; other hosts must not emit them (they would fault)."""
    M = N = K = 128
    if int8:
        a = torch.randint(-128, 128, (M, K), dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), dtype=torch.int8)
    else:
        a, b = torch.randn(M, K).bfloat16(), torch.randn(K, N).bfloat16()
    _, kernel = run(a, b, (64, 64, 64), int8)
    instruction = "tdpbssd" if int8 else "tdpbf16ps"
    assert (instruction in kernel.asm["llir"]) == AMX, (instruction, AMX)


FLOAT8 = [torch.float8_e5m2, torch.float8_e4m3fn, torch.float8_e5m2fnuz, torch.float8_e4m3fnuz]


def float8_operand(rows, cols, dtype, g):
    """Random fp8 values with the format's extremes in the first row: the smallest subnormal (of either sign),
    the largest finite value and zeros."""
    info = torch.finfo(dtype)
    x = (torch.randn(rows, cols, generator=g) * 4).clamp(-info.max, info.max).to(dtype)
    smallest = torch.tensor([1], dtype=torch.uint8).view(dtype).float().item()  # the bits 0x01
    x[0, :6] = torch.tensor([smallest, -smallest, info.max, -info.max, 0.0, 0.0]).to(dtype)
    assert 0 < smallest < info.tiny
    return x


@pytest.mark.parametrize("dtype", FLOAT8, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize(
    "shape,blocks",
    [((64, 64, 128), (32, 32, 64)), ((100, 70, 200), (32, 32, 64)), ((96, 160, 128), (32, 32, 64))],
    ids=["2x2-tiles", "masked-edges", "tiles-read-by-several-programs"])
def test_float8_dots_within_the_fp32_summation_bound(dtype, shape, blocks):
    """fp8 operands go to the tiles as bf16 on AMX hosts (every fp8 value is a bf16 one, none a bf16 subnormal,
    which the tiles would read as zero) and to the f32 blocks elsewhere: within fp32's bound either way, the
    formats' subnormals and largest values included. A NaN operand makes its row of C NaN. On AMX hosts a whole
    tile is decoded into the thread's cached copy once a launch and read from it by the programs after (each A
    tile of the last shape is read by 5 programs, each B tile by 3), masked edges decode their filled tile."""
    M, N, K = shape
    g = torch.Generator().manual_seed(M + K)
    a, b = float8_operand(M, K, dtype, g), float8_operand(K, N, dtype, g)
    c, kernel = run(a, b, blocks, int8=False)
    assert_within_summation_bound(c, a.float(), b.float(), torch.float32, f"{dtype} {shape}")
    assert ("tdpbf16ps" in kernel.asm["llir"]) == AMX, AMX
    assert ("tritium_cached_operand_tile" in kernel.asm["llir"]) == AMX, "fp8 tiles not decoded once a launch"
    a[1, 3] = float("nan")
    c, _ = run(a, b, blocks, int8=False)
    assert c[1].isnan().all() and not c[[0, 2]].isnan().any()


@triton.jit
def converted_operand_matmul(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])  # f32, converted here (attention's p.to(v.dtype))
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a.to(tl.bfloat16), b))


def test_an_operand_converted_in_the_kernel_stays_on_tiles():
    """An operand computed in the kernel (`p.to(tl.bfloat16)`) must not be fused into the tile generic: that
    made it a loop nest like any other generic, 30x slower than the vdpbf16ps path."""
    M, N, K = 64, 64, 64
    a = torch.randn(M, K)
    b = torch.randn(K, N).bfloat16()
    c = torch.empty(M, N)
    kernel = converted_operand_matmul[(1, )](a, b, c, M=M, N=N, K=K)
    assert_within_summation_bound(c, a.bfloat16(), b, torch.float32, "converted A")
    assert ("tdpbf16ps" in kernel.asm["llir"]) == AMX


@triton.jit
def transposed_operand_matmul(a_ptr, x_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                              INT8: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    x = tl.load(x_ptr + rn[:, None] * K + rk[None, :])  # [N, K], multiplied as x^T (attention's q @ k^T)
    if INT8:
        c = tl.dot(a, tl.trans(x), out_dtype=tl.int32)
    else:
        c = tl.dot(a, tl.trans(x))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_a_transposed_b_is_packed_from_its_rows(int8):
    """B = tl.trans(x): its K groups are built along x's rows and transposed as 32-bit words."""
    M, N, K = 32, 64, 128
    g = torch.Generator().manual_seed(7)
    if int8:
        a = torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g)
        x = torch.randint(-128, 128, (N, K), dtype=torch.int8, generator=g)
        c = torch.empty(M, N, dtype=torch.int32)
    else:
        a, x = torch.randn(M, K, generator=g).bfloat16(), torch.randn(N, K, generator=g).bfloat16()
        c = torch.empty(M, N)
    kernel = transposed_operand_matmul[(1, )](a, x, c, M=M, N=N, K=K, INT8=int8)
    if int8:
        assert torch.equal(c, (a.long() @ x.long().t()).int())
    else:
        assert_within_summation_bound(c, a, x.t(), torch.float32, "a @ x^T")
    assert (("tdpbssd" if int8 else "tdpbf16ps") in kernel.asm["llir"]) == AMX


@pytest.mark.parametrize("column_major_b", [False, True], ids=["B", "w.t()"])
@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_b_tiles_packed_once_a_launch(int8, column_major_b, threads):
    """With 8 rows of programs, the programs of a column find B's tiles in their thread's cache already packed
    for the tile loads or the dot products' words (layout 2: copies made by the first program that needed them; layout 3 for a column-major
    B, `x @ w.t()` with an nn.Linear weight, packed from w's rows); the first program of a thread packs into a
    buffer of its own. A launch after B changed in place packs again: a copy of an earlier launch is never read
    as it was."""
    M, N, K = 256, 128, 256
    blocks = (32, 64, 64)  # B tiles of 64x64: 8 KB bf16, 4 KB int8, both cached
    g = torch.Generator().manual_seed(11)

    def operands():
        if int8:
            return (torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g),
                    torch.randint(-128, 128, (K, N), dtype=torch.int8, generator=g))
        return torch.randn(M, K, generator=g).bfloat16(), torch.randn(K, N, generator=g).bfloat16()

    def check(c, a, b, what):
        if int8:
            assert torch.equal(c, (a.long() @ b.long()).int()), what
        else:
            assert_within_summation_bound(c, a, b, torch.float32, what)

    a, b = operands()
    if column_major_b:
        b = b.t().contiguous().t()
    c, kernel = run(a, b, blocks, int8)
    check(c, a, b, "first launch")
    check(run(a, b, blocks, int8)[0], a, b, "the same operands again")
    b.copy_(operands()[1])  # same address, new values
    check(run(a, b, blocks, int8)[0], a, b, "B changed in place")
    packed_lookup = re.compile(r"@tritium_cached_operand_tile\(ptr [^,]+, i64 [^,]+, i64 64, i64 64, i64 %d, i64 %d," %
                               (1 if int8 else 2, 3 if column_major_b else 2))
    assert bool(packed_lookup.search(kernel.asm["llir"])) == b_packed_in_code(int8), \
        "B cached in the packed layout exactly where AMX tiles or dot products take the matmul"


def test_int8_a_tiles_read_from_the_thread_copy(threads):
    """An int8 A whose rows lie a matrix row apart (256 bytes, tiles of 64x64 = 4 KB) is read by vpdpbusd's
    products from the thread's copy as it lies (layout 0), made once a launch, instead of the copy every program
    filled; AMX's tile loads read A where it lies instead. Values on every path: copies, a launch after A changed
    in place (a copy of an earlier launch is never read), a wrapped row block."""
    M, N, K = 256, 256, 256
    blocks = (64, 64, 64)
    g = torch.Generator().manual_seed(5)
    a = torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g)
    b = torch.randint(-128, 128, (K, N), dtype=torch.int8, generator=g)
    exact = lambda a, b: (a.long() @ b.long()).int()  # noqa: E731
    c, kernel = run(a, b, blocks, True)
    assert torch.equal(c, exact(a, b)), "first launch"
    assert torch.equal(run(a, b, blocks, True)[0], exact(a, b)), "the same operands again"
    a.copy_(torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g))
    assert torch.equal(run(a, b, blocks, True)[0], exact(a, b)), "A changed in place"
    wrapped = a[:200]  # the last row block wraps (% M): its tile is filled as before
    assert torch.equal(run(wrapped, b, blocks, True)[0], exact(wrapped, b)), "a wrapped row block"
    a_lookup = re.compile(r"@tritium_cached_operand_tile\(ptr [^,]+, i64 [^,]+, i64 64, i64 64, i64 1, i64 0,")
    assert bool(a_lookup.search(kernel.asm["llir"])) == (dot_products_in_code(True) and not AMX), \
        "A looked up as it lies exactly where vpdpbusd takes the matmul"


@triton.jit
def scaled_products_matmul(a_ptr, b_ptr, c_ptr, K, M: tl.constexpr, N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, BLOCK_K)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        product = tl.dot(a, b)  # no accumulator: C starts from zero every iteration
        acc += product * (k // BLOCK_K + 1)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def test_a_dot_without_accumulator_starts_from_zero():
    """A product without accumulator (attention's q k^T) starts its C tiles from tilezero, not from zeros
    stored and loaded again; each iteration's product must still start from zero."""
    M, N, K, BLOCK_K = 64, 64, 256, 64
    g = torch.Generator().manual_seed(3)
    a, b = torch.randn(M, K, generator=g).bfloat16(), torch.randn(K, N, generator=g).bfloat16()
    c = torch.empty(M, N)
    kernel = scaled_products_matmul[(1, )](a, b, c, K, M=M, N=N, BLOCK_K=BLOCK_K)
    weights = torch.arange(1, K // BLOCK_K + 1).repeat_interleave(BLOCK_K).float()
    expected = (a.float() * weights) @ b.float()
    torch.testing.assert_close(c, expected, rtol=1e-3, atol=1e-2)
    assert ("tilezero" in kernel.asm["llir"]) == AMX


@triton.jit
def key_sums_kernel(a_ptr, x_ptr, c_ptr, N, K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    INT8: tl.constexpr):
    """c = sum over the key blocks j of a @ x_j^T; every program reads every tile of x (as attention's programs
    read every K tile of their head) and stores only at the end (tiles may come from the thread's copies)."""
    rm, rk, rn = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M), tl.arange(0, K), tl.arange(0, BLOCK_N)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32 if INT8 else tl.float32)
    for start in range(0, N, BLOCK_N):
        x = tl.load(x_ptr + (start + rn)[:, None] * K + rk[None, :])
        if INT8:
            acc += tl.dot(a, tl.trans(x), out_dtype=tl.int32)
        else:
            acc += tl.dot(a, tl.trans(x))
    tl.store(c_ptr + rm[:, None] * BLOCK_N + rn[None, :], acc)


@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_transposed_b_tiles_packed_once_a_launch(int8, threads):
    """B = tl.trans(x) with x's tiles read by every program (attention's q k^T): each thread packs a tile for the
    tile loads (or the dot products) once a launch (layout 3), the first program that meets it into a buffer of its own; a launch
    after x changed in place packs again."""
    M, N, K, BLOCK_M, BLOCK_N = 256, 256, 64, 32, 64  # x tiles of 64x64: 8 KB bf16, 4 KB int8
    g = torch.Generator().manual_seed(13)

    def operand(rows):
        if int8:
            return torch.randint(-128, 128, (rows, K), dtype=torch.int8, generator=g)
        return torch.randn(rows, K, generator=g).bfloat16()

    a, x = operand(M), operand(N)
    c = torch.empty(M, BLOCK_N, dtype=torch.int32 if int8 else torch.float32)

    def launch():
        return key_sums_kernel[(M // BLOCK_M, )](a, x, c, N, K=K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, INT8=int8)

    def check(what):
        launch()
        # The sum of products over the key blocks is one product over K * N / BLOCK_N.
        a_wide, x_wide = a.repeat(1, N // BLOCK_N), torch.cat(x.split(BLOCK_N), dim=1)
        if int8:
            assert torch.equal(c, (a_wide.long() @ x_wide.long().t()).int()), what
        else:
            assert_within_summation_bound(c, a_wide, x_wide.t(), torch.float32, what)

    check("first launch")
    check("the same operands again")
    x.copy_(operand(N))
    check("x changed in place")
    packed_lookup = re.compile(r"@tritium_cached_operand_tile\(ptr [^,]+, i64 [^,]+, i64 64, i64 64, i64 %d, i64 3," %
                               (1 if int8 else 2))
    assert bool(packed_lookup.search(launch().asm["llir"])) == b_packed_in_code(int8), \
        "x's tiles cached packed exactly where AMX tiles or dot products take the matmul"


@pytest.mark.parametrize("int8", [False, True], ids=["bf16", "int8"])
def test_column_major_b_whose_rows_are_not_whole_words_apart(int8):
    """A column-major B packs as 32-bit words of its rows only where those rows start whole words apart; a
    weight whose rows are an odd number of bf16 (or not a multiple of 4 int8) apart takes the fill instead."""
    M, N, K = 256, 128, 256
    g = torch.Generator().manual_seed(17)
    if int8:
        a = torch.randint(-128, 128, (M, K), dtype=torch.int8, generator=g)
        w = torch.randint(-128, 128, (N, K + 2), dtype=torch.int8, generator=g)[:, :K]  # rows 258 bytes apart
    else:
        a = torch.randn(M, K, generator=g).bfloat16()
        w = torch.randn(N, K + 1, generator=g).bfloat16()[:, :K]  # rows 257 bf16 apart
    b = w.t()
    for _ in range(2):  # the second launch finds the first one's copies, if any were made
        c, _ = run(a, b, (32, 64, 64), int8)
        if int8:
            assert torch.equal(c, (a.long() @ b.long()).int())
        else:
            assert_within_summation_bound(c, a, b, torch.float32, "w.t() with odd rows")
