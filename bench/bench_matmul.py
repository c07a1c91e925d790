"""Matmul: tritium's tl.dot against torch (and numpy for fp32), per dtype, at one thread and at all cores.

    python bench/bench_matmul.py            # square 512-2048, 1000^3, skinny shapes; autotuned, 1 and all threads
    python bench/bench_matmul.py --shapes 1000x1000x1000,1088x1088x1088    # only these MxNxK
    python bench/bench_matmul.py --large    # adds 4096^3
    python bench/bench_matmul.py --quick    # 256^3 per dtype, one config, all cores (what CI runs)
    python bench/bench_matmul.py --layout nt    # B transposed (x @ w.t(), an nn.Linear weight); tn, tt
    python bench/bench_matmul.py --save-path DIR    # also a CSV table and a PNG plot per dtype and thread count

GFLOP/s counts 2*M*N*K. The torch column is torch.mm in the same dtype (int8: torch._int_mm, int32
results; fp8 (e5m2, e4m3) and the OCP MX formats of `tl.dot_scaled` (mxfp8: e4m3, mxfp4: e2m1, each 32
values along K with an e8m0 scale; shapes whose K is a multiple of 128) have none on the CPU: compare tritium's
bf16 and fp32 rows); `ratio` is
tritium / torch; `vs fp32` is tritium in that dtype / tritium's fp32 at the same shape and thread
count. numpy (fp32 only) runs its BLAS with whatever threads that BLAS chooses. Results are checked
before timing: fp32 against torch, bf16/fp16/fp8 against an fp32 product of the same inputs (MX: of the
dequantized inputs), int8
exactly.
"""

import functools
import os
import sys

import pandas as pd
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matmul_kernels  # noqa: E402
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16, "int8": torch.int8,
          "fp8e5": torch.float8_e5m2, "fp8e4nv": torch.float8_e4m3fn, "mxfp8": None, "mxfp4": None}
# tl.dot_scaled's OCP MX operands: e4m3 or e2m1 values with an e8m0 scale per 32 along K (K a multiple of 128).
MICROSCALED = {"mxfp8": "e4m3", "mxfp4": "e2m1"}
# torch has no CPU product of fp8 or MX tensors: tritium alone, beside its bf16 and fp32
FLOAT8 = {"fp8e5", "fp8e4nv", *MICROSCALED}
E2M1_VALUES = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0])
LAYOUT = "nn"  # A and B row-major ("n") or transposed views of row-major tensors ("t"), as in BLAS
BLOCKS = {}  # (dtype, MxNxK) -> the tile shape tritium ran (autotuning picks it once per shape)


def operands(M, N, K, dtype):
    g = torch.Generator().manual_seed(0)
    if dtype == torch.int8:
        a = torch.randint(-128, 128, (M, K), generator=g, dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), generator=g, dtype=torch.int8)
        if LAYOUT != "nn":
            raise SystemExit("--layout: int8 runs row-major operands only")
        return a, b, torch.empty(M, N, dtype=torch.int32)
    a = (torch.randn(K, M, generator=g).t() if LAYOUT[0] == "t" else torch.randn(M, K, generator=g)).to(dtype)
    b = (torch.randn(N, K, generator=g).t() if LAYOUT[1] == "t" else torch.randn(K, N, generator=g)).to(dtype)
    return a, b, torch.empty(M, N, dtype=torch.float32)


