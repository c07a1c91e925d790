"""Settings of tritium's CPU runtime."""

from . import _C


def set_num_threads(threads: int) -> None:
    """Number of threads a kernel grid runs on (the caller's included).

    The default is the TRITIUM_NUM_THREADS environment variable, else OMP_NUM_THREADS (as for
    torch; torchrun sets it per rank), else the number of cores.
    """
    if threads < 1:
        raise ValueError(f"tritium: the thread count must be at least 1, got {threads}")
    _C.set_num_threads(int(threads))


def get_num_threads() -> int:
    return _C.get_num_threads()
