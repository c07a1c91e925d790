"""Console entry points for the native tools installed with tritium."""

import os
import sys


def _tool(name):
    return os.path.join(os.path.dirname(__file__), "bin", name)


def tritium_opt():
    path = _tool("tritium-opt")
    os.execv(path, [path] + sys.argv[1:])
