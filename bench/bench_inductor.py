"""Models under eager, Inductor's C++ backend and Inductor with tritium: the time of an inference pass and of a
training step (forward, backward, AdamW step), at one thread and at all cores, and the compile time from
cold caches.

    python bench/bench_inductor.py                  # the realistic suite (bench/inductor_model_suite.py), ~40 min
    python bench/bench_inductor.py --suite tiny     # small models, where launches dominate
    python bench/bench_inductor.py --quick          # two tiny models at all cores (what CI runs)
    python bench/bench_inductor.py --models GPT BERT --modes training --threads 1
    python bench/bench_inductor.py --save-path DIR  # also every table as DIR/<title>.csv
    python bench/bench_inductor.py --dynamic        # compiled with dynamic=True (symbolic shapes)
    python bench/bench_inductor.py --dynamic-vs-static --threads 1 --modes inference   # tritium only, alternated

Each measurement runs in a process of its own with empty Inductor and Triton caches (TORCHINDUCTOR_CACHE_DIR,
TRITON_CACHE_DIR), its thread count fixed before compiling: Inductor's C++ backend builds its OpenMP thread
count into the code it generates. "compile" is the first call's time less a steady call's: Dynamo's tracing,
Inductor's code generation and the compiler behind it (tritium, or the C++ compiler). A training step
compiles the model with its loss (forward and backward graphs) and the optimizer's step.

--dynamic-vs-static measures Inductor + tritium only, static and dynamic=True processes alternated for a few
rounds (the VM's speed drifts between runs of the whole suite by more than the difference sought), and reports
the median of each and dynamic / static.
"""

import json
import math
import os
import subprocess
import sys
import tempfile

# The lines compiled, and how: tritium through its torch.compile backend, which also turns on Inductor's Triton
# matmul templates in tritium's configs (options={"cpu_backend": "triton"} alone leaves products on aten).
BACKENDS = {"Inductor C++": {"options": {"cpu_backend": "cpp"}}, "Inductor + tritium": {"backend": "tritium"}}
LINES = ["eager", *BACKENDS]
MODES = ["inference", "training"]
HERE = os.path.dirname(os.path.abspath(__file__))


def measure_here(suite, model, mode, line, threads, min_time, dynamic=False):
    """Milliseconds per call and seconds of compiling, in this process (a fresh one, caches empty)."""
    import time

    import torch
    sys.path.insert(0, HERE)
    import inductor_model_suite
    from timing import median_seconds

    torch.set_num_threads(threads)
    if line == "Inductor + tritium":
        import tritium
        tritium.set_num_threads(threads)
    training = mode == "training"
    case = inductor_model_suite.build(suite, model, training)

    def compiled(fn):
        if line == "eager":
            return fn
        return torch.compile(fn, dynamic=True if dynamic else None, **BACKENDS[line])

    if training:
        parameters = [p for p in case.module.parameters() if p.requires_grad]
        inputs_with_grads = [x for x in case.inputs if x.requires_grad]
        optimizer = torch.optim.AdamW(parameters, lr=1e-4, foreach=True) if parameters else None
        forward = compiled(lambda *inputs: case.loss(case.module(*inputs)))
        optimizer_step = compiled(optimizer.step) if optimizer else None

        def call():
            forward(*case.inputs).backward()
            if optimizer:
                optimizer_step()
                optimizer.zero_grad(set_to_none=True)
            for x in inputs_with_grads:
                x.grad = None
    else:
        forward = compiled(case.module)
        inputs = case.inputs

        def call():
            with torch.inference_mode():
                forward(*inputs)

    start = time.perf_counter()
    call()
    first = time.perf_counter() - start
    if line != "eager":
        # Inductor boots a pool of compile worker processes (each imports torch: seconds of CPU) and may
        # still be booting it when a fast compile ends; steady calls would share the cores with it.
        from torch._inductor.async_compile import shutdown_compile_workers
        shutdown_compile_workers()
    steady = median_seconds(call, min_time=min_time)
    return {"ms": steady * 1e3, "compile_s": max(first - steady, 0.0) if line != "eager" else math.nan}


def measure(suite, model, mode, line, threads, min_time, dynamic=False):
    """measure_here in a new process with empty caches; NaNs (and the error printed) if it fails."""
    with tempfile.TemporaryDirectory(prefix="tritium-bench-") as caches:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(caches, "inductor"),
                   TRITON_CACHE_DIR=os.path.join(caches, "triton"), OMP_NUM_THREADS=str(threads),
                   TRITIUM_NUM_THREADS=str(threads))
        request = json.dumps([suite, model, mode, line, threads, min_time, dynamic])
        result = subprocess.run([sys.executable, __file__, "--measure-here", request], env=env, capture_output=True,
                                text=True, timeout=1800)
    if result.returncode != 0 or not result.stdout.strip():
        print(f"{model}, {mode}, {line}, {threads} threads failed:\n{result.stderr[-3000:]}", file=sys.stderr)
        return {"ms": math.nan, "compile_s": math.nan}
    return json.loads(result.stdout.strip().splitlines()[-1])


