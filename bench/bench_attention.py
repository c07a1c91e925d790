"""Fused attention: tritium's flash-attention forward against torch's scaled_dot_product_attention.

    python bench/bench_attention.py            # seq 1024-4096, head dim 64/128, causal or not, fp32/bf16
    python bench/bench_attention.py --quick    # seq 256, head dim 64, all cores (what CI runs)

GFLOP/s counts the two products, 4 * batch * heads * seq^2 * head_dim (half of it when causal); `ratio`
is tritium / torch. Both run on the same [batch=1, heads=4, seq, head_dim] CPU tensors at the same
thread count; results are checked against an fp32 reference first.
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_kernels  # noqa: E402
from timing import median_seconds, print_table  # noqa: E402

HEADS = 4


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="seq 256, head dim 64, all cores")
    args = parser.parse_args()
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    flags = sorted(set(open("/proc/cpuinfo").read().split()) & {"avx2", "fma", "avx512f", "avx512_bf16"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {' '.join(flags)}")
    shapes = [(256, 64)] if args.quick else [(s, d) for s in (1024, 4096) for d in (64, 128)]
    sdpa = torch.nn.functional.scaled_dot_product_attention
    rows = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        for dtype in (torch.float32, torch.bfloat16):
            for seq, dim in shapes:
                for causal in (False, True):
                    g = torch.Generator().manual_seed(0)
                    q, k, v = (torch.randn(1, HEADS, seq, dim, generator=g).to(dtype) for _ in range(3))
                    out = torch.empty_like(q)
                    attention_kernels.attention(q, k, v, out, causal)
                    expected = sdpa(q.float(), k.float(), v.float(), is_causal=causal)
                    tol = 1e-4 if dtype == torch.float32 else 3e-2
                    torch.testing.assert_close(out.float(), expected, rtol=tol, atol=tol)
                    flops = 4 * HEADS * seq * seq * dim / (2 if causal else 1)
                    ours = flops / median_seconds(lambda: attention_kernels.attention(q, k, v, out, causal)) / 1e9
                    theirs = flops / median_seconds(lambda: sdpa(q, k, v, is_causal=causal)) / 1e9
                    rows.append([str(dtype)[6:], str(seq), str(dim), "yes" if causal else "no", str(thread_count),
                                 f"{ours:.1f}", f"{theirs:.1f}", f"{ours / theirs:.2f}"])
                    sys.stdout.flush()
    print_table("fused attention forward", "GFLOP/s", ["dtype", "seq", "head dim", "causal", "threads", "tritium",
                                                       "torch sdpa", "ratio"], rows)
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
