"""Settings of tritium's CPU runtime."""

import os
import warnings

from . import _C

THREAD_POOLS = ("openmp", "tritium")

_environment_pool = os.environ.get("TRITIUM_THREAD_POOL")
if _environment_pool is not None and _environment_pool not in THREAD_POOLS:
    warnings.warn(
        f"tritium: TRITIUM_THREAD_POOL={_environment_pool!r} is not one of {', '.join(THREAD_POOLS)}; "
        "grids run on the default (openmp where the process has an OpenMP runtime, else tritium's own pool)",
        stacklevel=2)


def set_num_threads(threads: int) -> None:
    """Number of threads a kernel grid runs on (the caller's included).

    The default is the TRITIUM_NUM_THREADS environment variable; without it, where grids run on
    the process's OpenMP threads (see set_thread_pool), the calling thread's OpenMP thread count
    (what torch.set_num_threads set, else OMP_NUM_THREADS, else the number of cores); elsewhere
    OMP_NUM_THREADS (as for torch; torchrun sets it per rank), else the number of cores.
    """
    if threads < 1:
        raise ValueError(f"tritium: the thread count must be at least 1, got {threads}")
    _C.set_num_threads(int(threads))


def get_num_threads() -> int:
    return _C.get_num_threads()


def set_thread_pool(name: str) -> None:
    """Which threads run a grid whose programs are worth sharing between cores.

    "openmp" (the default): the threads of the process's OpenMP runtime, where one is loaded
    (torch's CPU builds bring one), so that kernels and torch's own operations share one set of
    threads; tritium's own pool where none is loaded. "tritium": always tritium's own pool.
    The TRITIUM_THREAD_POOL environment variable sets the default.
    """
    if name not in THREAD_POOLS:
        raise ValueError(f"tritium: the thread pool must be one of {', '.join(THREAD_POOLS)}, got {name!r}")
    _C.set_thread_pool(name == "openmp")


def get_thread_pool() -> str:
    """"openmp" if the next shared grid runs on the process's OpenMP threads, else "tritium"."""
    return "openmp" if _C.thread_pool_is_openmp() else "tritium"
