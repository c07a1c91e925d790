"""What the benchmarks share besides timing: the command line, running the measurements through Triton's
`perf_report` (as Triton's tutorials do: with --save-path DIR, every triton.testing.Benchmark writes
DIR/NAME.csv and the plot DIR/NAME.png) and printing the results as markdown tables."""

import argparse
import math
import numbers
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")  # plots are only ever saved, also on hosts without a display
matplotlib.rcParams["lines.marker"] = "o"  # a line of one size (--quick) is a single point: show it
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import triton.testing  # noqa: E402


def parser(doc, quick_help):
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--save-path", default="", metavar="DIR",
                        help="also write each table as DIR/NAME.csv and its plot as DIR/NAME.png")
    return parser


def benchmark(title, unit, x_names, x_vals, lines, x_log=False, y_log=False, **args):
    """One plot, titled `title` and saved under that name in lower case with "-" between words: `lines` (the
    implementations, each passed as `provider`) against the first of x_names. Every x name and every arg (a
    string or a number: each becomes a column) is passed to the measuring function too; the first x name
    may be a label (a string) followed by the numbers it stands for."""
    bench = triton.testing.Benchmark(x_names=x_names, x_vals=x_vals, line_arg="provider", line_vals=lines,
                                     line_names=lines, plot_name=re.sub(r"[^\w.+^]+", "-", title).strip("-").lower(),
                                     args=args, xlabel=x_names[0], ylabel=unit, x_log=x_log, y_log=y_log)
    bench.title = title
    return bench


def run(fn, benchmarks, save_path):
    """Measures fn(**x, provider=line, **args) for every x and line of the benchmarks with perf_report;
    returns one table of them all: the x columns, the args as columns, a column per line (its name
    without Triton's unit suffix, missing values NaN)."""
    if save_path:
        os.makedirs(save_path, exist_ok=True)  # Triton creates it only after writing into it
    plt.close("all")  # Triton leaves every figure open: one per benchmark from here on
    frames = triton.testing.perf_report(benchmarks)(fn).run(save_path=save_path, return_df=True)
    if save_path:
        # Triton's plots have no title, its set_xscale drops matplotlib's ticks for labels and long labels
        # are cut at the edges: mend those, save again.
        for bench, frame, number in zip(benchmarks, frames, plt.get_fignums()):
            figure = plt.figure(number)
            figure.axes[0].set_title(bench.title)
            labels = frame[bench.x_names[0]]
            if isinstance(labels.iloc[0], str):
                figure.axes[0].set_xticks(range(len(labels)), labels)
            figure.tight_layout()
            figure.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
        # Triton's index lists the plots of its own run only; a script runs it several times, and several
        # scripts may share the directory.
        plots = sorted(name for name in os.listdir(save_path) if name.endswith(".png"))
        with open(os.path.join(save_path, "results.html"), "w") as html:
            html.write("<html><body>\n" + "".join(f'<image src="{p}"/>\n' for p in plots) + "</body></html>\n")
    plt.close("all")
    tables = []
    for bench, frame in zip(benchmarks, frames):
        lines = {f"{name} ({bench.ylabel})": name for name in bench.line_names}
        frame = frame.rename(columns=lines).astype({name: float for name in lines.values()})
        tables.append(frame.assign(**bench.args))
    return pd.concat(tables, ignore_index=True)


def cell(value, spec=None):
    """A number as the tables show it: `spec` if given, else one decimal (three digits below 1); "—" if missing."""
    if isinstance(value, str):
        return value
    if value is None or math.isnan(value):
        return "—"
    if spec:
        return spec.format(value)
    if isinstance(value, numbers.Integral):
        return str(value)
    return f"{value:.1f}" if value >= 1 else f"{value:.3g}"


def print_table(title, unit, table, columns, better="higher", formats=None):
    """Prints these columns of the table in markdown, numbers as `cell` writes them (formats: column -> spec)."""
    formats = formats or {}
    print(f"\n## {title} ({unit}, {better} is better)\n")
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" for _ in columns) + "|")
    for row in table[columns].itertuples(index=False):
        print("| " + " | ".join(cell(value, formats.get(c)) for c, value in zip(columns, row)) + " |")
    sys.stdout.flush()


def threads(count):
    """How plot titles name a thread count."""
    return f"{count} thread" + "s" * (count != 1)


def cpu_features(names):
    """Those of the CPU features `names` that this host has (what the compiled code may use)."""
    if not os.path.exists("/proc/cpuinfo"):
        return ""
    with open("/proc/cpuinfo") as cpuinfo:
        return " ".join(sorted(set(cpuinfo.read().split()) & set(names)))
