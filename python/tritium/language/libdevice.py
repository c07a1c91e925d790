"""tritium's libdevice: `triton.language.extra.libdevice` for the CPU.

Triton resolves `libdevice.<name>` in kernels through the backend's module map, so kernels
written for CUDA's libdevice (and the ones PyTorch Inductor generates) run unchanged.

How each function is computed:
- through `extern_elementwise` with the C math library's name (`expf`, `atan2`, `ldexp`, ...):
  tritium turns the functions MLIR's math dialect knows into math ops (vectorized where an
  accurate polynomial exists) and calls the C library for the others;
- as small Triton functions (`isinf`, `erfinv`, bit casts, conversions with a rounding mode);
- a few have no CPU equivalent (directed rounding of arithmetic: `add_rz`, `div_ru`, ...):
  calling them fails at compile time with a message naming the function.

Accuracy is that of the host's C math library (glibc: within a few ULP) or of the stated
approximation; fp16 and bf16 arguments of the C library functions are computed in fp32 and the
result rounded once; `pow` with an int32 exponent (and `powi`) is `pow(x, float(n))`. Tests
compare against torch over special and random values.
"""

import math

import triton
import triton.language as tl
from triton.language import core

_FP32 = core.dtype("fp32")
_FP64 = core.dtype("fp64")
_I32 = core.dtype("int32")
_I64 = core.dtype("int64")
_U32 = core.dtype("uint32")
_U64 = core.dtype("uint64")


def _libm_table(name, arity, float_suffix="f", extra=None):
    """fp32 -> `<name>f`, fp64 -> `<name>` (the C library's spellings)."""
    return {
        (_FP32, ) * arity: (name + float_suffix, _FP32),
        (_FP64, ) * arity: (name, _FP64),
        **(extra or {}),
    }


_HALF = (core.float16, core.bfloat16)


def _call_in_fp32(table, args, _semantic):
    """The C library has no 16-bit functions: fp16/bf16 arguments are computed in fp32 and the
    result rounded back once (what CPU libdevices of other vendors provide as their overloads)."""
    half = next((a.dtype for a in args if isinstance(a, core.tensor) and a.dtype in _HALF), None)
    if half is not None:
        args = [_semantic.cast(a, core.float32) if isinstance(a, core.tensor) and a.dtype in _HALF else a
                for a in args]
    result = core.extern_elementwise("", "", args, table, is_pure=True, _semantic=_semantic)
    if half is not None and result.dtype == core.float32:
        result = _semantic.cast(result, half)
    return result


def _libm(name, arity=1, table=None):
    table = table or _libm_table(name, arity)

    if arity == 1:

        @core.extern
        def fn(arg0, _semantic=None):
            return _call_in_fp32(table, [arg0], _semantic)
    elif arity == 2:

        @core.extern
        def fn(arg0, arg1, _semantic=None):
            return _call_in_fp32(table, [arg0, arg1], _semantic)
    else:

        @core.extern
        def fn(arg0, arg1, arg2, _semantic=None):
            return _call_in_fp32(table, [arg0, arg1, arg2], _semantic)

    fn.__name__ = name
    fn.__qualname__ = name
    return fn


def _unsupported(name, reason):

    @core.extern
    def fn(*args, _semantic=None):
        raise NotImplementedError(f"libdevice.{name} is not available on tritium's CPU backend: {reason}")

    fn.__name__ = name
    return fn


# C math library functions, fp32 and fp64.
for _name in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "erf", "erfc",
              "exp", "exp2", "exp10", "expm1", "floor", "lgamma", "log", "log10", "log1p", "log2", "logb",
              "nearbyint", "rint", "round", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc", "j0", "j1",
              "y0", "y1"):
    globals()[_name] = _libm(_name)
for _name in ("atan2", "copysign", "fdim", "fmod", "hypot", "nextafter", "remainder"):
    globals()[_name] = _libm(_name, 2)
