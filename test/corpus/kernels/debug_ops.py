"""Debug operations: tt.print, tt.assert (emitted only with debug=True), overflow sanitizing, compile-time
static_print/static_assert (no IR)."""
import triton
import triton.language as tl


@triton.jit
def device_print(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.device_print("pid", tl.program_id(0))
    tl.device_print("values", v)
    tl.device_print("hex ", offs, hex=True)
    tl.device_print("several: ", v, offs, n)
    print("python print also maps to tt.print", n)


@triton.jit
def device_assert(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.device_assert(v >= 0, "values must be non-negative")
    tl.device_assert(offs < n, "masked check", mask=offs < BLOCK // 2)
    tl.device_assert(n > 0)
    assert n < 1000000, "python assert maps to tt.assert"


@triton.jit
def static_checks(x, out, BLOCK: tl.constexpr):
    tl.static_print("BLOCK is", BLOCK)
    tl.static_assert(BLOCK % 16 == 0, "BLOCK must be a multiple of 16")
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))


@triton.jit
def overflow_checks(a, b, out, BLOCK: tl.constexpr):
    # with debug=True the frontend guards integer add/sub/mul against overflow
    offs = tl.arange(0, BLOCK)
    x = tl.load(a + offs)
    y = tl.load(b + offs)
    tl.store(out + offs, x * y + x - y)


@triton.jit
def expect_zero(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, tl.expect_zero(v, offs >= BLOCK // 2))


_DEBUG = {"options": {"debug": True}}

KERNELS = {
    "device_print": ({"x": "*fp32", "n": "i32"}, {"BLOCK": 32}),
    "device_assert": ({"x": "*fp32", "n": "i32"}, {"BLOCK": 32}, _DEBUG),
    "device_assert_no_debug": ({"x": "*fp32", "n": "i32"}, {"BLOCK": 32}, {"fn": "device_assert"}),
    "static_checks": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 32}),
    "overflow_checks": ({"a": "*i32", "b": "*i32", "out": "*i32"}, {"BLOCK": 32}, _DEBUG),
    "expect_zero": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 32}, _DEBUG),
}