def geomean(values):
    values = [v for v in values if v == v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else math.nan


def compare_dynamic_with_static(suite, models, modes, threads, min_time, rounds, save_path):
    """Inductor + tritium, static then dynamic=True, alternated `rounds` times per model; medians."""
    import statistics

    import pandas as pd

    import report
    line = "Inductor + tritium"
    for mode in modes:
        for count in threads:
            rows = []
            for model in models:
                times = {False: [], True: []}
                for _ in range(rounds):
                    for dynamic in (False, True):
                        times[dynamic].append(measure(suite, model, mode, line, count, min_time, dynamic)["ms"])
                static, dynamic = statistics.median(times[False]), statistics.median(times[True])
                rows.append({"model": model, "static (ms)": static, "dynamic (ms)": dynamic,
                             "dynamic / static": dynamic / static,
                             "rounds (static; dynamic)": "; ".join(
                                 " ".join(f"{t:.3g}" for t in times[d]) for d in (False, True))})
                print(f"  {mode}, {report.threads(count)}, {model}: {rows[-1]}", file=sys.stderr)
            rows.append({"model": "geomean", "dynamic / static": geomean([r["dynamic / static"] for r in rows])})
            title = f"Inductor + tritium, dynamic=True against static shapes, {mode}, {report.threads(count)}"
            part = pd.DataFrame(rows)
            report.print_table(title, "ms per call, median of the rounds", part, list(rows[0]), better="lower",
                               formats={"static (ms)": "{:.2f}", "dynamic (ms)": "{:.2f}",
                                        "dynamic / static": "{:.2f}"})
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                part.to_csv(os.path.join(save_path, title.lower().replace(", ", "-").replace(" ", "-") + ".csv"),
                            index=False)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--measure-here":
        print(json.dumps(measure_here(*json.loads(sys.argv[2]))))
        return
    sys.path.insert(0, HERE)
    import pandas as pd
    import torch

    import inductor_model_suite
    import report

    parser = report.parser(__doc__, "two tiny models, at all cores")
    parser.add_argument("--suite", choices=list(inductor_model_suite.SUITES), default="realistic")
    parser.add_argument("--models", nargs="+", default=[], metavar="TEXT",
                        help="only the models whose name contains one of these")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=MODES)
    parser.add_argument("--threads", nargs="+", type=int, default=[1, os.cpu_count()])
    parser.add_argument("--dynamic", action="store_true", help="torch.compile(..., dynamic=True): symbolic shapes")
    parser.add_argument("--dynamic-vs-static", action="store_true",
                        help="Inductor + tritium with static and with symbolic shapes, alternated")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --dynamic-vs-static")
    args = parser.parse_args()
    suite, models = args.suite, inductor_model_suite.names(args.suite)
    threads = sorted(set(args.threads))
    if args.quick:
        (suite, models), threads = inductor_model_suite.QUICK, [os.cpu_count()]
    models = [m for m in models if not args.models or any(text in m for text in args.models)]
    min_time = 0.2 if args.quick else 1.0
    print(f"torch {torch.__version__}, {os.cpu_count()} cores, CPU features: "
          f"{report.cpu_features(['avx2', 'avx512f', 'avx512_bf16', 'amx_bf16'])}")

    if args.dynamic_vs_static:
        compare_dynamic_with_static(suite, models, args.modes, threads, min_time, args.rounds, args.save_path)
        return

    rows = []
    for mode in args.modes:
        for count in threads:
            for model in models:
                row = {"mode": mode, "threads": count, "model": model}
                for line in LINES:
                    result = measure(suite, model, mode, line, count, min_time, args.dynamic)
                    row[f"{line} (ms)"] = result["ms"]
                    if line != "eager":
                        row[f"{line} compile (s)"] = result["compile_s"]
                row["speed-up over eager"] = row["eager (ms)"] / row["Inductor + tritium (ms)"]
                row["speed-up over C++"] = row["Inductor C++ (ms)"] / row["Inductor + tritium (ms)"]
                row["compile time / C++"] = row["Inductor + tritium compile (s)"] / row["Inductor C++ compile (s)"]
                rows.append(row)
                print(f"  {mode}, {report.threads(count)}, {model}: " + ", ".join(
                    f"{key} {value:.3g}" for key, value in row.items() if isinstance(value, float)), file=sys.stderr)
            done = [r for r in rows if r["mode"] == mode and r["threads"] == count]
            rows.append({"mode": mode, "threads": count, "model": "geomean",
                         **{key: geomean([r[key] for r in done]) for key in done[0] if key.startswith(("speed", "compile time"))}})

    table = pd.DataFrame(rows)
    columns = ["model", *(f"{line} (ms)" for line in LINES), "speed-up over eager", "speed-up over C++",
               *(f"{line} compile (s)" for line in BACKENDS), "compile time / C++"]
    formats = {**{f"{line} (ms)": "{:.2f}" for line in LINES}, **{f"{line} compile (s)": "{:.1f}" for line in BACKENDS},
               "speed-up over eager": "{:.2f}x", "speed-up over C++": "{:.2f}x", "compile time / C++": "{:.2f}x"}
    for (mode, count), part in table.groupby(["mode", "threads"], sort=False):
        title = f"Inductor{', dynamic shapes' if args.dynamic else ''}, {mode}, {report.threads(count)}"
        report.print_table(title, "ms per call; speed-ups", part, columns, better="higher speed-up",
                           formats=formats)
        if args.save_path:
            os.makedirs(args.save_path, exist_ok=True)
            part.to_csv(os.path.join(args.save_path, title.lower().replace(", ", "-").replace(" ", "-") + ".csv"),
                        index=False)


if __name__ == "__main__":
    main()
