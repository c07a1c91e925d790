"""tt.dot in every operand type / input precision the frontend accepts, tt.dot_scaled, K loops."""
import triton
import triton.language as tl


@triton.jit
def _tile_offsets(ROWS: tl.constexpr, COLS: tl.constexpr):
    return tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]


@triton.jit
def dot_fp32(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PREC: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))
    b = tl.load(b_ptr + _tile_offsets(K, N))
    c = tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + _tile_offsets(M, N), c)


@triton.jit
def dot_default_precision(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))
    b = tl.load(b_ptr + _tile_offsets(K, N))
    tl.store(c_ptr + _tile_offsets(M, N), tl.dot(a, b))


@triton.jit
def dot_acc(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, OUT: tl.constexpr):
    # fp16/bf16/int8/fp8 operands; accumulator in OUT (fp32, fp16 or int32)
    a = tl.load(a_ptr + _tile_offsets(M, K))
    b = tl.load(b_ptr + _tile_offsets(K, N))
    acc = tl.zeros([M, N], dtype=OUT)
    acc = tl.dot(a, b, acc, out_dtype=OUT)
    tl.store(c_ptr + _tile_offsets(M, N), acc)


@triton.jit
def dot_fp8_imprecise(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))
    b = tl.load(b_ptr + _tile_offsets(K, N))
    c = tl.dot(a, b, max_num_imprecise_acc=32)
    tl.store(c_ptr + _tile_offsets(M, N), c)


@triton.jit
def dot_fp64(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))
    b = tl.load(b_ptr + _tile_offsets(K, N))
    tl.store(c_ptr + _tile_offsets(M, N), tl.dot(a, b))


@triton.jit
def dot_transposed_operand(a_ptr, bt_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))
    bt = tl.load(bt_ptr + _tile_offsets(N, K))
    tl.store(c_ptr + _tile_offsets(M, N), tl.dot(a, tl.trans(bt)))


