#!/usr/bin/env python3
"""Regenerate the fidelity corpus: stock Triton 3.9 IR for every kernel of the zoo in kernels/.

Run from the repository root (no GPU needed):

    python test/corpus/generate.py

For every entry of every kernels/<file>.py (a `KERNELS` dict, see below) it writes

    ttir/<file>__<entry>.ttir          TTIR after the NVIDIA backend's make_ttir, capability 80, no locations
    ttir_loc/<file>__<entry>.ttir      the same module printed with locations (paths relative to test/corpus,
                                       Triton's own sources as triton/...)
    ttir_sm90/<file>__<entry>.ttir     TTIR for capability 90, only where it differs from the sm80 TTIR
                                       (tensor descriptors survive make_ttir there; e4m3 fp8 is legal there)
    ttgir/sm80/<file>__<entry>.ttgir   TTGIR after the NVIDIA make_ttgir, capability 80, no locations
    ttgir/sm90/<file>__<entry>.ttgir   the same for capability 90
    ttgir/gfx942/<file>__<entry>.ttgir TTGIR after the AMD make_ttgir for gfx942 (wave64)
    inductor/<model>.ttir              TTIR that Inductor (cpu_backend="triton") hands to the active cpu backend
    MANIFEST.md                        what exists for each kernel, and the reason for everything that does not
    manifest.json                      the same, machine readable (partial runs with --only/--no-inductor
                                       update it and regenerate MANIFEST.md from it)

KERNELS format (in each kernels/*.py):

    KERNELS = {
        "entry": (signature, constexprs),
        "entry2": (signature, constexprs, extra),
    }

  signature   {param: type string} for the runtime parameters ("*fp32", "i32", "fp32",
              "tensordesc<fp16[32, 32]>", ...). constexpr parameters are filled in from `constexprs`.
  constexprs  {param: value} for every tl.constexpr parameter.
  extra       optional dict:
                fn       name of the @triton.jit function (default: the entry name), to compile one
                         function several ways
                options  backend options (num_warps, num_stages, debug, ...), same for every target
                attrs    {param: [[attr, value], ...]} specialization attributes for those parameters
                         ([] for none); the default is tt.divisibility = 16 on every pointer parameter
                         and nothing on scalars (the launcher's "D" specialization of 16-byte-aligned
                         tensors; integers divisible by 16 get it only where listed here)
                skip     {target: reason}: do not compile for that target; the reason goes to the manifest

Every entry is tried for every target. What the frontend or a pipeline rejects is recorded in the
manifest with the error (one line), never fatal. Each kernel file is compiled in a child process; a
compiler crash (abort/segfault) is recorded for the job that caused it and the child restarted after it.

The stages are called directly (frontend, make_ttir, make_ttgir), as triton.compile would with an
explicit GPUTarget; nothing after TTGIR runs, so no ptxas / no ROCm tools are needed. Kernel children
load only triton's in-tree backends (TRITON_BACKENDS_IN_TREE=1), and during each compile the active
driver is pinned to a stub that reports the compile target, so frontend checks that consult
`driver.active` see the target being compiled whatever is installed. Environment variables that alter
Triton/MLIR/Inductor behaviour are removed for the children; caches live in a fresh temporary directory.
The Inductor child, by contrast, uses the installed cpu backend (tritium) as Inductor would.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNEL_DIR = HERE / "kernels"
MARK = "@@CORPUS@@ "

# target key -> (backend, arch, warp size)
TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "gfx942": ("hip", "gfx942", 64),
}

# Environment variables that change what Triton / MLIR / Inductor produce are dropped for the children.
_ENV_PREFIXES = ("TRITON_", "MLIR_", "LLVM_", "AMDGCN_", "NVPTX_", "TORCHINDUCTOR_", "TORCH_COMPILE", "TORCHDYNAMO_",
                 "TORCH_LOGS", "TRITIUM_")
_ENV_NAMES = ("USE_IR_LOC", "DISABLE_PTXAS_OPT", "PTXAS_OPTIONS", "DISABLE_LLVM_OPT", "CC")


def child_env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_ENV_PREFIXES) and k not in _ENV_NAMES}
    env.update({
        "TRITON_CACHE_DIR": str(tmp / "triton-cache"),
        "TRITON_HOME": str(tmp / "triton-home"),
        "TRITON_DEFAULT_FP_FUSION": "1",  # 3.9's default, pinned (silences the 3.10 transition warning)
        "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor-cache"),
        "TORCHINDUCTOR_COMPILE_THREADS": "1",
        "TORCHINDUCTOR_FX_GRAPH_CACHE": "0",
        "TORCHINDUCTOR_AUTOGRAD_CACHE": "0",
        "TRITIUM_NUM_THREADS": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "CORPUS_TMP": str(tmp),
    })
    return env


# ----------------------------------------------------------------------------------------------------------------
# Text hygiene shared by the workers
# ----------------------------------------------------------------------------------------------------------------


def _path_rewrites():
    """(absolute prefix, replacement) pairs, longest first, that make paths machine independent."""
    import importlib.util
    pairs = [(str(HERE) + os.sep, "")]
    for package in ("triton", "torch", "tritium"):
        spec = importlib.util.find_spec(package)  # locates without importing
        if spec is not None and spec.origin:
            pairs.append((str(Path(spec.origin).resolve().parent.parent) + os.sep, ""))
    tmp = os.environ.get("CORPUS_TMP")
    if tmp:
        pairs.append((tmp, "<tmp>"))
    pairs.append((str(Path.home()) + os.sep, "~/"))
    return sorted(set(pairs), key=lambda p: -len(p[0]))


_REWRITES = None


def sanitize(text: str) -> str:
    global _REWRITES
    if _REWRITES is None:
        _REWRITES = _path_rewrites()
    # Build-machine paths inside assertion messages of the prebuilt libtriton (LLVM/MLIR headers).
    text = re.sub(r"(?:/[^\s\"':]+)*/(include|lib)/(mlir|llvm|triton)/", r"\1/\2/", text)
    for old, new in _REWRITES:
        text = text.replace(old, new)
    # Anything still absolute below a site-packages directory.
    text = re.sub(r"(?:/[^\s\"':]+)*/(?:site|dist)-packages/", "", text)
    return text


def one_line(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def describe_failure(exc: BaseException, diagnostics: str = "") -> str:
    """One line: the innermost meaningful error, with Triton's 'at L:C' when it gives one."""
    from triton.compiler.errors import CompilationError
    chain, seen = [], set()
    e = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        chain.append(e)
        e = e.__cause__ or e.__context__
    where = ""
    message = ""
    for e in chain:
        if isinstance(e, CompilationError):
            if not where and hasattr(e.node, "lineno"):
                where = f"at {e.node.lineno}:{e.node.col_offset}: "
            if e.error_message and not message:
                message = f"{type(e).__name__}: {str(e.error_message).strip().splitlines()[-1]}"
    if not message:
        inner = [e for e in chain if not isinstance(e, CompilationError)]
        e = inner[-1] if inner else chain[-1]
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        if isinstance(e, CompilationError):
            lines = lines[-1:]
        message = f"{type(e).__name__}: {lines[0]}" if lines else type(e).__name__
    diag = [l for l in diagnostics.splitlines() if "error:" in l]
    if diag:
        message += " | " + diag[0].strip()
    elif "PassManager" in message or "failed" in message:
        tail = [l for l in diagnostics.splitlines() if l.strip() and not l.startswith("warning")]
        if tail:
            message += " | " + tail[-1].strip()
    return one_line(sanitize(where + message))


