//===- GridPrograms.cpp - running a range of a grid's programs on one thread ===//

#include "GridPrograms.h"

#include "RunningProgram.h"

#include <algorithm>
#include <chrono>

namespace tritium::cpu {
namespace {

// The caller shares a grid with other threads when the programs left would take it longer
// than this.
constexpr auto kWorthSharing = std::chrono::microseconds(4);

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
  // The clock is read after 1, 2, 4, 8, ... programs.
  int64_t started = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t checkpoint = 1; started < count; checkpoint *= 2) {
    int64_t stop = std::min(checkpoint, count);
    runPrograms(grid, first + started, first + stop);
    started = stop;
    auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed * (count - started) / started > kWorthSharing)
      break;
  }
  return started;
}

} // namespace tritium::cpu
