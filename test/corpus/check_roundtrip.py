"""Checks that tritium-opt parses, verifies and prints corpus files back identically.

    python test/corpus/check_roundtrip.py <tritium-opt> <corpus subdirectory> [--split] [--locations]

Blank lines and whitespace are ignored. With --locations the files carry `loc(...)` and
Triton's names for SSA values; tritium-opt prints with `--mlir-print-debuginfo
--mlir-use-nameloc-as-prefix`, and SSA names are ignored in the comparison (MLIR names block
arguments %argN where Triton uses their name locations).
"""

import argparse
import pathlib
import re
import subprocess
import sys

CORPUS = pathlib.Path(__file__).resolve().parent
SSA_NAME = re.compile(r"%[\w$.-]+")


def normalize(text, ignore_names):
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        if ignore_names:
            line = SSA_NAME.sub("%_", line)
        lines.append(" ".join(line.split()))
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("opt")
    parser.add_argument("directory")
    parser.add_argument("--split", action="store_true", help="files hold several modules (// -----)")
    parser.add_argument("--locations", action="store_true")
    args = parser.parse_args()
    files = sorted((CORPUS / args.directory).glob("*.ttir")) + sorted((CORPUS / args.directory).glob("*.ttgir"))
    if not files:
        sys.exit(f"no corpus files in {args.directory}")
    command = [args.opt]
    if args.split:
        command.append("-split-input-file")
    if args.locations:
        command += ["--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix"]
    failures = []
    for path in files:
        result = subprocess.run(command + [str(path)], capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"{path.name}: does not parse or verify:\n{result.stderr.strip()}")
            continue
        expected = normalize(path.read_text(), args.locations)
        actual = normalize(result.stdout, args.locations)
        if expected != actual:
            for i, (e, a) in enumerate(zip(expected, actual)):
                if e != a:
                    failures.append(f"{path.name}: line {i + 1} differs:\n  triton:  {e}\n  tritium: {a}")
                    break
            else:
                failures.append(f"{path.name}: {len(expected)} lines from triton, {len(actual)} printed back")
    print(f"{len(files) - len(failures)} of {len(files)} files in {args.directory} round-trip")
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