class CaptureStderr:
    """Redirects file descriptor 2 (where MLIR prints diagnostics) to a file for the duration.

    The outermost capture of a process writes <tmp>/stderr-<pid>.txt, which the parent reads when the
    child dies mid-compile; nested captures use their own files."""
    depth = 0

    def __init__(self, tmpdir):
        self.tmpdir = Path(tmpdir)
        self.text = ""

    def __enter__(self):
        suffix = f"-{CaptureStderr.depth}" if CaptureStderr.depth else ""
        self.path = self.tmpdir / f"stderr-{os.getpid()}{suffix}.txt"
        CaptureStderr.depth += 1
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.file = open(self.path, "w+b")
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        CaptureStderr.depth -= 1
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()
        return False


def emit(record: dict):
    sys.stdout.write(MARK + json.dumps(record, sort_keys=True) + "\n")
    sys.stdout.flush()


# ----------------------------------------------------------------------------------------------------------------
# Kernel worker: compiles every entry of one kernels/<file>.py for every target
# ----------------------------------------------------------------------------------------------------------------


class _TargetDriver:
    """Stands in for triton.runtime.driver.active while compiling for `target`."""

    def __init__(self, target):
        self.target = target

    def get_current_target(self):
        return self.target


def _load_zoo_module(path: Path):
    spec = importlib.util.spec_from_file_location(f"corpus_kernels_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _complete_signature(fn, signature, constexprs):
    full = {}
    for p in fn.params:
        if p.name in constexprs:
            full[p.name] = "constexpr"
        elif p.name in signature:
            full[p.name] = signature[p.name]
        else:
            raise KeyError(f"parameter {p.name!r} has neither a type nor a constexpr value")
    unknown = set(signature) | set(constexprs)
    unknown -= {p.name for p in fn.params}
    if unknown:
        raise KeyError(f"unknown parameters {sorted(unknown)}")
    return full


def _attrs(fn, signature, override):
    override = override or {}
    attrs = {}
    for i, p in enumerate(fn.params):
        ty = signature[p.name]
        if p.name in override:
            if override[p.name]:
                attrs[(i, )] = [list(a) for a in override[p.name]]
        elif isinstance(ty, str) and ty.startswith("*"):
            attrs[(i, )] = [["tt.divisibility", 16]]
    return attrs


def _compile_for_target(module, entry, spec, key, tmp):
    """Yields records for one (entry, target). Never raises."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler.compiler import ASTSource, make_backend
    from triton.runtime import driver

    signature, constexprs = spec[0], spec[1]
    extra = spec[2] if len(spec) > 2 else {}
    base = {"kernel": entry, "target": key}
    if key in extra.get("skip", {}):
        yield dict(base, type="fail", stage="skipped", reason=extra["skip"][key])
        return
    target = GPUTarget(*TARGETS[key])
    stage = "setup"
    stderr = CaptureStderr(tmp)
    previous_driver = driver._active
    try:
        fn = getattr(module, extra.get("fn", entry))
        full_sig = _complete_signature(fn, signature, constexprs)
        src = ASTSource(fn, full_sig, constexprs, _attrs(fn, full_sig, extra.get("attrs")))
        driver.set_active(_TargetDriver(target))
        backend = make_backend(target)
        options = backend.parse_options(dict(extra.get("options", {})))
        context = ir.context()
        ir.load_dialects(context)
        backend.load_dialects(context)
        stages = {}
        backend.add_stages(stages, options, Language.TRITON)
        metadata = {}
        stage = "frontend"
        yield dict(base, type="begin", stage=stage)
        with stderr:
            mod = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                              context)
        stage = "ttir"
        yield dict(base, type="begin", stage=stage)
        with stderr:
            mod = stages["ttir"](mod, metadata)
        yield dict(base, type="ir", stage="ttir", text=sanitize(mod.str_nodebug()), text_loc=sanitize(str(mod)))
        stage = "ttgir"
        yield dict(base, type="begin", stage=stage)
        with stderr:
            mod = stages["ttgir"](mod, metadata)
        yield dict(base, type="ir", stage="ttgir", text=sanitize(mod.str_nodebug()))
    except Exception as exc:  # noqa: BLE001 - every failure is data for the manifest
        yield dict(base, type="fail", stage=stage, reason=describe_failure(exc, stderr.text))
    finally:
        driver._active = previous_driver
    yield dict(base, type="done")


def kernel_worker(path: Path, skip: set):
    import triton  # noqa: F401  (backends register before the kernels import triton.language)
    tmp = Path(os.environ.get("CORPUS_TMP", tempfile.gettempdir()))
    try:
        module = _load_zoo_module(path)
        kernels = module.KERNELS
    except Exception as exc:  # noqa: BLE001
        emit({"type": "load_fail", "reason": describe_failure(exc)})
        return
    emit({"type": "entries", "entries": list(kernels)})
    for entry, spec in kernels.items():
        for key in TARGETS:
            if f"{entry}:{key}" in skip:
                continue
            for record in _compile_for_target(module, entry, spec, key, tmp):
                emit(record)


# ----------------------------------------------------------------------------------------------------------------
# Inductor worker
# ----------------------------------------------------------------------------------------------------------------


def inductor_worker():
    import torch
    import triton
    import torch._inductor.config as inductor_config
    from torch._inductor import async_compile
    from triton import knobs
    from triton.backends import backends

    sys.path.insert(0, str(HERE))
    import inductor_models

    tmp = Path(os.environ.get("CORPUS_TMP", tempfile.gettempdir()))
    inductor_config.fx_graph_cache = False
    inductor_config.compile_threads = 1
    knobs.compilation.always_compile = True

    if "cpu" not in backends:
        emit({"type": "inductor_unavailable", "reason": "no 'cpu' Triton backend is installed"})
        return
    cpu_backend_cls = backends["cpu"].compiler
    emit({"type": "inductor_backend", "backend": f"{cpu_backend_cls.__module__}.{cpu_backend_cls.__name__}"})

    state = {"kernels": [], "current": None, "fallback": False}

    # 1. Record the TTIR the cpu backend receives: the input of its first stage after "ttir".
    from triton.backends.compiler import Language
    from triton.compiler.compiler import make_backend
    from triton.runtime import driver
    cpu_target = driver.active.get_current_target()
    probe_backend = make_backend(cpu_target)
    probe = {}
    probe_backend.add_stages(probe, probe_backend.parse_options({}), Language.TRITON)
    stage_names = list(probe)
    after_ttir = stage_names[stage_names.index("ttir") + 1] if "ttir" in stage_names[:-1] else None

    def install_stage_hooks():
        """Wraps the backend's make_<stage> functions: note each stage entered, keep the TTIR."""
        wrapped = []
        for stage in stage_names:
            hook_name = f"make_{stage}"
            original = cpu_backend_cls.__dict__.get(hook_name)
            if not isinstance(original, staticmethod):
                continue
            original = original.__func__

            def recording(mod, metadata, options, *rest, _stage=stage, _original=original):
                current = state["current"]
                if current is not None:
                    current["stage"] = _stage
                    if _stage == after_ttir:
                        current["ttir"] = mod.str_nodebug()
                return _original(mod, metadata, options, *rest)

            setattr(cpu_backend_cls, hook_name, staticmethod(recording))
            wrapped.append(hook_name)
        return wrapped

    hooked = install_stage_hooks() if after_ttir else []
    emit({"type": "inductor_hook", "stage": f"make_{after_ttir}" if f"make_{after_ttir}" in hooked else "none"})

    # 2. Wrap triton.compile: one record per compile Inductor asks for.
    original_compile = triton.compile

    def recording_compile(src, *args, **kwargs):
        record = {"name": getattr(src, "name", "?"), "ttir": None, "fallback": False, "error": None,
                  "failed_stage": None, "options": {}, "stage": "frontend"}
        opts = kwargs.get("options") or (args[1] if len(args) > 1 else None) or {}
        record["options"] = {k: opts[k] for k in sorted(opts) if k in ("num_warps", "num_stages", "debug")}
        state["kernels"].append(record)
        state["current"] = record
        stderr = CaptureStderr(tmp)
        try:
            with stderr:
                return original_compile(src, *args, **kwargs)
        except Exception as exc:
            record["error"] = describe_failure(exc, stderr.text)
            record["failed_stage"] = record["stage"]
            if record["ttir"] is None and not state["fallback"]:
                _inductor_fallback(src, args, kwargs, record)
            raise
        finally:
            state["current"] = None

    def _inductor_fallback(src, args, kwargs, record):
        """Frontend failed under the cpu backend: redo it with libdevice mapped to CUDA's libdevice."""
        from triton.language.extra.cuda import libdevice as cuda_libdevice
        original_map = cpu_backend_cls.get_module_map
        cpu_backend_cls.get_module_map = lambda self: {"triton.language.extra.libdevice": cuda_libdevice}
        state["fallback"] = True
        shadow = {"ttir": None, "stage": "frontend"}
        state["current"] = shadow
        try:
            with CaptureStderr(tmp):
                original_compile(src, *args, **kwargs)
        except Exception:
            pass
        finally:
            cpu_backend_cls.get_module_map = original_map
            state["fallback"] = False
            state["current"] = record
        if shadow["ttir"] is not None:
            record["ttir"] = shadow["ttir"]
            record["fallback"] = True

    triton.compile = recording_compile

    # 3. Keep going after a kernel fails so that every kernel of a model is compiled.
    class FailedKernel:

        def __init__(self, name, error):
            self.name, self.error = name, error

        def run(self, *args, **kwargs):
            raise RuntimeError(f"kernel {self.name} did not compile ({self.error}), see its line below")

    original_triton = async_compile.AsyncCompile.triton

    def tolerant_triton(self, kernel_name, source_code, *args, **kwargs):
        try:
            return original_triton(self, kernel_name, source_code, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            return FailedKernel(kernel_name, type(exc).__name__)

    async_compile.AsyncCompile.triton = tolerant_triton

    for name, build in inductor_models.MODELS.items():
        torch._dynamo.reset()
        torch.manual_seed(0)
        fn, inputs = build()
        state["kernels"] = []
        status = ""
        try:
            with CaptureStderr(tmp) as cap:
                expected = fn(*inputs)
                got = torch.compile(fn, options={"cpu_backend": "triton"})(*inputs)
            exp_list = expected if isinstance(expected, (tuple, list)) else [expected]
            got_list = got if isinstance(got, (tuple, list)) else [got]
            ok = all(torch.allclose(g.double(), e.double(), rtol=1e-4, atol=1e-4)
                     for g, e in zip(got_list, exp_list))
            status = "ran; matches eager" if ok else "ran; DIFFERS from eager"
        except Exception as exc:  # noqa: BLE001
            status = "did not run: " + describe_failure(exc)
        kernels = []
        for k in state["kernels"]:
            kernels.append({key: k[key] for key in ("name", "ttir", "fallback", "error", "failed_stage", "options")})
        emit({"type": "model", "model": name, "status": status, "kernels": kernels,
              "doc": one_line(inductor_models.DOCS.get(name, ""))})


# ----------------------------------------------------------------------------------------------------------------
# Parent: run the workers, write the corpus and the manifest
# ----------------------------------------------------------------------------------------------------------------


def _run_child(args, env, timeout=3600):
    """Runs this script as a worker; returns (exit code, records, stderr incl. diagnostics captured at a crash)."""
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())] + args, env=env, cwd=str(HERE),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err += f"\nerror: worker timed out after {timeout} s".encode()
    records = []
    for line in out.decode("utf-8", "replace").splitlines():
        if line.startswith(MARK):
            records.append(json.loads(line[len(MARK):]))
    err = err.decode("utf-8", "replace")
    captured = Path(env["CORPUS_TMP"]) / f"stderr-{proc.pid}.txt"
    if proc.returncode != 0 and captured.exists():
        err += "\n" + captured.read_text(errors="replace")
    captured.unlink(missing_ok=True)
    return proc.returncode, records, err