# An integer exponent (CUDA's powi, and pow(x, 2) with a literal) is an exact repeated product.
_POWI = {(_FP32, _I32): ("powi", _FP32), (_FP64, _I32): ("powi", _FP64)}
pow = _libm("pow", 2, _libm_table("pow", 2, extra=_POWI))
powi = _libm("powi", 2, dict(_POWI))
fma = _libm("fma", 3)
rsqrt = _libm("rsqrt")
ldexp = _libm("ldexp", 2, {(_FP32, _I32): ("ldexpf", _FP32), (_FP64, _I32): ("ldexp", _FP64)})
scalbn = _libm("scalbn", 2, {(_FP32, _I32): ("scalbnf", _FP32), (_FP64, _I32): ("scalbn", _FP64)})
ilogb = _libm("ilogb", 1, {(_FP32, ): ("ilogbf", _I32), (_FP64, ): ("ilogb", _I32)})
llrint = _libm("llrint", 1, {(_FP32, ): ("llrintf", _I64), (_FP64, ): ("llrint", _I64)})
llround = _libm("llround", 1, {(_FP32, ): ("llroundf", _I64), (_FP64, ): ("llround", _I64)})
jn = _libm("jn", 2, {(_I32, _FP32): ("jnf", _FP32), (_I32, _FP64): ("jn", _FP64)})
yn = _libm("yn", 2, {(_I32, _FP32): ("ynf", _FP32), (_I32, _FP64): ("yn", _FP64)})
clz = _libm("clz", 1, {(_I32, ): ("ctlz", _I32), (_I64, ): ("ctlz", _I32)})
popc = _libm("popc", 1, {(_I32, ): ("ctpop", _I32), (_I64, ): ("ctpop", _I32)})

# GPU "fast" variants are the accurate functions on the CPU.
fast_expf, fast_logf, fast_log2f, fast_log10f = exp, log, log2, log10
fast_sinf, fast_cosf, fast_tanf, fast_tanhf, fast_exp10f, fast_powf = sin, cos, tan, tanh, exp10, pow


@triton.jit
def isinf(arg0):
    return (tl.abs(arg0) == float("inf")).to(tl.int32)


@triton.jit
def isnan(arg0):
    return (arg0 != arg0).to(tl.int32)


@triton.jit
def finitef(arg0):
    return (tl.abs(arg0) < float("inf")).to(tl.int32)


@triton.jit
def isfinited(arg0):
    return (tl.abs(arg0) < float("inf")).to(tl.int32)


@triton.jit
def signbit(arg0):
    if arg0.dtype == tl.float64:
        return (arg0.to(tl.int64, bitcast=True) < 0).to(tl.int32)
    else:
        return (arg0.to(tl.float32).to(tl.int32, bitcast=True) < 0).to(tl.int32)


@triton.jit
def abs(arg0):
    return tl.abs(arg0)


@triton.jit
def saturatef(arg0):
    return tl.minimum(tl.maximum(arg0, 0.0), 1.0)


@triton.jit
def sinpi(arg0):
    return sin(arg0 * math.pi)


@triton.jit
def cospi(arg0):
    return cos(arg0 * math.pi)


@triton.jit
def rcbrt(arg0):
    return 1.0 / cbrt(arg0)


@triton.jit
def rhypot(arg0, arg1):
    return 1.0 / hypot(arg0, arg1)


@triton.jit
def norm3d(arg0, arg1, arg2):
    return tl.sqrt(arg0 * arg0 + arg1 * arg1 + arg2 * arg2)


@triton.jit
def rnorm3d(arg0, arg1, arg2):
    return 1.0 / tl.sqrt(arg0 * arg0 + arg1 * arg1 + arg2 * arg2)


@triton.jit
def norm4d(arg0, arg1, arg2, arg3):
    return tl.sqrt(arg0 * arg0 + arg1 * arg1 + arg2 * arg2 + arg3 * arg3)


@triton.jit
def rnorm4d(arg0, arg1, arg2, arg3):
    return 1.0 / tl.sqrt(arg0 * arg0 + arg1 * arg1 + arg2 * arg2 + arg3 * arg3)


@triton.jit
def normcdf(arg0):
    return 0.5 * erfc(-arg0 * 0.7071067811865476)


