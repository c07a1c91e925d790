"""Fused attention: tritium's flash-attention forward against torch's scaled_dot_product_attention.

    python bench/bench_attention.py            # seq 1024-4096, head dim 64/128, causal or not, fp32/bf16
    python bench/bench_attention.py --quick    # seq 256, head dim 64, all cores (what CI runs)
    python bench/bench_attention.py --save-path DIR    # also a CSV table and a PNG plot per kernel

GFLOP/s counts the two products, 4 * batch * heads * seq^2 * head_dim (half of it when causal); `ratio`
is tritium / torch. Both run on the same [batch=1, heads=4, seq, head_dim] CPU tensors at the same
thread count; results are checked against an fp32 reference first. tritium's blocks are autotuned over
bench/attention_kernels.py's configs (`tritium blocks` says which ran).
"""

import functools
import os
import sys

import pandas as pd
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_kernels  # noqa: E402
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

HEADS = 4
sdpa = torch.nn.functional.scaled_dot_product_attention
BLOCKS = {}  # (dtype, seq, head dim, causal, threads) -> the autotuned BLOCK_MxBLOCK_N


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one length before the next length
def checked_inputs(dtype, seq, dim, causal, threads):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, HEADS, seq, dim, generator=g).to(getattr(torch, dtype)) for _ in range(3))
    out = torch.empty_like(q)
    BLOCKS[(dtype, seq, dim, causal, threads)] = "x".join(map(str, attention_kernels.attention(q, k, v, out, causal)))
    expected = sdpa(q.float(), k.float(), v.float(), is_causal=causal)
    tol = 1e-4 if dtype == "float32" else 3e-2
    torch.testing.assert_close(out.float(), expected, rtol=tol, atol=tol)
    return q, k, v, out


def measure(provider, seq, dtype, head_dim, causal, threads):
    q, k, v, out = checked_inputs(dtype, seq, head_dim, causal, threads)
    flops = 4 * HEADS * seq * seq * head_dim / (2 if causal else 1)
    if provider == "tritium":
        return flops / median_seconds(lambda: attention_kernels.attention(q, k, v, out, causal)) / 1e9
    return flops / median_seconds(lambda: sdpa(q, k, v, is_causal=causal)) / 1e9


def main():
    args = report.parser(__doc__, "seq 256, head dim 64, all cores").parse_args()
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    flags = report.cpu_features({"avx2", "fma", "avx512f", "avx512_bf16", "amx_bf16"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {flags}")
    seqs, dims = ([256], [64]) if args.quick else ([1024, 4096], [64, 128])
    tables = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        # A plot per compiled kernel (dtype, head dim, causal or not) and thread count, against seq.
        benches = [report.benchmark(f"attention {dtype}, head dim {dim}{', causal' if causal else ''}, "
                                    f"{report.threads(thread_count)}", "GFLOP/s", ["seq"], seqs,
                                    ["tritium", "torch sdpa"], x_log=True, dtype=dtype, head_dim=dim, causal=causal,
                                    threads=thread_count)
                   for dtype in ("float32", "bfloat16") for dim in dims for causal in (False, True)]
        tables.append(report.run(measure, benches, args.save_path))
    table = pd.concat(tables, ignore_index=True)
    table["ratio"] = table["tritium"] / table["torch sdpa"]
    table["tritium blocks"] = [BLOCKS[key] for key in zip(table["dtype"], table["seq"], table["head_dim"],
                                                           table["causal"], table["threads"])]
    table["causal"] = table["causal"].map({False: "no", True: "yes"})
    report.print_table("fused attention forward", "GFLOP/s", table.rename(columns={"head_dim": "head dim"}),
                       ["dtype", "seq", "head dim", "causal", "threads", "tritium", "torch sdpa", "ratio",
                        "tritium blocks"],
                       formats={"seq": "{:.0f}", "tritium": "{:.1f}", "torch sdpa": "{:.1f}", "ratio": "{:.2f}"})
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
