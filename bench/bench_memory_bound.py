"""Memory-bound kernels: tritium against torch eager and numpy, at one thread and at all cores.

    python bench/bench_memory_bound.py            # every kernel, size and thread count
    python bench/bench_memory_bound.py --quick    # small sizes, all cores (what CI runs)
    python bench/bench_memory_bound.py --only softmax,add
    python bench/bench_memory_bound.py --save-path DIR    # also a CSV table and a PNG plot per kernel

Every number is GB/s of the bytes the operation must move (inputs read once, outputs written
once), measured in this run on this machine; `ratio` is tritium / torch eager. `copy` is the
host's copy bandwidth at that size (torch's `copy_`), the ceiling for the rest. The thread
count applies to tritium (`tritium.set_num_threads`) and torch (`torch.set_num_threads`)
alike; numpy runs on one thread. Results are checked against torch before timing.
"""

import functools
import os
import sys

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import memory_kernels as mk  # noqa: E402
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

F32, BF16 = torch.float32, torch.bfloat16
# The plots' lines and the cases' keys they measure (copy: the host's copy bandwidth, the ceiling).
LINES = {"tritium": "tritium", "torch eager": "torch", "numpy (1 thread)": "numpy", "copy": None}


def _close(actual, expected, dtype=F32, atol=None):
    tol = {F32: (1e-4, 1e-5), BF16: (2e-2, 2e-2), torch.float16: (2e-3, 2e-3)}[dtype]
    torch.testing.assert_close(actual.float(), expected.float(), rtol=tol[0], atol=atol or tol[1])