def _exit_reason(code, stderr_text):
    if code < 0:
        import signal
        try:
            what = f"signal {signal.Signals(-code).name}"
        except ValueError:
            what = f"signal {-code}"
    else:
        what = f"exit code {code}"
    lines = [l.strip() for l in stderr_text.splitlines() if l.strip()]
    errors = [l for l in lines if "error:" in l or "Assertion" in l or "LLVM ERROR" in l]
    detail = " | ".join(errors[:2]) if errors else (lines[-1] if lines else "")
    return one_line(sanitize(f"compiler process died ({what})" + (f": {detail}" if detail else "")))


def run_kernel_file(path: Path, env) -> dict:
    """All records for one kernel file, restarting the worker past any job that kills it."""
    done_jobs = set()
    result = {"entries": None, "load_fail": None, "records": []}
    for _attempt in range(200):
        skip = sorted(done_jobs)
        code, records, err = _run_child(["--worker", str(path), "--skip", json.dumps(skip)], env)
        open_job = None
        for r in records:
            if r["type"] == "entries":
                result["entries"] = r["entries"]
            elif r["type"] == "load_fail":
                result["load_fail"] = r["reason"]
            elif r["type"] == "begin":
                open_job = (r["kernel"], r["target"], r["stage"])
            elif r["type"] == "done":
                done_jobs.add(f"{r['kernel']}:{r['target']}")
                open_job = None
            if r["type"] in ("ir", "fail"):
                result["records"].append(r)
        if code == 0 and open_job is None:
            return result
        if open_job is None:
            result["load_fail"] = result["load_fail"] or _exit_reason(code, err)
            return result
        kernel, target, stage = open_job
        result["records"].append({"type": "fail", "kernel": kernel, "target": target, "stage": stage,
                                  "reason": _exit_reason(code, err)})
        done_jobs.add(f"{kernel}:{target}")
    raise RuntimeError(f"{path.name}: too many compiler crashes")