@triton.jit
def dot_batched_3d(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    ib = tl.arange(0, B)[:, None, None]
    a = tl.load(a_ptr + ib * M * K + _tile_offsets(M, K)[None, :, :])
    b = tl.load(b_ptr + ib * K * N + _tile_offsets(K, N)[None, :, :])
    tl.store(c_ptr + ib * M * N + _tile_offsets(M, N)[None, :, :], tl.dot(a, b))


@triton.jit
def matmul_k_loop(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_scaled_mx(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                  A_FMT: tl.constexpr, B_FMT: tl.constexpr):
    # e2m1 operands are packed two per byte along K; scales are e8m0 bytes, one per 32 elements of K.
    A_K: tl.constexpr = K // 2 if A_FMT == "e2m1" else K
    B_K: tl.constexpr = K // 2 if B_FMT == "e2m1" else K
    a = tl.load(a_ptr + _tile_offsets(M, A_K))
    b = tl.load(b_ptr + _tile_offsets(B_K, N))
    a_scale = tl.load(a_scale_ptr + _tile_offsets(M, K // 32))
    b_scale = tl.load(b_scale_ptr + _tile_offsets(N, K // 32))
    c = tl.dot_scaled(a, a_scale, A_FMT, b, b_scale, B_FMT)
    tl.store(c_ptr + _tile_offsets(M, N), c)


@triton.jit
def dot_scaled_bf16_lhs(a_ptr, b_ptr, b_scale_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + _tile_offsets(M, K))  # bf16, no scale
    b = tl.load(b_ptr + _tile_offsets(K // 2, N))  # e2m1 packed
    b_scale = tl.load(b_scale_ptr + _tile_offsets(N, K // 32))
    acc = tl.zeros([M, N], dtype=tl.float32)
    c = tl.dot_scaled(a, None, "bf16", b, b_scale, "e2m1", acc)
    tl.store(c_ptr + _tile_offsets(M, N), c)


_MNK = {"M": 32, "N": 32, "K": 32}
_F32 = {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32"}


def _DIV16(*names):
    return {n: [["tt.divisibility", 16]] for n in names}


def _acc_case(a_ty, c_ty, out, k=32):
    return ({"a_ptr": a_ty, "b_ptr": a_ty, "c_ptr": c_ty}, dict(_MNK, K=k, OUT=out), {"fn": "dot_acc"})


KERNELS = {
    "dot_fp32_ieee": (_F32, dict(_MNK, PREC="ieee"), {"fn": "dot_fp32"}),
    "dot_fp32_tf32": (_F32, dict(_MNK, PREC="tf32"), {"fn": "dot_fp32"}),
    "dot_fp32_tf32x3": (_F32, dict(_MNK, PREC="tf32x3"), {"fn": "dot_fp32"}),
    "dot_fp32_bf16x3": (_F32, dict(_MNK, PREC="bf16x3"), {"fn": "dot_fp32"}),
    "dot_fp32_bf16x6": (_F32, dict(_MNK, PREC="bf16x6"), {"fn": "dot_fp32"}),
    "dot_fp32_default": (_F32, dict(_MNK), {"fn": "dot_default_precision"}),
    "dot_fp16_acc_fp32": _acc_case("*fp16", "*fp32", tl.float32),
    "dot_fp16_acc_fp16": _acc_case("*fp16", "*fp16", tl.float16),
    "dot_bf16_acc_fp32": _acc_case("*bf16", "*fp32", tl.float32),
    "dot_int8_acc_int32": _acc_case("*i8", "*i32", tl.int32),
    "dot_fp8e5_acc_fp32": _acc_case("*fp8e5", "*fp32", tl.float32),
    "dot_fp8e4nv_acc_fp32": _acc_case("*fp8e4nv", "*fp32", tl.float32),
    "dot_fp8e4b15_acc_fp32": _acc_case("*fp8e4b15", "*fp32", tl.float32),
    "dot_fp8e4b8_acc_fp32": _acc_case("*fp8e4b8", "*fp32", tl.float32),
    "dot_fp8e5b16_acc_fp32": _acc_case("*fp8e5b16", "*fp32", tl.float32),
    "dot_fp8e5_imprecise_acc": ({"a_ptr": "*fp8e5", "b_ptr": "*fp8e5", "c_ptr": "*fp32"}, dict(_MNK),
                                {"fn": "dot_fp8_imprecise"}),
    "dot_fp64": ({"a_ptr": "*fp64", "b_ptr": "*fp64", "c_ptr": "*fp64"}, {"M": 16, "N": 16, "K": 16}),
    "dot_transposed_operand": ({"a_ptr": "*fp16", "bt_ptr": "*fp16", "c_ptr": "*fp32"}, dict(_MNK)),
    "dot_batched_3d": ({"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"}, dict(_MNK, B=2)),
    "matmul_k_loop": ({"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                       "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
                      {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32},
                      {"options": {"num_warps": 4, "num_stages": 3}, "attrs": _DIV16("K", "stride_am", "stride_bk", "stride_cm")}),
    "matmul_k_loop_unaligned": ({"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                                 "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
                                {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32},
                                {"fn": "matmul_k_loop", "options": {"num_warps": 4, "num_stages": 3}}),
    "dot_scaled_e2m1": ({"a_ptr": "*u8", "a_scale_ptr": "*u8", "b_ptr": "*u8", "b_scale_ptr": "*u8", "c_ptr": "*fp32"},
                        {"M": 32, "N": 32, "K": 64, "A_FMT": "e2m1", "B_FMT": "e2m1"}, {"fn": "dot_scaled_mx"}),
    "dot_scaled_e4m3_e5m2": ({"a_ptr": "*u8", "a_scale_ptr": "*u8", "b_ptr": "*u8", "b_scale_ptr": "*u8",
                              "c_ptr": "*fp32"}, {"M": 32, "N": 32, "K": 64, "A_FMT": "e4m3", "B_FMT": "e5m2"},
                             {"fn": "dot_scaled_mx"}),
    "dot_scaled_bf16_lhs": ({"a_ptr": "*bf16", "b_ptr": "*u8", "b_scale_ptr": "*u8", "c_ptr": "*fp32"},
                            {"M": 32, "N": 32, "K": 64}),
}