@triton.jit
def erfcx(arg0):
    # exp(x^2) * erfc(x); overflows to inf for x < -9.3 (fp32) as the exact value does.
    return exp(arg0 * arg0) * erfc(arg0)


@triton.jit
def _erfinv_f32(x):
    # Giles, "Approximating the erfinv function" (GPU Computing Gems), single precision:
    # about 2 ULP in the central region, a few ULP in the tails. fp64 inputs are computed
    # in fp32 and widened.
    a = tl.abs(x)
    w = -log((1.0 - a) * (1.0 + a))
    w1 = w - 2.5
    p1 = 2.81022636e-08
    p1 = 3.43273939e-07 + p1 * w1
    p1 = -3.5233877e-06 + p1 * w1
    p1 = -4.39150654e-06 + p1 * w1
    p1 = 0.00021858087 + p1 * w1
    p1 = -0.00125372503 + p1 * w1
    p1 = -0.00417768164 + p1 * w1
    p1 = 0.246640727 + p1 * w1
    p1 = 1.50140941 + p1 * w1
    w2 = tl.sqrt(w) - 3.0
    p2 = -0.000200214257
    p2 = 0.000100950558 + p2 * w2
    p2 = 0.00134934322 + p2 * w2
    p2 = -0.00367342844 + p2 * w2
    p2 = 0.00573950773 + p2 * w2
    p2 = -0.0076224613 + p2 * w2
    p2 = 0.00943887047 + p2 * w2
    p2 = 1.00167406 + p2 * w2
    p2 = 2.83297682 + p2 * w2
    p = tl.where(w < 5.0, p1, p2)
    result = p * x
    result = tl.where(a == 1.0, x * float("inf"), result)
    return tl.where(a > 1.0, float("nan"), result)


@triton.jit
def erfinv(arg0):
    return _erfinv_f32(arg0.to(tl.float32)).to(arg0.dtype)


@triton.jit
def erfcinv(arg0):
    return erfinv(1.0 - arg0)


@triton.jit
def normcdfinv(arg0):
    return -1.4142135623730951 * erfcinv(2.0 * arg0)


# Bit reinterpretation.
@triton.jit
def float_as_int(arg0):
    return arg0.to(tl.int32, bitcast=True)


@triton.jit
def int_as_float(arg0):
    return arg0.to(tl.float32, bitcast=True)


@triton.jit
def float_as_uint(arg0):
    return arg0.to(tl.uint32, bitcast=True)


@triton.jit
def uint_as_float(arg0):
    return arg0.to(tl.float32, bitcast=True)


@triton.jit
def double_as_longlong(arg0):
    return arg0.to(tl.int64, bitcast=True)


@triton.jit
def longlong_as_double(arg0):
    return arg0.to(tl.float64, bitcast=True)


@triton.jit
def double2loint(arg0):
    return (arg0.to(tl.int64, bitcast=True) & 0xFFFFFFFF).to(tl.int32)


@triton.jit
def double2hiint(arg0):
    return (arg0.to(tl.int64, bitcast=True) >> 32).to(tl.int32)


@triton.jit
def hiloint2double(arg0, arg1):
    bits = (arg0.to(tl.int64) << 32) | (arg1.to(tl.int64) & 0xFFFFFFFF)
    return bits.to(tl.float64, bitcast=True)


# Round-to-nearest-even arithmetic is the default IEEE arithmetic.
@triton.jit
def add_rn(arg0, arg1):
    return arg0 + arg1


@triton.jit
def sub_rn(arg0, arg1):
    return arg0 - arg1


@triton.jit
def mul_rn(arg0, arg1):
    return arg0 * arg1


@triton.jit
def div_rn(arg0, arg1):
    return tl.div_rn(arg0, arg1)


@triton.jit
def fast_dividef(arg0, arg1):
    return arg0 / arg1


@triton.jit
def rcp_rn(arg0):
    return tl.div_rn(1.0, arg0)


@triton.jit
def sqrt_rn(arg0):
    return tl.sqrt_rn(arg0)


@triton.jit
def rsqrt_rn(arg0):
    return tl.div_rn(1.0, tl.sqrt_rn(arg0))