def _write(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text)


_LEAK = re.compile(r"(?<![\w.])/(?:work|tmp|home|root|usr|opt|var|private|Users)/")


def _check_no_leaks(out_dirs, files):
    bad = []
    for f in sorted(set(files) | {f for d in out_dirs for f in d.rglob("*") if f.is_file()}):
        if _LEAK.search(f.read_text(errors="replace")):
            bad.append(str(f.relative_to(HERE)))
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--skip", default="[]", help=argparse.SUPPRESS)
    parser.add_argument("--inductor-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", nargs="*", help="only these kernel files (stems); other outputs are kept")
    parser.add_argument("--no-inductor", action="store_true", help="skip the Inductor models")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    if args.worker:
        kernel_worker(Path(args.worker), set(json.loads(args.skip)))
        return
    if args.inductor_worker:
        inductor_worker()
        return

    files = sorted(p for p in KERNEL_DIR.glob("*.py") if not p.name.startswith("_"))
    if args.only:
        files = [p for p in files if p.stem in args.only]
    out_dirs = {
        "ttir": HERE / "ttir",
        "ttir_loc": HERE / "ttir_loc",
        "ttir_sm90": HERE / "ttir_sm90",
        "sm80": HERE / "ttgir" / "sm80",
        "sm90": HERE / "ttgir" / "sm90",
        "gfx942": HERE / "ttgir" / "gfx942",
        "inductor": HERE / "inductor",
    }
    tmp = Path(tempfile.mkdtemp(prefix="tritium-corpus-"))
    env = child_env(tmp)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # Kernel workers only need triton's in-tree nvidia/amd backends: whatever out-of-tree backend is
            # installed (and whatever state it is in) cannot influence or break them.
            kernel_env = dict(env, TRITON_BACKENDS_IN_TREE="1")
            futures = {p.stem: pool.submit(run_kernel_file, p, kernel_env) for p in files}
            if not args.no_inductor:
                inductor_future = pool.submit(_run_child, ["--inductor-worker"], env, 3600)
            results = {stem: f.result() for stem, f in futures.items()}
            inductor_result = None if args.no_inductor else inductor_future.result()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # manifest.json is the machine-readable form of MANIFEST.md; partial runs (--only, --no-inductor) update it.
    state_file = HERE / "manifest.json"
    previous = json.loads(state_file.read_text()) if state_file.exists() else {}
    if not args.only:
        previous["rows"] = {}

    # Outputs: wipe what we regenerate.
    for key, d in out_dirs.items():
        if key == "inductor":
            if not args.no_inductor and d.exists():
                shutil.rmtree(d)
            continue
        if d.exists():
            for f in d.glob("*"):
                if f.is_file() and (not args.only or f.name.split("__")[0] in args.only):
                    f.unlink()

    rows = dict(previous.get("rows", {}))
    for stem, res in results.items():
        rows[stem] = write_kernel_outputs(stem, res, out_dirs)
    inductor_rows = previous.get("inductor") if args.no_inductor else None
    if inductor_result is not None:
        inductor_rows = write_inductor_outputs(inductor_result, out_dirs["inductor"])
    _write(state_file, json.dumps({"rows": rows, "inductor": inductor_rows}, sort_keys=True, indent=1))
    write_manifest(rows, inductor_rows)

    leaks = _check_no_leaks([d for d in out_dirs.values() if d.exists()], [state_file, HERE / "MANIFEST.md"])
    if leaks:
        print("machine-specific absolute paths remain in:", *leaks, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    n = sum(len(r["entries"]) for r in rows.values())
    print(f"corpus: {n} kernels from {len(rows)} files; see {(HERE / 'MANIFEST.md').relative_to(Path.cwd())}"
          if HERE.is_relative_to(Path.cwd()) else f"corpus: {n} kernels")


def write_kernel_outputs(stem, res, out_dirs):
    row = {"entries": [], "load_fail": res["load_fail"]}
    by_key = {}
    for r in res["records"]:
        by_key.setdefault((r["kernel"], r["target"]), []).append(r)
    for entry in res["entries"] or []:
        name = f"{stem}__{entry}"
        info = {"name": name, "outputs": [], "failures": []}
        ttir = {}
        for key in TARGETS:
            for r in by_key.get((entry, key), []):
                if r["type"] == "fail":
                    info["failures"].append(f"{key} {r['stage']}: {r['reason']}")
                elif r["stage"] == "ttir":
                    ttir[key] = r
                elif r["stage"] == "ttgir":
                    _write(out_dirs[key] / f"{name}.ttgir", r["text"])
                    info["outputs"].append(f"ttgir/{key}")
        if "sm80" in ttir:
            _write(out_dirs["ttir"] / f"{name}.ttir", ttir["sm80"]["text"])
            _write(out_dirs["ttir_loc"] / f"{name}.ttir", ttir["sm80"]["text_loc"])
            info["outputs"] += ["ttir", "ttir_loc"]
        if "sm90" in ttir and ("sm80" not in ttir or ttir["sm90"]["text"] != ttir["sm80"]["text"]):
            _write(out_dirs["ttir_sm90"] / f"{name}.ttir", ttir["sm90"]["text"])
            info["outputs"].append("ttir_sm90")
        row["entries"].append(info)
    return row


def write_inductor_outputs(result, out_dir):
    code, records, err = result
    rows = {"backend": None, "hook": None, "models": [], "error": None}
    for r in records:
        if r["type"] == "inductor_backend":
            rows["backend"] = r["backend"]
        elif r["type"] == "inductor_hook":
            rows["hook"] = r["stage"]
        elif r["type"] == "inductor_unavailable":
            rows["error"] = r["reason"]
    if code != 0:
        rows["error"] = _exit_reason(code, err)
    for r in records:
        if r["type"] != "model":
            continue
        parts, seen, kernel_rows = [], set(), []
        counts, numbering = {}, {}
        for k in r["kernels"]:
            counts[k["name"]] = counts.get(k["name"], 0) + 1
        for k in r["kernels"]:
            label = k["name"]
            if counts[label] > 1:
                numbering[label] = numbering.get(label, 0) + 1
                label += f" (config {numbering[label]} of {counts[k['name']]})"
            note = ""
            if k["ttir"] is not None and k["ttir"] not in seen:
                seen.add(k["ttir"])
                origin = ("fallback: the cpu backend's frontend failed; TTIR from the same compile with "
                          "triton.language.extra.libdevice mapped to the CUDA libdevice"
                          if k["fallback"] else "TTIR as the cpu backend received it")
                parts.append(f"// kernel: {label}\n// options: {json.dumps(k['options'], sort_keys=True)}\n"
                             f"// {origin}\n{k['ttir'].rstrip()}\n")
                note = "ttir" + (" (fallback)" if k["fallback"] else "")
            elif k["ttir"] is not None:
                note = "ttir (same as an earlier config)"
            else:
                note = "no ttir"
            kernel_rows.append({"name": label, "note": note, "error": k["error"], "failed_stage": k["failed_stage"]})
        if parts:
            _write(out_dir / f"{r['model']}.ttir", "\n// -----\n\n".join(parts))
        rows["models"].append({"model": r["model"], "status": r["status"], "doc": r["doc"], "kernels": kernel_rows,
                               "file": f"inductor/{r['model']}.ttir" if parts else None})
    return rows


def write_manifest(rows, inductor_rows):
    out = []
    total = sum(len(r["entries"]) for r in rows.values())
    out.append("# Fidelity corpus manifest\n")
    out.append("Generated by `python test/corpus/generate.py` (stock triton 3.9.0 pipelines driven from Python, "
               "no GPU). Do not edit by hand.\n")
    out.append("Columns: `ttir` = `ttir/` (sm80, no locations) and `ttir_loc/` (sm80, with locations); "
               "`sm90-ttir` = `ttir_sm90/`, present only when the capability-90 TTIR differs from sm80's; "
               "`sm80`, `sm90`, `gfx942` = `ttgir/<target>/`. `yes` = written, `-` = not applicable/same, "
               "`FAIL` = see the reasons below the table.\n")
    out.append(f"{total} kernels in {len(rows)} files.\n")
    out.append("| kernel | ttir | sm90-ttir | sm80 | sm90 | gfx942 |")
    out.append("|---|---|---|---|---|---|")
    failures = []
    for stem in sorted(rows):
        row = rows[stem]
        if row["load_fail"]:
            failures.append(f"- `kernels/{stem}.py`: could not be loaded: {row['load_fail']}")
        for info in row["entries"]:
            outs = set(info["outputs"])
            failed_targets = {f.split(" ")[0] for f in info["failures"]}

            def cell(flag, target):
                if flag in outs:
                    return "yes"
                return "FAIL" if target in failed_targets else "-"

            out.append(f"| `{info['name']}` | {cell('ttir', 'sm80')} | "
                       f"{'yes' if 'ttir_sm90' in outs else '-'} | {cell('ttgir/sm80', 'sm80')} | "
                       f"{cell('ttgir/sm90', 'sm90')} | {cell('ttgir/gfx942', 'gfx942')} |")
            for f in info["failures"]:
                failures.append(f"- `{info['name']}` {f}")
    out.append("")
    out.append("## Failures and skips (one line each: target, stage, reason)\n")
    out.extend(failures or ["(none)"])
    out.append("")
    out.append("## Inductor (`inductor/`)\n")
    if inductor_rows is None:
        out.append("(not generated)")
    else:
        out.append("Models compiled with `torch.compile(fn, options={\"cpu_backend\": \"triton\"})`; the TTIR is "
                   f"recorded when the active cpu backend (`{inductor_rows.get('backend')}`) enters its "
                   f"`{inductor_rows.get('hook')}` stage, printed without locations. Modules of one model are "
                   "separated by `// -----`. A kernel whose frontend fails under the cpu backend gets a "
                   "fallback TTIR (marked in the file).\n")
        if inductor_rows.get("error"):
            out.append(f"Inductor worker: {inductor_rows['error']}\n")
        for m in inductor_rows["models"]:
            out.append(f"- `{m['model']}` ({m['doc']}): {m['file'] or 'no TTIR'}; {m['status']}")
            for k in m["kernels"]:
                line = f"  - `{k['name']}`: {k['note']}"
                if k["error"]:
                    line += f"; failed in stage {k['failed_stage']}: {k['error']}"
                out.append(line)
    out.append("")
    _write(HERE / "MANIFEST.md", "\n".join(out))


if __name__ == "__main__":
    main()
