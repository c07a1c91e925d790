"""Elementwise math and conversions: arith/math ops, precise sqrt/div, mulhi, clamp, where, casts incl. fp8
rounding modes, bitcasts, libdevice (tt.extern_elementwise), inline asm, tl.map_elementwise, philox RNG."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def float_unary(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    r = tl.exp(v) + tl.exp2(v) + tl.log(tl.abs(v) + 1.0) + tl.log2(tl.abs(v) + 1.0)
    r += tl.sin(v) * tl.cos(v) + tl.sqrt(tl.abs(v)) + tl.rsqrt(tl.abs(v) + 1.0)
    r += tl.floor(v) + tl.ceil(v) + tl.erf(v) + tl.sigmoid(v) + (-v)
    r = tl.fma(r, v, 1.0)
    tl.store(out + offs, r)


@triton.jit
def precise_div_sqrt(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    tl.store(out + offs, tl.div_rn(a, b))  # tt.precise_divf
    tl.store(out + BLOCK + offs, tl.sqrt_rn(a))  # tt.precise_sqrt
    tl.store(out + 2 * BLOCK + offs, a / b)  # arith.divf
    tl.store(out + 3 * BLOCK + offs, tl.fdiv(a, b, approx=True))  # tt.approx_divf
    tl.store(out + 4 * BLOCK + offs, tl.fdiv(a, b, ieee_rounding=True))
    tl.store(out + 5 * BLOCK + offs, a % b)  # arith.remf


@triton.jit
def integer_ops(x, y, u, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)  # i32
    b = tl.load(y + offs) | 1  # i32, non-zero
    c = tl.load(u + offs)  # u32
    r = a // b + a % b + (a << 3) + (a >> 2) + (a & b) + (a | b) + (a ^ b) + (~a) + (-a) + tl.abs(a)
    r += tl.maximum(a, b) + tl.minimum(a, b) + (a * b)
    r += tl.where(a > b, 1, 0) + tl.where(a <= b, 2, 0) + tl.where(a != b, 4, 0)
    hi = tl.umulhi(c, c)  # tt.mulhiui
    q = (c // 7) + (c % 5) + (c >> 1)
    tl.store(out + offs, r)
    tl.store(out + BLOCK + offs, (hi + q).to(tl.int32, bitcast=True))
    tl.store(out + 2 * BLOCK + offs, tl.cdiv(a, 16) + (a % 16 == 0).to(tl.int32))


@triton.jit
def compare_select(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    m = (a < b) & (a != 0.0) | (a >= 2.0 * b) ^ (b == 1.0)
    tl.store(out + offs, tl.where(m, a, b))
    tl.store(out + BLOCK + offs, tl.where(a > 0.0, a, 0.0))
    tl.store(out + 2 * BLOCK + offs, tl.where(offs < 3, 1.0, b))


@triton.jit
def clamp_min_max(x, lo, hi, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    a = tl.load(lo + offs)
    b = tl.load(hi + offs)
    tl.store(out + offs, tl.clamp(v, a, b))  # tt.clampf
    tl.store(out + BLOCK + offs, tl.clamp(v, -1.0, 1.0, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + 2 * BLOCK + offs, tl.maximum(v, a, propagate_nan=tl.PropagateNan.ALL))  # arith.maximumf
    tl.store(out + 3 * BLOCK + offs, tl.minimum(v, b))  # arith.minnumf
    ints = offs - 8
    tl.store(out + 4 * BLOCK + offs, tl.clamp(ints, -4, 4).to(tl.float32))


@triton.jit
def int_float_casts(x_i32, x_f32, out_f32, out_i32, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(x_i32 + offs)
    f = tl.load(x_f32 + offs)
    a = i.to(tl.float32) + i.to(tl.uint32).to(tl.float32) + i.to(tl.int8).to(tl.float16).to(tl.float32)
    a += i.to(tl.int64).to(tl.float64).to(tl.float32) + (i > 0).to(tl.float32)
    tl.store(out_f32 + offs, a)
    b = f.to(tl.int32) + f.to(tl.uint8).to(tl.int32) + f.to(tl.int16).to(tl.int32) + f.to(tl.int1).to(tl.int32)
    b += f.to(tl.int64).to(tl.int32) + f.to(tl.uint32).to(tl.int32)
    tl.store(out_i32 + offs, b)


@triton.jit
def float_width_casts(x, out16, outbf, out64, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs)
    tl.store(out16 + offs, f.to(tl.float16))  # rtne truncf
    tl.store(out16 + BLOCK + offs, f.to(tl.float16, fp_downcast_rounding="rtz"))  # tt.fp_to_fp rtz
    tl.store(outbf + offs, f.to(tl.bfloat16))
    tl.store(outbf + BLOCK + offs, f.to(tl.bfloat16, fp_downcast_rounding="rtz"))
    tl.store(out64 + offs, f.to(tl.float64) * 2.0)
    tl.store(out16 + 2 * BLOCK + offs, tl.load(out64 + offs).to(tl.float16))  # f64 -> f16


@triton.jit
def fp8e5_conversions(x, h, out_e5, out_f32, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs)
    f16 = tl.load(h + offs)
    tl.store(out_e5 + offs, f.to(tl.float8e5))  # fp32 -> e5m2, rtne
    tl.store(out_e5 + BLOCK + offs, f.to(tl.float8e5, fp_downcast_rounding="rtz"))
    tl.store(out_e5 + 2 * BLOCK + offs, f16.to(tl.float8e5))  # fp16 -> e5m2
    tl.store(out_e5 + 3 * BLOCK + offs, f16.to(tl.float8e5, fp_downcast_rounding="rtz"))
    e5 = tl.load(out_e5 + offs)
    up = e5.to(tl.float32) + e5.to(tl.float16).to(tl.float32) + e5.to(tl.bfloat16).to(tl.float32)
    tl.store(out_f32 + offs, up)


@triton.jit
def fp8e4nv_conversions(x, h, out_e4, out_f32, BLOCK: tl.constexpr):
    # e4m3 (fp8e4nv) needs capability >= 89 on NVIDIA
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs)
    f16 = tl.load(h + offs)
    tl.store(out_e4 + offs, f.to(tl.float8e4nv))  # fp32 -> e4m3
    tl.store(out_e4 + BLOCK + offs, f16.to(tl.float8e4nv))  # fp16 -> e4m3
    tl.store(out_e4 + 2 * BLOCK + offs, f.to(tl.bfloat16).to(tl.float8e4nv))  # bf16 -> e4m3
    e4 = tl.load(out_e4 + offs)
    tl.store(out_f32 + offs, e4.to(tl.float32) + e4.to(tl.bfloat16).to(tl.float32))


@triton.jit
def fp8_legacy_formats(x, out_b15, out_f32, BLOCK: tl.constexpr):
    # fp8e4b15 is NVIDIA-only and converted with inline PTX on sm80
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs).to(tl.float16)
    tl.store(out_b15 + offs, f.to(tl.float8e4b15))
    tl.store(out_f32 + offs, tl.load(out_b15 + offs).to(tl.float32))


@triton.jit
def fp8_amd_formats(x, out_e4b8, out_e5b16, out_f32, BLOCK: tl.constexpr):
    # fnuz fp8 variants (AMD)
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs)
    tl.store(out_e4b8 + offs, f.to(tl.float8e4b8))
    tl.store(out_e5b16 + offs, f.to(tl.float8e5b16))
    tl.store(out_f32 + offs, tl.load(out_e4b8 + offs).to(tl.float32) + tl.load(out_e5b16 + offs).to(tl.float32))


@triton.jit
def bitcasts(x, h, out_i, out_f, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(x + offs)
    bits = f.to(tl.int32, bitcast=True)  # tt.bitcast
    tl.store(out_i + offs, bits & 0x7FFFFFFF)
    flipped = bits.to(tl.uint32, bitcast=True) ^ 0x80000000
    tl.store(out_f + offs, flipped.to(tl.float32, bitcast=True))
    hb = tl.load(h + offs).to(tl.int16, bitcast=True)
    tl.store(out_i + BLOCK + offs, hb.to(tl.int32))
    u8 = tl.load(out_i + offs).to(tl.uint32, bitcast=True)
    tl.store(out_i + 2 * BLOCK + offs, (u8 >> 24).to(tl.int32))


@triton.jit
def libdevice_calls(x, y, out, BLOCK: tl.constexpr):
    # tl.extra.libdevice resolves to the target's library (CUDA libdevice / AMD ocml): tt.extern_elementwise
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    r = libdevice.tanh(a) + libdevice.erf(a) + libdevice.pow(a, b) + libdevice.atan2(a, b)
    r += libdevice.log1p(tl.abs(a)) + libdevice.expm1(a) + libdevice.rint(a) + libdevice.trunc(a)
    r += libdevice.fmod(a, b) + libdevice.pow(a, 3) + libdevice.isnan(b).to(tl.float32)
    tl.store(out + offs, r)
    d = a.to(tl.float64)
    tl.store(out + BLOCK + offs, libdevice.exp(d).to(tl.float32) + libdevice.tanh(d).to(tl.float32))
    tl.store(out + 2 * BLOCK + offs, libdevice.popc(offs).to(tl.float32) + libdevice.clz(offs).to(tl.float32))


@triton.jit
def libdevice_cuda_only(x, out, BLOCK: tl.constexpr):
    # functions the AMD library does not provide
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    r = libdevice.brev(a) + libdevice.mulhi(a, a) + libdevice.byte_perm(a, a, 0x3210)
    tl.store(out + offs, r)


@triton.jit
def inline_asm(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    # one result, one element per instance
    s = tl.inline_asm_elementwise("add.u32 $0, $1, $2;", "=r,r,r", [a, b], dtype=tl.uint32, is_pure=True, pack=1)
    # two results
    lo, hi = tl.inline_asm_elementwise("mov.b32 $0, $2; mov.b32 $1, $3;", "=r,=r,r,r", [a, b],
                                       dtype=(tl.uint32, tl.uint32), is_pure=True, pack=1)
    # four 8-bit elements per instance
    bytes_ = tl.load(x + offs).to(tl.uint8)
    inc = tl.inline_asm_elementwise("add.u32 $0, $1, 0x01010101;", "=r,r", [bytes_], dtype=tl.uint8, is_pure=True,
                                    pack=4)
    # impure, no inputs
    clock = tl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r", [], dtype=tl.uint32, is_pure=False, pack=1)
    tl.store(out + offs, s + lo + hi + inc.to(tl.uint32) + clock)


@triton.jit
def _soft_threshold(v, t):
    if v > t:
        r = v - t
    elif v < -t:
        r = v + t
    else:
        r = 0.0
    return r


@triton.jit
def _min_max_pair(a, b):
    return tl.minimum(a, b), tl.maximum(a, b)


@triton.jit
def _swap_pairs(a0, a1, b0, b1):
    return a1, a0, b1, b0


@triton.jit
def map_elementwise(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    s = tl.map_elementwise(_soft_threshold, a, tl.full([BLOCK], 0.5, tl.float32))  # tt.map_elementwise with scf.if inside
    lo, hi = tl.map_elementwise(_min_max_pair, a, b)  # two results
    p, q = tl.map_elementwise(_swap_pairs, a, b, pack=2)  # two elements per call
    tl.store(out + offs, s + lo * hi + p - q)


@triton.jit
def philox_random(out, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    u = tl.rand(seed, offs)
    n = tl.randn(seed, offs)
    i = tl.randint(seed, offs)
    i0, i1, i2, i3 = tl.randint4x(seed, offs)
    tl.store(out + offs, u + n + (i ^ i0 ^ i1 ^ i2 ^ i3).to(tl.float32))


KERNELS = {
    "float_unary": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "precise_div_sqrt": ({"x": "*fp32", "y": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "integer_ops": ({"x": "*i32", "y": "*i32", "u": "*u32", "out": "*i32"}, {"BLOCK": 128}),
    "compare_select": ({"x": "*fp32", "y": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "clamp_min_max": ({"x": "*fp32", "lo": "*fp32", "hi": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "int_float_casts": ({"x_i32": "*i32", "x_f32": "*fp32", "out_f32": "*fp32", "out_i32": "*i32"}, {"BLOCK": 128}),
    "float_width_casts": ({"x": "*fp32", "out16": "*fp16", "outbf": "*bf16", "out64": "*fp64"}, {"BLOCK": 128}),
    "fp8e5_conversions": ({"x": "*fp32", "h": "*fp16", "out_e5": "*fp8e5", "out_f32": "*fp32"}, {"BLOCK": 128}),
    "fp8e4nv_conversions": ({"x": "*fp32", "h": "*fp16", "out_e4": "*fp8e4nv", "out_f32": "*fp32"}, {"BLOCK": 128}),
    "fp8_legacy_formats": ({"x": "*fp32", "out_b15": "*fp8e4b15", "out_f32": "*fp32"}, {"BLOCK": 128}),
    "fp8_amd_formats": ({"x": "*fp32", "out_e4b8": "*fp8e4b8", "out_e5b16": "*fp8e5b16", "out_f32": "*fp32"},
                        {"BLOCK": 128}),
    "bitcasts": ({"x": "*fp32", "h": "*fp16", "out_i": "*i32", "out_f": "*fp32"}, {"BLOCK": 128}),
    "libdevice_calls": ({"x": "*fp32", "y": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "libdevice_cuda_only": ({"x": "*i32", "out": "*i32"}, {"BLOCK": 128}),
    "inline_asm": ({"x": "*u32", "y": "*u32", "out": "*u32"}, {"BLOCK": 128}),
    "map_elementwise": ({"x": "*fp32", "y": "*fp32", "out": "*fp32"}, {"BLOCK": 128}),
    "philox_random": ({"out": "*fp32", "seed": "i32"}, {"BLOCK": 128}),
}
