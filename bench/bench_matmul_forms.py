"""The same product written three ways: tritium's blocked matmul (a program per C block), a grouped GEMM over
arrays of operand addresses and a persistent matmul over tensor descriptors made in the kernel, at one thread
and at all cores.

    python bench/bench_matmul_forms.py            # 1024^3 and 2048^3 worth of products, fp32 and bf16
    python bench/bench_matmul_forms.py --quick    # 256^3, all cores (what CI runs)
    python bench/bench_matmul_forms.py --save-path DIR    # also a CSV table and a PNG plot per dtype and threads

`plain` is bench/matmul_kernels.py's matmul_kernel on n x n x n; `grouped` is grouped_matmul_kernel on four
products of (n/2) x (n/2) x n (the same FLOPs), `persistent` persistent_descriptor_matmul_kernel on n x n x n;
both persistent forms run one program per thread, as a GPU's run one per SM. Every form uses the same blocks
(128x128x64). GFLOP/s counts 2*n^3; `grouped / plain` and `persistent / plain` are the ratios to the plain
kernel of the same run, `torch` is torch.mm of n x n x n. Results are checked before timing.
"""

import functools
import os
import sys

import pandas as pd
import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul_kernels  # noqa: E402
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}
BLOCKS = (128, 128, 64)
GROUPS = 4
PROGRAMS = {}  # the programs the persistent forms run (the thread count), set per thread count


def plain(a, b, c):
    n = a.shape[0]
    bm, bn, bk = BLOCKS
    grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn), )
    matmul_kernels.matmul_kernel[grid](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                       c.stride(0), c.stride(1), ACC_DTYPE=tl.float32, BLOCK_M=bm, BLOCK_N=bn,
                                       BLOCK_K=bk, GROUP_M=8)


def close(actual, a, b):
    expected = a.float() @ b.float()
    tol = 1e-3 * a.shape[1]**0.5
    torch.testing.assert_close(actual, expected, rtol=tol, atol=tol)


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one size before the next size
def checked_operands(dtype, n):
    g = torch.Generator().manual_seed(0)
    a, b = (torch.randn(n, n, generator=g).to(DTYPES[dtype]) for _ in range(2))
    c = torch.empty(n, n)
    groups = [(torch.randn(n // 2, n, generator=g).to(DTYPES[dtype]),
               torch.randn(n, n // 2, generator=g).to(DTYPES[dtype]), torch.empty(n // 2, n // 2))
              for _ in range(GROUPS)]
    plain(a, b, c)
    close(c, a, b)
    c.zero_()
    matmul_kernels.persistent_descriptor_matmul(a, b, c, PROGRAMS["count"], BLOCKS)
    close(c, a, b)
    matmul_kernels.grouped_matmul(*zip(*groups), PROGRAMS["count"], BLOCKS)
    for x, y, z in groups:
        close(z, x, y)
    return a, b, c, groups


def measure(provider, dtype, threads, n):
    a, b, c, groups = checked_operands(dtype, n)
    run = {
        "plain": lambda: plain(a, b, c),
        "grouped": lambda: matmul_kernels.grouped_matmul(*zip(*groups), PROGRAMS["count"], BLOCKS),
        "persistent": lambda: matmul_kernels.persistent_descriptor_matmul(a, b, c, PROGRAMS["count"], BLOCKS),
        "torch": lambda: torch.mm(a, b),
    }[provider]
    return 2 * n**3 / median_seconds(run) / 1e9


def main():
    parser = report.parser(__doc__, "256^3 only, all cores")
    args = parser.parse_args()
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    flags = report.cpu_features({"avx2", "fma", "avx512f", "avx512_bf16", "amx_bf16"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {flags}")
    sizes = [256] if args.quick else [1024, 2048]
    tables = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        PROGRAMS["count"] = thread_count
        checked_operands.cache_clear()
        benches = [report.benchmark(f"matmul forms {name}, {report.threads(thread_count)}", "GFLOP/s", ["n"], sizes,
                                    ["plain", "grouped", "persistent", "torch"], dtype=name, threads=thread_count)
                   for name in DTYPES]
        tables.append(report.run(measure, benches, args.save_path))
    table = pd.concat(tables, ignore_index=True)
    table["grouped / plain"] = table["grouped"] / table["plain"]
    table["persistent / plain"] = table["persistent"] / table["plain"]
    report.print_table("matmul forms", "GFLOP/s", table,
                       ["dtype", "n", "threads", "plain", "grouped", "persistent", "torch", "grouped / plain",
                        "persistent / plain"],
                       formats={"n": "{:.0f}", "plain": "{:.1f}", "grouped": "{:.1f}", "persistent": "{:.1f}", "torch": "{:.1f}",
                                "grouped / plain": "{:.2f}", "persistent / plain": "{:.2f}"})
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
