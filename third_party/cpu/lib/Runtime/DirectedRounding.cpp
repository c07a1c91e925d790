//===- DirectedRounding.cpp - arithmetic rounded toward zero, -inf, +inf --===//
//
// libdevice's `add_rd`, `fma_rz`, `ll2float_ru`, ... round in a fixed direction. The CPU
// rounds every operation in the direction of its floating-point environment, so each function
// sets the direction, computes, and restores it. The operands and the result pass through
// volatile variables: the compiler can then neither compute the operation before the
// direction is set nor after it is restored.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Runtime.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <string>

namespace tritium::cpu {
namespace {

/// Runs `compute` with the rounding direction `mode`, restoring the caller's afterwards.
template <typename Result, typename Compute> Result inDirection(int mode, Compute compute) {
  int previous = std::fegetround();
  std::fesetround(mode);
  volatile Result result = compute();
  std::fesetround(previous);
  return result;
}

template <typename T, int Mode> T add(T a, T b) {
  volatile T x = a, y = b;
  return inDirection<T>(Mode, [&] { return T(x + y); });
}
template <typename T, int Mode> T sub(T a, T b) {
  volatile T x = a, y = b;
  return inDirection<T>(Mode, [&] { return T(x - y); });
}
template <typename T, int Mode> T mul(T a, T b) {
  volatile T x = a, y = b;
  return inDirection<T>(Mode, [&] { return T(x * y); });
}
template <typename T, int Mode> T div(T a, T b) {
  volatile T x = a, y = b;
  return inDirection<T>(Mode, [&] { return T(x / y); });
}
template <typename T, int Mode> T rcp(T a) {
  volatile T x = a;
  return inDirection<T>(Mode, [&] { return T(T(1) / x); });
}
template <typename T, int Mode> T sqrt(T a) {
  volatile T x = a;
  return inDirection<T>(Mode, [&] { return T(std::sqrt(T(x))); });
}
template <typename T, int Mode> T fma(T a, T b, T c) {
  volatile T x = a, y = b, z = c;
  return inDirection<T>(Mode, [&] { return T(std::fma(T(x), T(y), T(z))); });
}
/// Conversions; 64-bit integers go through long double, which holds them exactly, so the one
/// rounding is the conversion to `To` in the chosen direction.
template <typename To, typename From, int Mode> To convert(From a) {
  volatile From x = a;
  return inDirection<To>(Mode, [&] { return To(static_cast<long double>(From(x))); });
}

template <int Mode>
void addMode(std::vector<std::pair<std::string, void *>> &out, const char *mode) {
  auto put = [&](std::string name, void *address) {
    out.emplace_back("tritium_" + name + "_" + mode, address);
  };
  put("fadd", reinterpret_cast<void *>(&add<float, Mode>));
  put("dadd", reinterpret_cast<void *>(&add<double, Mode>));
  put("fsub", reinterpret_cast<void *>(&sub<float, Mode>));
  put("dsub", reinterpret_cast<void *>(&sub<double, Mode>));
  put("fmul", reinterpret_cast<void *>(&mul<float, Mode>));
  put("dmul", reinterpret_cast<void *>(&mul<double, Mode>));
  put("fdiv", reinterpret_cast<void *>(&div<float, Mode>));
  put("ddiv", reinterpret_cast<void *>(&div<double, Mode>));
  put("frcp", reinterpret_cast<void *>(&rcp<float, Mode>));
  put("drcp", reinterpret_cast<void *>(&rcp<double, Mode>));
  put("fsqrt", reinterpret_cast<void *>(&sqrt<float, Mode>));
  put("dsqrt", reinterpret_cast<void *>(&sqrt<double, Mode>));
  put("fmaf", reinterpret_cast<void *>(&fma<float, Mode>));
  put("fma", reinterpret_cast<void *>(&fma<double, Mode>));
  put("double2float", reinterpret_cast<void *>(&convert<float, double, Mode>));
  put("int2float", reinterpret_cast<void *>(&convert<float, int32_t, Mode>));
  put("uint2float", reinterpret_cast<void *>(&convert<float, uint32_t, Mode>));
  put("ll2float", reinterpret_cast<void *>(&convert<float, int64_t, Mode>));
  put("ull2float", reinterpret_cast<void *>(&convert<float, uint64_t, Mode>));
  put("ll2double", reinterpret_cast<void *>(&convert<double, int64_t, Mode>));
  put("ull2double", reinterpret_cast<void *>(&convert<double, uint64_t, Mode>));
}

} // namespace

std::vector<std::pair<std::string, void *>> directedRoundingSymbols() {
  std::vector<std::pair<std::string, void *>> symbols;
  addMode<FE_TOWARDZERO>(symbols, "rz");
  addMode<FE_DOWNWARD>(symbols, "rd");
  addMode<FE_UPWARD>(symbols, "ru");
  return symbols;
}

} // namespace tritium::cpu
