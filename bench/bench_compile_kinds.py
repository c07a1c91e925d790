"""Cold compile time of the kinds of graph whose kernels compile slowest, Inductor's C++ backend against Inductor
with tritium.

    python bench/bench_compile_kinds.py            # every kind
    python bench/bench_compile_kinds.py --quick    # two kinds (what CI runs, to see it works)
    python bench/bench_compile_kinds.py --only sort,searchsorted

Each kind is one small graph through `torch.compile(options={"cpu_backend": ...})`, compiled and run once in a
fresh process with empty Inductor and Triton caches; the number is the seconds of that first call (the process's
one-time costs excluded: a trivial graph is compiled first). Where Inductor's C++ backend has no kernel of its own
for an operation (sort, searchsorted, bucketize) it calls aten's, so its column is tracing and scheduling only,
while the Triton path compiles Inductor's Triton kernel (a bitonic network for sorts) in every configuration it
autotunes.
"""

import json
import os
import subprocess
import sys
import tempfile


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

# name -> (graph, inputs, extra Inductor options): Python expressions evaluated where torch is imported.
KINDS = {
    "stable sort, 8 rows of 64": ("lambda t: torch.sort(t, dim=-1, stable=True)", "(torch.randn(8, 64),)", {}),
    "sort with NaN, 8 rows of 200": ("lambda t: torch.sort(t, dim=-1)",
                                     "(torch.where(torch.rand(8, 200) < 0.2, float('nan'), torch.randn(8, 200)),)",
                                     {}),
    "argsort descending along 100 rows": ("lambda t: torch.argsort(t, dim=0, descending=True)",
                                          "(torch.randn(100, 5),)", {}),
    "searchsorted": ("lambda s, v: torch.searchsorted(s, v)",
                     "(torch.sort(torch.randn(4, 300)).values, torch.randn(4, 50))", {}),
    "bucketize": ("lambda v, b: torch.bucketize(v, b, right=True)",
                  "(torch.randn(1000), torch.sort(torch.randn(77)).values)", {}),
    "max-pool 9x9": ("lambda t: torch.nn.functional.max_pool2d(t, 9, 1, 4)", "(torch.randn(2, 8, 32, 32),)", {}),
    "max-pool 7x7 forward and backward": ("lambda t: torch.nn.functional.max_pool2d(t, 7, 2, 3).sum()",
                                          "(torch.randn(2, 8, 32, 32, requires_grad=True),)", {}),
    "autotuned pointwise": ("lambda x, y: x * torch.sigmoid(x) + y", "(torch.randn(1 << 20), torch.randn(1 << 20))",
                            {"max_autotune_pointwise": True, "coordinate_descent_tuning": True}),
}
QUICK = ["searchsorted", "max-pool 9x9"]
LINES = ["Inductor C++", "Inductor + tritium"]
BACKENDS = {"Inductor C++": "cpp", "Inductor + tritium": "triton"}

CHILD = """
import json, sys, time, torch
kind, backend = json.loads(sys.argv[1])
graph, inputs, options = kind
options = dict(options, cpu_backend=backend)
torch.compile(lambda t: t + 1, options={"cpu_backend": backend})(torch.randn(4))
fn, args = torch.compile(eval(graph), options=options), eval(inputs)
start = time.perf_counter()
out = fn(*args)
if isinstance(out, torch.Tensor) and out.requires_grad:
    out.backward()
print(time.perf_counter() - start)
"""


def compile_seconds(provider, kind):
    """Seconds of the first call of `kind` compiled by `provider`, in a new process with empty caches."""
    with tempfile.TemporaryDirectory(prefix="tritium-bench-compile-") as caches:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(caches, "inductor"),
                   TRITON_CACHE_DIR=os.path.join(caches, "triton"))
        request = json.dumps([KINDS[kind], BACKENDS[provider]])
        result = subprocess.run([sys.executable, "-c", CHILD, request], env=env, capture_output=True, text=True,
                                timeout=1800)
    if result.returncode != 0 or not result.stdout.strip():
        print(f"{kind} through {provider} failed:\n{result.stderr[-3000:]}", file=sys.stderr)
        return float("nan")
    return float(result.stdout.split()[-1])


def main():
    parser = report.parser(__doc__, "two kinds only")
    parser.add_argument("--only", default="", help="comma-separated substrings of the kinds to run")
    args = parser.parse_args()
    kinds = QUICK if args.quick else list(KINDS)
    if args.only:
        kinds = [kind for kind in kinds if any(part.strip() in kind for part in args.only.split(","))]
    import torch
    import tritium
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {os.cpu_count()} cores (Inductor's compile "
          f"workers); CPU features: {report.cpu_features({'avx2', 'fma', 'avx512f', 'amx_bf16'})}")
    bench = report.benchmark("cold compile by kind of graph", "s", ["kind"], kinds, LINES)
    table = report.run(compile_seconds, [bench], args.save_path)
    table["ratio"] = table["Inductor + tritium"] / table["Inductor C++"]
    report.print_table("first call of each graph through torch.compile, cold caches", "seconds", table,
                       ["kind"] + LINES + ["ratio"], better="lower", formats={"ratio": "{:.2f}"})


if __name__ == "__main__":
    main()