@triton.jit
def fma_rn(arg0, arg1, arg2):
    return tl.fma(arg0, arg1, arg2)


# Float to integer with a rounding mode: round in floating point, then convert.
@triton.jit
def _to_int(x, dtype: tl.constexpr, mode: tl.constexpr):
    if mode == "rn":
        x = rint(x)
    elif mode == "rd":
        x = floor(x)
    elif mode == "ru":
        x = ceil(x)
    return x.to(dtype)


@triton.jit
def float2int_rn(arg0):
    return _to_int(arg0, tl.int32, "rn")


@triton.jit
def float2int_rz(arg0):
    return _to_int(arg0, tl.int32, "rz")


@triton.jit
def float2int_rd(arg0):
    return _to_int(arg0, tl.int32, "rd")


@triton.jit
def float2int_ru(arg0):
    return _to_int(arg0, tl.int32, "ru")


@triton.jit
def float2uint_rn(arg0):
    return _to_int(arg0, tl.uint32, "rn")


@triton.jit
def float2uint_rz(arg0):
    return _to_int(arg0, tl.uint32, "rz")


@triton.jit
def float2ll_rn(arg0):
    return _to_int(arg0, tl.int64, "rn")


@triton.jit
def float2ll_rz(arg0):
    return _to_int(arg0, tl.int64, "rz")


@triton.jit
def float2ull_rn(arg0):
    return _to_int(arg0, tl.uint64, "rn")


@triton.jit
def float2ull_rz(arg0):
    return _to_int(arg0, tl.uint64, "rz")


@triton.jit
def double2int_rn(arg0):
    return _to_int(arg0, tl.int32, "rn")


@triton.jit
def double2int_rz(arg0):
    return _to_int(arg0, tl.int32, "rz")


@triton.jit
def double2int_rd(arg0):
    return _to_int(arg0, tl.int32, "rd")


@triton.jit
def double2int_ru(arg0):
    return _to_int(arg0, tl.int32, "ru")


@triton.jit
def double2ll_rn(arg0):
    return _to_int(arg0, tl.int64, "rn")


@triton.jit
def double2ll_rz(arg0):
    return _to_int(arg0, tl.int64, "rz")


@triton.jit
def float2uint_rd(arg0):
    return _to_int(arg0, tl.uint32, "rd")


@triton.jit
def float2uint_ru(arg0):
    return _to_int(arg0, tl.uint32, "ru")


@triton.jit
def float2ll_rd(arg0):
    return _to_int(arg0, tl.int64, "rd")


@triton.jit
def float2ll_ru(arg0):
    return _to_int(arg0, tl.int64, "ru")


@triton.jit
def float2ull_rd(arg0):
    return _to_int(arg0, tl.uint64, "rd")


@triton.jit
def float2ull_ru(arg0):
    return _to_int(arg0, tl.uint64, "ru")


@triton.jit
def double2uint_rn(arg0):
    return _to_int(arg0, tl.uint32, "rn")


@triton.jit
def double2uint_rz(arg0):
    return _to_int(arg0, tl.uint32, "rz")


@triton.jit
def double2uint_rd(arg0):
    return _to_int(arg0, tl.uint32, "rd")


@triton.jit
def double2uint_ru(arg0):
    return _to_int(arg0, tl.uint32, "ru")


@triton.jit
def double2ll_rd(arg0):
    return _to_int(arg0, tl.int64, "rd")


@triton.jit
def double2ll_ru(arg0):
    return _to_int(arg0, tl.int64, "ru")


@triton.jit
def double2ull_rn(arg0):
    return _to_int(arg0, tl.uint64, "rn")


@triton.jit
def double2ull_rz(arg0):
    return _to_int(arg0, tl.uint64, "rz")


@triton.jit
def double2ull_rd(arg0):
    return _to_int(arg0, tl.uint64, "rd")


@triton.jit
def double2ull_ru(arg0):
    return _to_int(arg0, tl.uint64, "ru")


@triton.jit
def double2float_rn(arg0):
    return arg0.to(tl.float32)


@triton.jit
def double2float_rz(arg0):
    return arg0.to(tl.float32, fp_downcast_rounding="rtz")


