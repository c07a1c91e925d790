//===- GridPrograms.h - running a range of a grid's programs on one thread ===//
//
// What both ways of running a grid share: the loop over a range of programs, and the caller's
// first programs, run alone until what is left looks worth sharing with other threads.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_RUNTIME_GRIDPROGRAMS_H
#define TRITIUM_TARGET_CPU_LIB_RUNTIME_GRIDPROGRAMS_H

#include "tritium/Target/CPU/Runtime.h"

#include <chrono>
#include <cstdint>

namespace tritium::cpu {

/// A launch: the kernel, its arguments and its grid.
struct GridLaunch {
  KernelEntry entry;
  const uint64_t *args;
  int32_t gridX, gridY, gridZ;
  uint64_t launch; // the process-wide launch number (RunningProgram::launch)
};

/// Runs the programs with linear ids [begin, end), x fastest, on the calling thread. The
/// thread's RunningProgram names the program in flight for the fault reporter.
void runPrograms(const GridLaunch &grid, int64_t begin, int64_t end);

/// The programs a thread claims at once from a part of a grid of `count` programs split into
/// `parts`: a few chunks a part, enough for a thread that finished its own part to even the
/// others out.
inline int64_t chunkOfParts(int64_t count, int parts) {
  return count / (int64_t(parts) * 4) > 1 ? count / (int64_t(parts) * 4) : 1;
}

/// Runs programs first, first + 1, ... on the calling thread while the rest of
/// [first, first + count) would take it less time than handing them to other threads costs
/// (a grid of tiny programs never wakes a thread); returns how many it ran. None when the
/// kernel's programs took long enough at its last probe: a grid of a few long programs is
/// shared from its first.
int64_t runUntilWorthSharing(const GridLaunch &grid, int64_t first, int64_t count);

/// After a grid of `count` programs shared from its first program (runUntilWorthSharing ran
/// none) took `wall` on `threads` threads: what its programs take, for the next decision (a
/// kernel whose programs turn out short, or took long only at a cold first launch, is probed
/// again).
void noteSharedRun(const GridLaunch &grid, int64_t count, int threads,
                   std::chrono::steady_clock::duration wall);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_RUNTIME_GRIDPROGRAMS_H
