//===- GridPrograms.cpp - running a range of a grid's programs on one thread ===//

#include "GridPrograms.h"

#include "RunningProgram.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

namespace tritium::cpu {
namespace {

// The caller shares a grid with other threads when the programs left would take it longer
// than this.
constexpr auto kWorthSharing = std::chrono::microseconds(4);

/// What the caller last measured of a kernel: the time one of its programs took. A kernel
/// known to run long programs is shared from its first program: probing one program alone
/// first ran half of a grid of two programs (a persistent kernel's, one program per thread)
/// on the caller before the other thread started, at one thread's speed.
struct ProgramTime {
  KernelEntry entry = nullptr;
  std::chrono::steady_clock::duration each{};
  // A grid of `count` programs found far too short to share (the caller ran them all): the next
  // launches of as many programs run them all again without reading the clock, `trusted` more
  // times before the next probe. Reading it after 1, 2, 4, ... programs cost a grid of 64 tiny
  // programs on two threads ~0.15 us a launch, a fifth of the launch.
  int64_t count = 0;
  int trusted = 0;
};
/// Launches of a grid found too short to share that run without a probe before the next.
constexpr int kTrustedLaunches = 7;
// By the entry's address. Grids of several programs are launched under the pool's lock (one
// at a time), so plain reads and writes; a slot two kernels share only costs a probe.
std::array<ProgramTime, 64> programTimes;

ProgramTime &programTimeOf(KernelEntry entry) {
  return programTimes[(reinterpret_cast<uintptr_t>(entry) >> 4) % programTimes.size()];
}

} // namespace

void runPrograms(const GridLaunch &grid, int64_t begin, int64_t end) {
  if (begin >= end)
    return;
  // Ids are divided once, then stepped: a division per program costs more than a tiny program.
  int32_t x = int32_t(begin % grid.gridX);
  int32_t y = int32_t((begin / grid.gridX) % grid.gridY);
  int32_t z = int32_t(begin / (int64_t(grid.gridX) * grid.gridY));
  RunningProgram &current = runningProgram();
  current.gridX = grid.gridX;
  current.gridY = grid.gridY;
  current.gridZ = grid.gridZ;
  current.entry = grid.entry;
  current.launch = grid.launch;
  for (int64_t i = begin; i < end; ++i) {
    current.program = i;
    grid.entry(grid.args, x, y, z, grid.gridX, grid.gridY, grid.gridZ);
    if (++x == grid.gridX) {
      x = 0;
      if (++y == grid.gridY) {
        y = 0;
        ++z;
      }
    }
  }
  current.entry = nullptr;
}

int64_t runUntilWorthSharing(const GridLaunch &grid, int64_t first, int64_t count) {
  ProgramTime &known = programTimeOf(grid.entry);
  if (known.entry == grid.entry) {
    if (known.each * (count - 1) > kWorthSharing)
      return 0;
    if (known.count == count && known.trusted > 0) {
      --known.trusted;
      runPrograms(grid, first, first + count);
      return count;
    }
  }
  // The clock is read after 1, 2, 4, 8, ... programs.
  int64_t started = 0;
  auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration elapsed{};
  for (int64_t checkpoint = 1; started < count; checkpoint *= 2) {
    int64_t stop = std::min(checkpoint, count);
    runPrograms(grid, first + started, first + stop);
    started = stop;
    elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed * (count - started) / started > kWorthSharing)
      break;
  }
  // Trusted only when the whole grid took less than half of what would be worth sharing.
  bool farTooShort = started == count && elapsed * 2 <= kWorthSharing;
  known = {grid.entry, elapsed / started, count, farTooShort ? kTrustedLaunches : 0};
  return started;
}

void noteSharedRun(const GridLaunch &grid, int64_t count, int threads,
                   std::chrono::steady_clock::duration wall) {
  // `threads` ran the programs side by side: each took about wall * threads / count (or, for
  // tiny programs, that much hand-off), which the next launch's decision reads.
  programTimeOf(grid.entry) = {grid.entry, wall * threads / count, count, 0};
}

} // namespace tritium::cpu