def elementwise_cases(n):
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    xn, yn, on = x.numpy(), y.numpy(), out.numpy()
    cases = {}
    for op, torch_fn, numpy_fn in (("add", lambda: torch.add(x, y, out=out), lambda: np.add(xn, yn, out=on)),
                                   ("mul", lambda: torch.mul(x, y, out=out), lambda: np.multiply(xn, yn, out=on)),
                                   ("x*sigmoid(x)+y", lambda: torch.add(torch.nn.functional.silu(x), y, out=out),
                                    lambda: np.add(xn / (1 + np.exp(-xn)), yn, out=on))):
        reference = {"add": x + y, "mul": x * y}.get(op, torch.nn.functional.silu(x) + y)
        cases[op] = dict(bytes=12 * n, tritium=lambda op=op: mk.binary({"add": "add", "mul": "mul"}.get(op, "silu_add"),
                                                                          x, y, out),
                         torch=torch_fn, numpy=numpy_fn, check=lambda r=reference: _close(out, r))
    for src, dst in ((F32, BF16), (BF16, F32), (F32, torch.float16), (torch.float16, F32)):
        a = torch.randn(n).to(src)
        b = torch.empty(n, dtype=dst)
        name = f"cast {str(src)[6:]}->{str(dst)[6:]}"
        numpy_fn = None
        if BF16 not in (src, dst):
            an, bn = a.numpy(), b.numpy()
            numpy_fn = lambda an=an, bn=bn: np.copyto(bn, an, casting="unsafe")  # noqa: E731
        cases[name] = dict(bytes=n * (a.element_size() + b.element_size()),
                           tritium=lambda a=a, b=b: mk.cast(a, b), torch=lambda a=a, b=b: b.copy_(a),
                           numpy=numpy_fn, check=lambda a=a, b=b, dst=dst: _close(b, a.to(dst), dst))
    group = 128
    q = torch.randint(-128, 128, (n, ), dtype=torch.int8)
    scale = torch.rand(n // group) + 0.5
    deq = torch.empty(n)
    qn, sn, dn = q.numpy(), scale.numpy(), deq.numpy()
    cases["int8 dequant"] = dict(
        bytes=n * 5 + scale.numel() * 4, tritium=lambda: mk.dequant(q, scale, deq, group),
        torch=lambda: torch.mul(q.view(-1, group), scale[:, None], out=deq.view(-1, group)),
        numpy=lambda: np.multiply(qn.reshape(-1, group), sn[:, None], out=dn.reshape(-1, group)),
        check=lambda: _close(deq, q.float() * scale.repeat_interleave(group)))
    # LLaMA's rotary embedding of queries (8 heads of 64, 256 positions; n elements in and out, 2^17 at the
    # smallest size), from the projection's (batch, seq, heads, 64) layout into attention's (batch, heads, seq, 64).
    heads, seq, half = 8, 256, 32
    batch = max(1, n // (2 * half * heads * seq))
    qs = torch.randn(batch, seq, heads, 2 * half)
    cos, sin = torch.randn(seq, half), torch.randn(seq, half)
    rotated = torch.empty(batch, heads, seq, 2 * half)

    def torch_rotary():
        q = qs.transpose(1, 2)
        q1, q2 = q[..., :half], q[..., half:]
        return torch.cat([q1 * cos - q2 * sin, q1 * sin + q2 * cos], dim=-1)

    cases["rotary embedding"] = dict(bytes=2 * qs.numel() * 4 + 2 * cos.numel() * 4,
                                     tritium=lambda: mk.rotary(qs, cos, sin, rotated), torch=torch_rotary,
                                     numpy=None, check=lambda: _close(rotated, torch_rotary()))
    return cases


def row_cases(rows, cols, dtype):
    x = torch.randn(rows, cols).to(dtype)
    out = torch.empty_like(x)
    size = x.element_size()
    w, b = torch.randn(cols).to(dtype), torch.randn(cols).to(dtype)
    mean, rstd = torch.empty(rows), torch.empty(rows)
    dy = torch.randn(rows, cols).to(dtype)
    dx, dw, db = torch.empty_like(x), torch.empty(cols, dtype=dtype), torch.empty(cols, dtype=dtype)
    target = torch.randint(0, cols, (rows, ))
    loss = torch.empty(rows)
    F = torch.nn.functional

    def ln_backward_torch():
        m, r = torch.ops.aten.native_layer_norm(x, [cols], w, b, 1e-5)[1:]
        return torch.ops.aten.native_layer_norm_backward(dy, x, [cols], m, r, w, b, [True, True, True])

    def ln_backward_check():
        # Against float32 arithmetic: aten's bf16 backward sums dw and db with bf16 roundings.
        xf, dyf, wf, bf = x.float(), dy.float(), w.float(), b.float()
        m, r = torch.ops.aten.native_layer_norm(xf, [cols], wf, bf, 1e-5)[1:]
        expected = torch.ops.aten.native_layer_norm_backward(dyf, xf, [cols], m, r, wf, bf, [True, True, True])
        for actual, reference in zip((dx, dw, db), expected):
            torch.testing.assert_close(actual.float(), reference.float(), rtol=5e-2 if dtype == BF16 else 1e-3,
                                       atol=5e-1 if dtype == BF16 else 1e-3)

    xf = x.float()
    return {
        "softmax": dict(bytes=2 * x.numel() * size, tritium=lambda: mk.softmax(x, out),
                        torch=lambda: torch.softmax(x, 1), check=lambda: _close(out, torch.softmax(xf, 1), dtype)),
        "log-softmax": dict(bytes=2 * x.numel() * size, tritium=lambda: mk.softmax(x, out, log=True),
                            torch=lambda: torch.log_softmax(x, 1),
                            check=lambda: _close(out, torch.log_softmax(xf, 1), dtype)),
        "layer norm": dict(bytes=2 * x.numel() * size, tritium=lambda: mk.layer_norm(x, w, b, out, mean, rstd),
                           torch=lambda: F.layer_norm(x, (cols, ), w, b),
                           check=lambda: _close(out, F.layer_norm(xf, (cols, ), w.float(), b.float()), dtype)),
        "layer norm backward": dict(
            bytes=3 * x.numel() * size,
            setup=lambda: mk.layer_norm(x, w, b, out, mean, rstd),
            tritium=lambda: mk.layer_norm_backward(dy, x, w, mean, rstd, dx, dw, db), torch=ln_backward_torch,
            check=ln_backward_check),
        "RMS norm": dict(bytes=2 * x.numel() * size, tritium=lambda: mk.rms_norm(x, w, out),
                         torch=lambda: F.rms_norm(x, (cols, ), w, 1e-6),
                         check=lambda: _close(out, F.rms_norm(xf, (cols, ), w.float(), 1e-6), dtype)),
        "GELU + layer norm (Inductor's)": dict(
            bytes=2 * x.numel() * size, tritium=lambda: mk.gelu_layer_norm(x, w, b, out),
            torch=lambda: F.layer_norm(F.gelu(x), (cols, ), w, b),
            check=lambda: _close(out, F.layer_norm(F.gelu(xf), (cols, ), w.float(), b.float()), dtype,
                                 atol=2e-2 if dtype == BF16 else 1e-4)),
        "cross-entropy": dict(bytes=x.numel() * size, tritium=lambda: mk.cross_entropy(x, target, loss),
                              torch=lambda: F.cross_entropy(x, target, reduction="none"),
                              check=lambda: _close(loss, F.cross_entropy(xf, target, reduction="none"))),
    }


def reduction_cases(rows, cols):
    x = torch.randn(rows, cols)
    xn = x.numpy()
    out, out2 = torch.empty(rows), torch.empty(rows)
    arg = torch.empty(rows, dtype=torch.int64)
    colsum, colvar = torch.empty(cols), torch.empty(cols)
    scanned = torch.empty_like(x)
    n = x.numel() * 4
    return {
        "sum over rows": dict(bytes=n, tritium=lambda: mk.reduce_rows("sum", x, out), torch=lambda: x.sum(1),
                              numpy=lambda: xn.sum(1), check=lambda: _close(out, x.sum(1), atol=1e-3)),
        "sum over columns": dict(bytes=n, tritium=lambda: mk.sum_columns(x, colsum), torch=lambda: x.sum(0),
                                 numpy=lambda: xn.sum(0), check=lambda: _close(colsum, x.sum(0), atol=1e-3)),
        "sum over columns (Inductor's tiles)": dict(
            bytes=n, tritium=lambda: mk.sum_columns_inductor(x, colsum), torch=lambda: x.sum(0), numpy=lambda: xn.sum(0),
            check=lambda: _close(colsum, x.sum(0), atol=1e-3)),
        "max over rows": dict(bytes=n, tritium=lambda: mk.reduce_rows("max", x, out), torch=lambda: x.amax(1),
                              numpy=lambda: xn.max(1), check=lambda: _close(out, x.amax(1))),
        "argmax over rows": dict(bytes=n, tritium=lambda: mk.reduce_rows("argmax", x, arg), torch=lambda: x.argmax(1),
                                 numpy=lambda: xn.argmax(1),
                                 check=lambda: torch.testing.assert_close(arg, x.argmax(1))),
        "var/mean over columns (Inductor's Welford)": dict(
            bytes=n, tritium=lambda: mk.var_mean_columns_inductor(x, colsum, colvar),
            torch=lambda: torch.var_mean(x, 0, correction=0), numpy=lambda: xn.var(0),
            check=lambda: (_close(colsum, x.mean(0), atol=1e-4), _close(colvar, x.var(0, correction=0), atol=1e-4))),
        "var/mean over rows": dict(bytes=n, tritium=lambda: mk.reduce_rows("var_mean", x, out, out2),
                                   torch=lambda: torch.var_mean(x, 1, correction=0), numpy=lambda: xn.var(1),
                                   check=lambda: _close(out, x.var(1, correction=0), atol=1e-4)),
        "cumsum over rows": dict(bytes=2 * n, tritium=lambda: mk.cumsum_rows(x, scanned),
                                 torch=lambda: torch.cumsum(x, 1), numpy=lambda: np.cumsum(xn, 1),
                                 check=lambda: torch.testing.assert_close(scanned, torch.cumsum(x, 1), rtol=1e-4,
                                                                          atol=1e-3)),
    }


def scatter_cases(lanes):
    # Inductor's max-pool backward: 2^21 gradients added to the winners of their 2x2 windows (atomics, 16 KB apart).
    window = torch.randint(0, 4, (lanes, ), dtype=torch.int8)
    value = torch.randn(lanes)
    out = torch.zeros(4 * lanes)
    positions, offsets = mk.scatter_add_inductor_lanes(window)
    gathered = value[positions]  # torch adds the values in lane order, gathered once beforehand
    expected = torch.zeros(4 * lanes).index_add_(0, offsets, gathered)
    return {"scatter-add (Inductor's max-pool backward)": dict(
        bytes=lanes * (1 + 4 + 2 * 4), setup=out.zero_, tritium=lambda: mk.scatter_add_inductor(window, value, out),
        torch=lambda: out.index_add_(0, offsets, gathered), numpy=None, check=lambda: _close(out, expected))}


def gbps(case, column):
    fn = case.get(column)
    if fn is None:
        return None
    return case["bytes"] / median_seconds(fn, min_time=0.15) / 1e9


@functools.cache  # once per size and thread count of a section: every kernel's plot shows it
def copy_bandwidth(nbytes, threads):
    src = torch.empty(max(1, nbytes // 8), dtype=torch.float32)
    dst = torch.empty_like(src)
    return 2 * src.numel() * 4 / median_seconds(lambda: dst.copy_(src), min_time=0.1) / 1e9


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one size before the next size
def cases_at(section, dtype, *shape):
    if section == "row":
        return row_cases(*shape, getattr(torch, dtype))
    return {"elementwise": elementwise_cases, "reduction": reduction_cases, "scatter": scatter_cases}[section](*shape)


def measure(provider, kernel, section, dtype, threads, size, copy_bytes, **shape):
    """GB/s of one implementation of one kernel at one size (None: numpy has no such operation)."""
    if provider == "copy":
        return copy_bandwidth(copy_bytes, threads)
    case = cases_at(section, dtype, *shape.values())[kernel]
    if provider == "tritium":  # the first line: the results are checked before anything is timed
        if "setup" in case:
            case["setup"]()
        case["tritium"]()
        case["check"]()
    return gbps(case, LINES[provider])


def run_section(title, section, dtype, x_names, x_vals, threads, only, save_path):
    """A plot per kernel and thread count (every line against the size), a table of them all. x_vals are
    (label, *shape, bytes the copy line moves)."""
    import tritium
    kernels = [name for name in cases_at(section, dtype, *x_vals[0][1:-1]) if not only or any(w in name for w in only)]
    if not kernels:
        return
    copy_bandwidth.cache_clear()  # measured anew for each section
    tables = []
    for thread_count in threads:
        tritium.set_num_threads(thread_count)
        torch.set_num_threads(thread_count)
        in_dtype = f", {dtype}" if section == "row" else ""
        benches = [report.benchmark(f"memory-bound: {name}{in_dtype}, {report.threads(thread_count)}", "GB/s", x_names,
                                    x_vals, list(LINES), kernel=name, section=section, dtype=dtype,
                                    threads=thread_count) for name in kernels]
        tables.append(report.run(measure, benches, save_path))
    table = pd.concat(tables, ignore_index=True)
    table["ratio"] = table["tritium"] / table["torch eager"]
    report.print_table(title, "GB/s", table, ["kernel", "size", "threads", "tritium", "torch eager", "numpy (1 thread)",
                                              "ratio", "copy"], formats={"ratio": "{:.2f}"})


def main():
    parser = report.parser(__doc__, "small sizes, all cores")
    parser.add_argument("--only", default="", help="comma-separated words: run the kernels whose names contain one")
    args = parser.parse_args()
    import tritium
    cores = os.cpu_count() or 1
    threads = [cores] if args.quick else sorted({1, cores})
    only = [w for w in args.only.split(",") if w]
    flags = report.cpu_features({"avx2", "fma", "avx512f", "avx512bw", "avx512_bf16", "avx512_fp16", "amx_bf16"})
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: {flags}")

    sizes = [1 << 16] if args.quick else [1 << 16, 1 << 20, 1 << 24]
    run_section("elementwise", "elementwise", "float32", ["size", "n", "copy_bytes"],
                [(f"2^{n.bit_length() - 1}", n, 12 * n) for n in sizes], threads, only, args.save_path)
    shapes = [(256, 256)] if args.quick else [(4096, 1024), (1024, 4096), (256, 256)]
    x_names = ["size", "rows", "cols", "copy_bytes"]
    for dtype in ("float32", "bfloat16"):
        run_section(f"row kernels, {dtype} in and out", "row", dtype, x_names,
                    [(f"{r}x{c}", r, c, 2 * r * c * 4) for r, c in shapes], threads, only, args.save_path)
    run_section("reductions and scans, float32", "reduction", "float32", x_names,
                [(f"{r}x{c}", r, c, r * c * 4) for r, c in shapes], threads, only, args.save_path)
    run_section("scatter-add through relaxed atomics, float32", "scatter", "float32", ["size", "lanes", "copy_bytes"],
                [("2^21", 1 << 21, 13 << 21)], threads, only, args.save_path)
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)


if __name__ == "__main__":
    main()
