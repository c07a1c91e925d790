"""NVIDIA-specific frontend helpers (triton.language.extra.cuda): programmatic dependent launch (gdc_*,
tt.grid_dependency_*), special registers through inline PTX, num_threads/num_warps constexprs."""
import triton
import triton.language as tl
from triton.language.extra import cuda


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


KERNELS = {
    "grid_dependency": ({"x": "*fp32", "out": "*fp32"}, {"BLOCK": 64}),
    "special_registers": ({"out": "*i64"}, {}),
}