def microscaled_operands(M, N, K, fmt):
    """A [M, K] and B [K, N] in `fmt` (e2m1: two values a byte along K, low nibble first), scales near 2^0."""
    g = torch.Generator().manual_seed(0)
    if fmt == "e2m1":
        a = torch.randint(0, 256, (M, K // 2), generator=g, dtype=torch.uint8)
        b = torch.randint(0, 256, (K // 2, N), generator=g, dtype=torch.uint8)
    else:
        a = torch.randn(M, K, generator=g).to(torch.float8_e4m3fn)
        b = torch.randn(K, N, generator=g).to(torch.float8_e4m3fn)
    a_scale = torch.randint(120, 134, (M, K // 32), generator=g, dtype=torch.uint8)
    b_scale = torch.randint(120, 134, (N, K // 32), generator=g, dtype=torch.uint8)
    return a, a_scale, b, b_scale, torch.empty(M, N, dtype=torch.float32)


def dequantized(x, scale, fmt, k_axis):
    """The f32 values of an MX operand: decoded (e2m1 unpacked along `k_axis`), times 2^(scale - 127)."""
    if fmt == "e2m1":
        x = x.movedim(k_axis, -1)
        nibbles = torch.stack([x & 0xF, x >> 4], dim=-1).reshape(*x.shape[:-1], -1)
        x = E2M1_VALUES[nibbles.long()].movedim(-1, k_axis)
    else:
        x = x.float()
    factors = torch.exp2(scale.float() - 127).repeat_interleave(32, dim=1)  # [rows or columns, K]
    return x * (factors if k_axis == 1 else factors.t())


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


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one shape before the next shape
def checked_operands(dtype, M, N, K, autotune):
    if dtype in MICROSCALED:
        fmt = MICROSCALED[dtype]
        a, a_scale, b, b_scale, c = microscaled_operands(M, N, K, fmt)
        config = matmul_kernels.scaled_matmul(a, a_scale, b, b_scale, c, fmt, autotune=autotune)
        expected = dequantized(a, a_scale, fmt, 1) @ dequantized(b, b_scale, fmt, 0)
        torch.testing.assert_close(c, expected, rtol=1e-4, atol=1e-3 * expected.abs().max().item())
        BLOCKS[(dtype, f"{M}x{N}x{K}")] = "x".join(str(config[k]) for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K"))
        return (a, a_scale, b, b_scale, c, fmt)
    a, b, c = operands(M, N, K, DTYPES[dtype])
    config = matmul_kernels.matmul(a, b, c, autotune=autotune)
    check(c, a, b)
    BLOCKS[(dtype, f"{M}x{N}x{K}")] = "x".join(str(config[k]) for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K"))
    return a, b, c


def measure(provider, dtype, autotune, threads, MxNxK, M, N, K):
    if dtype in MICROSCALED:
        if K % 128 or LAYOUT != "nn":  # whole K steps of every config; row-major operands
            BLOCKS[(dtype, MxNxK)] = "—"
            return float("nan")
        operands_and_format = checked_operands(dtype, M, N, K, autotune)
        return gflops(M, N, K, median_seconds(
            lambda: matmul_kernels.scaled_matmul(*operands_and_format, autotune=autotune)))
    a, b, c = checked_operands(dtype, M, N, K, autotune)
    if provider == "tritium":
        return gflops(M, N, K, median_seconds(lambda: matmul_kernels.matmul(a, b, c, autotune=autotune)))
    if provider == "torch":
        return gflops(M, N, K, median_seconds(lambda: torch_product(a, b)))
    an, bn = a.numpy(), b.numpy()
    return gflops(M, N, K, median_seconds(lambda: an @ bn))


def main():
    parser = report.parser(__doc__, "256^3 only, one config, all cores")
    parser.add_argument("--large", action="store_true", help="add 4096^3")
    parser.add_argument("--shapes", default="", help="comma-separated MxNxK: run these shapes only")
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated among " + ",".join(DTYPES))
    parser.add_argument("--layout", default="nn", choices=["nn", "nt", "tn", "tt"],
                        help="t: that operand a transposed view (B of x @ w.t(), a column-major A)")
    args = parser.parse_args()
    global LAYOUT
    LAYOUT = args.layout
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    flags = report.cpu_features({"avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "avx_vnni", "avx512_fp16",
                                 "amx_bf16", "amx_int8"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {flags}; "
          f"layout {LAYOUT}")
    if args.quick:
        shapes = [(256, 256, 256)]
    else:
        shapes = [(s, s, s) for s in (512, 1024, 2048)] + [(4096, 4096, 4096)] * args.large
        # 1000^3: no block divides M, N or K, so the last row and column blocks wrap (`% M`) and the last
        # K step is masked, as in most real shapes.
        shapes += [(1000, 1000, 1000), (16, 4096, 4096), (64, 4096, 4096)]
    if args.shapes:
        shapes = [tuple(int(v) for v in shape.split("x")) for shape in args.shapes.split(",")]
    x_vals = [(f"{M}x{N}x{K}", M, N, K) for M, N, K in shapes]
    dtypes = [d for d in args.dtypes.split(",") if d]
    tables = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        # A plot per dtype and thread count, against the shape; numpy (its BLAS) only multiplies fp32.
        benches = [report.benchmark(f"matmul {name}, {report.threads(thread_count)}", "GFLOP/s",
                                    ["MxNxK", "M", "N", "K"], x_vals,
                                    ["tritium", "torch", "numpy"] if name == "fp32"
                                    else ["tritium"] if name in FLOAT8 else ["tritium", "torch"],
                                    dtype=name, autotune=not args.quick, threads=thread_count) for name in dtypes]
        table = report.run(measure, benches, args.save_path)
        fp32 = table[table["dtype"] == "fp32"].set_index("MxNxK")["tritium"]
        table["vs fp32"] = (table["tritium"] / table["MxNxK"].map(fp32)).where(table["dtype"] != "fp32")
        tables.append(table)
    table = pd.concat(tables, ignore_index=True)
    if "torch" not in table:  # fp8 alone
        table["torch"] = float("nan")
    table["ratio"] = table["tritium"] / table["torch"]
    table["tritium blocks"] = [BLOCKS[key] for key in zip(table["dtype"], table["MxNxK"])]
    if "numpy" not in table:  # numpy multiplies fp32 only
        table["numpy"] = float("nan")
    report.print_table("matmul", "GFLOP/s", table, ["dtype", "MxNxK", "threads", "tritium", "torch", "numpy", "ratio",
                                                    "vs fp32", "tritium blocks"],
                       formats={"tritium": "{:.1f}", "torch": "{:.1f}", "numpy": "{:.1f}", "ratio": "{:.2f}",
                                "vs fp32": "{:.2f}"})
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
