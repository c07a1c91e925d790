//===- OpenMPThreads.h - running a grid on the process's OpenMP threads ---===//

#ifndef TRITIUM_TARGET_CPU_LIB_RUNTIME_OPENMPTHREADS_H
#define TRITIUM_TARGET_CPU_LIB_RUNTIME_OPENMPTHREADS_H

#include "GridPrograms.h"

namespace tritium::cpu {

/// Whether the process has an OpenMP runtime with GNU's entry points loaded (libgomp, or
/// Intel's and LLVM's, which offer them too): torch's CPU builds bring one.
bool openMPRuntimeLoaded();

/// omp_get_max_threads() of the calling thread: what torch.set_num_threads set, else
/// OMP_NUM_THREADS, else every core. Requires openMPRuntimeLoaded().
int openMPMaxThreads();

/// Runs programs [first + alreadyRun, first + count) of `grid` on a team of `threads` OpenMP
/// threads, the caller's included, and returns when all have run. Each thread takes chunks of
/// its own part of [first, first + count) first, then of the others'. Requires
/// openMPRuntimeLoaded().
void runOnOpenMPThreads(const GridLaunch &grid, int64_t first, int64_t count, int64_t alreadyRun,
                        int threads);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_RUNTIME_OPENMPTHREADS_H
