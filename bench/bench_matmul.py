"""Matmul: tritium's tl.dot against torch (and numpy for fp32), per dtype, at one thread and at all cores.

    python bench/bench_matmul.py            # square 512-2048 and skinny shapes, autotuned, 1 and all threads
    python bench/bench_matmul.py --large    # adds 4096^3
    python bench/bench_matmul.py --quick    # 256^3 per dtype, one config, all cores (what CI runs)

GFLOP/s counts 2*M*N*K. The torch column is torch.mm in the same dtype (int8: torch._int_mm, int32
results); `ratio` is tritium / torch; `vs fp32` is tritium in that dtype / tritium's fp32 at the same shape
and thread count. numpy (fp32 only) runs its BLAS with whatever threads that BLAS chooses. Results are
checked before timing: fp32 against torch, bf16/fp16 against an fp32 product of the same inputs, int8 exactly.
"""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul_kernels  # noqa: E402
from timing import median_seconds, print_table  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16, "int8": torch.int8}


def operands(M, N, K, dtype):
    g = torch.Generator().manual_seed(0)
    if dtype == torch.int8:
        a = torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), generator=g, dtype=torch.int8)
        return a, b, torch.empty(M, N, dtype=torch.int32)
    a = torch.randn(M, K, generator=g).to(dtype)
    b = torch.randn(K, N, generator=g).to(dtype)
    return a, b, torch.empty(M, N, dtype=torch.float32)


def torch_product(a, b):
    return torch._int_mm(a, b) if a.dtype == torch.int8 else torch.mm(a, b)


def check(c, a, b):
    if a.dtype == torch.int8:
        assert torch.equal(c, torch._int_mm(a, b)), "int8 matmul differs from torch._int_mm"
    else:
        expected = a.float() @ b.float()
        tol = 1e-3 * a.shape[1]**0.5
        torch.testing.assert_close(c, expected, rtol=tol, atol=tol)


def gflops(M, N, K, seconds):
    return 2 * M * N * K / seconds / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="256^3 only, one config, all cores")
    parser.add_argument("--large", action="store_true", help="add 4096^3")
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated among " + ",".join(DTYPES))
    args = parser.parse_args()
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    flags = sorted(set(open("/proc/cpuinfo").read().split()) & {"avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni",
                                                               "avx_vnni", "avx512_fp16", "amx_bf16", "amx_int8"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {' '.join(flags)}")
    if args.quick:
        shapes = [(256, 256, 256)]
    else:
        shapes = [(s, s, s) for s in (512, 1024, 2048)] + [(4096, 4096, 4096)] * args.large
        shapes += [(16, 4096, 4096), (64, 4096, 4096)]
    dtypes = [d for d in args.dtypes.split(",") if d]
    rows = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        own_fp32 = {}
        for name in dtypes:
            dtype = DTYPES[name]
            for M, N, K in shapes:
                a, b, c = operands(M, N, K, dtype)
                config = matmul_kernels.matmul(a, b, c, autotune=not args.quick)
                check(c, a, b)
                ours = gflops(M, N, K, median_seconds(lambda: matmul_kernels.matmul(a, b, c, autotune=not args.quick)))
                theirs = gflops(M, N, K, median_seconds(lambda: torch_product(a, b)))
                numpy_rate = "—"
                if dtype == torch.float32:
                    an, bn = a.numpy(), b.numpy()
                    numpy_rate = f"{gflops(M, N, K, median_seconds(lambda: an @ bn)):.1f}"
                    own_fp32[(M, N, K)] = ours
                vs_fp32 = f"{ours / own_fp32[(M, N, K)]:.2f}" if (M, N, K) in own_fp32 and name != "fp32" else "—"
                block = "x".join(str(config[k]) for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K"))
                rows.append([name, f"{M}x{N}x{K}", str(thread_count), f"{ours:.1f}", f"{theirs:.1f}", numpy_rate,
                             f"{ours / theirs:.2f}", vs_fp32, block])
                sys.stdout.flush()
    print_table("matmul", "GFLOP/s", ["dtype", "MxNxK", "threads", "tritium", "torch", "numpy", "ratio", "vs fp32",
                                      "tritium blocks"], rows)
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
