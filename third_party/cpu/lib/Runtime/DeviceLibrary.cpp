//===- DeviceLibrary.cpp - the device runtime functions of CPU kernels ----===//
//
// The functions of DeviceRuntimeFunctions.h. Kernels reach them through absolute symbols the
// loader defines in every kernel's JIT library: this extension's own symbols are hidden.
//
//===----------------------------------------------------------------------===//

#include "RunningProgram.h"
#include "tritium/Conversion/TritonToLinalg/DeviceRuntimeFunctions.h"
#include "tritium/Target/CPU/OperandTileCache.h"
#include "tritium/Target/CPU/Runtime.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
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
  // Triton's frontend formats the prefix as " name: ", separator included.
  std::fprintf(stdout, "%s", prefix);
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
      std::fprintf(stdout, "0x%0*" PRIx64, digits, bits);
    } else if (flags & 1) {
      std::fprintf(stdout, "%" PRId64, value);
    } else {
      std::fprintf(stdout, "%" PRIu64, uint64_t(value));
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
  std::fprintf(stdout, "%f\n", value);
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

extern "C" int32_t tritiumLaunchRunsAlone() { return runningProgram().runsAlone ? 1 : 0; }

extern "C" int64_t tritiumNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Conversions to 16-bit floats that LLVM calls when the CPU has no instruction for them (the
// compiler runtime's names). 16-bit results return in the low bits of xmm0, like a float.
uint16_t floatToBFloat16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40); // quiet NaN, sign kept
  return uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

uint16_t doubleToHalfBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = uint16_t((bits >> 48) & 0x8000);
  int exponent = int((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & 0xfffffffffffffull;
  if (exponent == 0x7ff)
    return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  int e = exponent - 1023 + 15;
  if (e >= 31)
    return sign | 0x7c00;
  // 1.mantissa with 52 fraction bits; keep 10 (normal) or fewer (subnormal), round to even.
  uint64_t significand = mantissa | (exponent ? (1ull << 52) : 0);
  int shift = 42 + (e <= 0 ? 1 - e : 0);
  if (shift > 63)
    return sign;
  uint64_t kept = significand >> shift;
  uint64_t rest = significand & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (e <= 0)
    return sign | uint16_t(kept); // subnormal (a carry into the exponent is still right)
  return sign | uint16_t((uint64_t(e) << 10) + (kept - (1ull << 10)));
}

float asFloatRegister(uint16_t bits) {
  uint32_t widened = bits;
  float result;
  std::memcpy(&result, &widened, sizeof(result));
  return result;
}

extern "C" float tritiumTruncSFBF2(float value) { return asFloatRegister(floatToBFloat16Bits(value)); }
extern "C" float tritiumTruncDFBF2(double value) {
  // Through float rounded to odd (an inexact result keeps its last bit set), so that the
  // rounding to bf16 is the only one that decides.
  float narrow = float(value);
  uint32_t bits;
  std::memcpy(&bits, &narrow, sizeof(bits));
  if (std::isfinite(narrow) && double(narrow) != value && !(bits & 1)) {
    bits += std::fabs(double(narrow)) < std::fabs(value) ? 1 : -1;
    std::memcpy(&narrow, &bits, sizeof(bits));
  }
  return asFloatRegister(floatToBFloat16Bits(narrow));
}
extern "C" float tritiumTruncDFHF2(double value) { return asFloatRegister(doubleToHalfBits(value)); }

} // namespace

extern "C" void *tritiumCachedOperandTile(const void *first, int64_t rowStride, int64_t rows,
                                         int64_t columns, int64_t elementBytes, int64_t layout,
                                         int64_t window, int32_t *fill);
extern "C" void tritiumNoteWrittenRange(uint64_t first, uint64_t end);

std::vector<std::pair<std::string, void *>> deviceLibrarySymbols() {
  std::vector<std::pair<std::string, void *>> symbols = {
      {device_runtime::kPrintInt, reinterpret_cast<void *>(&tritiumPrintInt)},
      {device_runtime::kPrintFloat, reinterpret_cast<void *>(&tritiumPrintFloat)},
      {device_runtime::kAssertFail, reinterpret_cast<void *>(&tritiumAssertFail)},
      {device_runtime::kNanoseconds, reinterpret_cast<void *>(&tritiumNanoseconds)},
      {device_runtime::kLaunchRunsAlone, reinterpret_cast<void *>(&tritiumLaunchRunsAlone)},
      {"__truncsfbf2", reinterpret_cast<void *>(&tritiumTruncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&tritiumTruncDFBF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&tritiumTruncDFHF2)},
      {kCachedOperandTile, reinterpret_cast<void *>(&tritiumCachedOperandTile)},
      {kNoteWrittenRange, reinterpret_cast<void *>(&tritiumNoteWrittenRange)},
  };
  for (auto &symbol : directedRoundingSymbols())
    symbols.push_back(std::move(symbol));
  return symbols;
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
