"""NVIDIA-specific frontend helpers (triton.language.extra.cuda): programmatic dependent launch (gdc_*,
tt.grid_dependency_*), special registers through inline PTX, num_threads/num_warps constexprs."""
import triton
import triton.language as tl
from triton.language.extra import cuda
from triton.language.extra.cuda import libdevice as cuda_libdevice


@triton.jit
def grid_dependency(x, out, BLOCK: tl.constexpr):
    cuda.gdc_wait()
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    cuda.gdc_launch_dependents()
    tl.store(out + offs, v + 1.0)


@triton.jit
def special_registers(out):
    t = cuda.globaltimer()
    s = cuda.smid()
    tl.store(out, t)
    tl.store(out + 1, s.to(tl.int64) + cuda.num_threads() + cuda.num_warps())


@triton.jit
def cuda_libdevice_direct(x, out, BLOCK: tl.constexpr):
    # imports triton.language.extra.cuda.libdevice itself, so no module-map redirection happens:
    # every target (gfx942 included) gets the __nv_* symbols
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, cuda_libdevice.tanh(v) + cuda_libdevice.fast_expf(v) + cuda_libdevice.rsqrt(v))


KERNELS = {
    "grid_dependency": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "special_registers": ({"out": "*i64"}, {}),
    "cuda_libdevice_direct": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
}
