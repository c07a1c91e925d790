//===- DeviceLibrary.cpp - print and assert for CPU kernels ---------------===//
//
// The functions of DeviceRuntimeFunctions.h. Kernels reach them through absolute symbols the
// loader defines in every kernel's JIT library: this extension's own symbols are hidden.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/DeviceRuntimeFunctions.h"
#include "tritium/Target/CPU/Runtime.h"

#include <cinttypes>
#include <cstdio>
#include <mutex>

namespace tritium::cpu {
namespace {

std::mutex outputMutex;
std::mutex assertMutex;
std::string firstAssertFailure;

void printPrefix(const char *prefix, int32_t px, int32_t py, int32_t pz, int32_t rank,
                 int64_t i0, int64_t i1, int64_t i2) {
  std::fprintf(stdout, "pid (%d, %d, %d)", px, py, pz);
  if (rank > 0) {
    int64_t index[3] = {i0, i1, i2};
    std::fprintf(stdout, " idx (");
    for (int32_t d = 0; d < rank && d < 3; ++d)
      std::fprintf(stdout, d ? ", %" PRId64 : "%" PRId64, index[d]);
    std::fprintf(stdout, ")");
  }
  std::fprintf(stdout, " %s", prefix);
}

extern "C" void tritiumPrintInt(const char *prefix, int32_t px, int32_t py, int32_t pz,
                                int32_t rank, int64_t i0, int64_t i1, int64_t i2, int64_t value,
                                int32_t bitWidth, int32_t flags) {
  std::lock_guard<std::mutex> lock(outputMutex);
  printPrefix(prefix, px, py, pz, rank, i0, i1, i2);
  if (rank >= 0) {
    if (flags & 2) {
      int digits = (bitWidth + 3) / 4;
      uint64_t bits = bitWidth >= 64 ? uint64_t(value) : uint64_t(value) & ((1ull << bitWidth) - 1);
      std::fprintf(stdout, ": 0x%0*" PRIx64, digits, bits);
    } else if (flags & 1) {
      std::fprintf(stdout, ": %" PRId64, value);
    } else {
      std::fprintf(stdout, ": %" PRIu64, uint64_t(value));
    }
  }
  std::fprintf(stdout, "\n");
  std::fflush(stdout);
}

extern "C" void tritiumPrintFloat(const char *prefix, int32_t px, int32_t py, int32_t pz,
                                  int32_t rank, int64_t i0, int64_t i1, int64_t i2,
                                  double value) {
  std::lock_guard<std::mutex> lock(outputMutex);
  printPrefix(prefix, px, py, pz, rank, i0, i1, i2);
  std::fprintf(stdout, ": %f\n", value);
  std::fflush(stdout);
}

extern "C" void tritiumAssertFail(const char *message, const char *file, int32_t line,
                                  const char *function, int32_t px, int32_t py, int32_t pz) {
  std::lock_guard<std::mutex> lock(assertMutex);
  if (!firstAssertFailure.empty())
    return;
  firstAssertFailure = std::string(file) + ":" + std::to_string(line) + ": " + function +
                       ": program (" + std::to_string(px) + ", " + std::to_string(py) + ", " +
                       std::to_string(pz) + "): Assertion `" + message + "` failed.";
}

} // namespace

std::vector<std::pair<std::string, void *>> deviceLibrarySymbols() {
  return {
      {device_runtime::kPrintInt, reinterpret_cast<void *>(&tritiumPrintInt)},
      {device_runtime::kPrintFloat, reinterpret_cast<void *>(&tritiumPrintFloat)},
      {device_runtime::kAssertFail, reinterpret_cast<void *>(&tritiumAssertFail)},
  };
}

bool takeAssertFailure(std::string &message) {
  std::lock_guard<std::mutex> lock(assertMutex);
  if (firstAssertFailure.empty())
    return false;
  message.swap(firstAssertFailure);
  firstAssertFailure.clear();
  return true;
}

} // namespace tritium::cpu