@triton.jit
def int2float_rn(arg0):
    return arg0.to(tl.float32)


@triton.jit
def uint2float_rn(arg0):
    return arg0.to(tl.float32)


@triton.jit
def ll2float_rn(arg0):
    return arg0.to(tl.float32)


@triton.jit
def ull2float_rn(arg0):
    return arg0.to(tl.float32)


@triton.jit
def int2double_rn(arg0):
    return arg0.to(tl.float64)


@triton.jit
def uint2double_rn(arg0):
    return arg0.to(tl.float64)


@triton.jit
def ll2double_rn(arg0):
    return arg0.to(tl.float64)


@triton.jit
def ull2double_rn(arg0):
    return arg0.to(tl.float64)


# CUDA's integer functions, with its signatures; lowered to arith ops (ExternElementwisePatterns).
mulhi = _libm("mulhi", 2, {(_I32, _I32): ("mulhi", _I32), (_U32, _U32): ("umulhi", _U32),
                           (_I64, _I64): ("mul64hi", _I64), (_U64, _U64): ("umul64hi", _U64)})
sad = _libm("sad", 3, {(_I32, _I32, _U32): ("sad", _I32), (_U32, _U32, _U32): ("usad", _U32)})
hadd = _libm("hadd", 2, {(_I32, _I32): ("hadd", _I32), (_U32, _U32): ("uhadd", _U32)})
rhadd = _libm("rhadd", 2, {(_I32, _I32): ("rhadd", _I32), (_U32, _U32): ("urhadd", _U32)})
mul24 = _libm("mul24", 2, {(_I32, _I32): ("mul24", _I32), (_U32, _U32): ("umul24", _U32)})
ffs = _libm("ffs", 1, {(_I32, ): ("ffs", _I32), (_I64, ): ("ffsll", _I32)})


# Arithmetic and conversions rounded toward zero (rz), -inf (rd) or +inf (ru): calls into the
# device runtime, which computes them in that rounding direction (third_party/cpu/lib/Runtime/
# DirectedRounding.cpp); CUDA's __nv_ spellings resolve to the same functions.
_F32_F64 = {"add": 2, "sub": 2, "mul": 2, "div": 2, "rcp": 1, "sqrt": 1}
for _mode in ("rz", "rd", "ru"):
    for _op, _arity in _F32_F64.items():
        globals()[f"{_op}_{_mode}"] = _libm(
            f"{_op}_{_mode}", _arity, {
                (_FP32, ) * _arity: (f"tritium_f{_op}_{_mode}", _FP32),
                (_FP64, ) * _arity: (f"tritium_d{_op}_{_mode}", _FP64),
            })
    globals()[f"fma_{_mode}"] = _libm(f"fma_{_mode}", 3, {
        (_FP32, ) * 3: (f"tritium_fmaf_{_mode}", _FP32),
        (_FP64, ) * 3: (f"tritium_fma_{_mode}", _FP64),
    })
    for _name, _src, _dst in (("double2float", _FP64, _FP32), ("int2float", _I32, _FP32), ("uint2float", _U32, _FP32),
                              ("ll2float", _I64, _FP32), ("ull2float", _U64, _FP32), ("ll2double", _I64, _FP64),
                              ("ull2double", _U64, _FP64)):
        if f"{_name}_{_mode}" not in globals():
            globals()[f"{_name}_{_mode}"] = _libm(f"{_name}_{_mode}", 1,
                                                  {(_src, ): (f"tritium_{_name}_{_mode}", _dst)})
brev = _libm("brev", 1, {(_I32, ): ("brev", _I32), (_I64, ): ("brevll", _I64)})
byte_perm = _libm("byte_perm", 3, {(_I32, _I32, _I32): ("byte_perm", _I32)})
rcp64h = _unsupported("rcp64h", "a GPU-specific reciprocal approximation")
cyl_bessel_i0 = _unsupported("cyl_bessel_i0", "the C library has no modified Bessel functions")
cyl_bessel_i1 = _unsupported("cyl_bessel_i1", "the C library has no modified Bessel functions")
del _name, _op, _mode, _arity, _src, _dst
