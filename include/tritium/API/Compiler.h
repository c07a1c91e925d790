//===- Compiler.h - tritium's compiler as plain C++ -------------*- C++ -*-===//
//
// Text in, text (or bytes) out, std::string only: the Python bindings and any other host
// can drive every stage without seeing an MLIR or LLVM type.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_API_COMPILER_H
#define TRITIUM_API_COMPILER_H

#include <string>

namespace tritium::api {

/// `output` when `ok`; otherwise `error` holds one diagnostic per line, each
/// `<file>:<line>:<col>: error: <message>` when the location is known.
struct Result {
  bool ok = false;
  std::string output;
  std::string error;
};

/// Parses and verifies TTIR/TTGIR/linalg text, then prints it back.
Result parseAndPrint(const std::string &ir, bool withLocations);
/// Runs a textual pass pipeline, e.g. `builtin.module(canonicalize,cse)`.
Result runPassPipeline(const std::string &ir, const std::string &pipeline);
/// TTIR to the device-neutral linalg form. With `checkBounds`, every memory access is checked
/// against the range of the argument it reads or writes (see the check-memory-bounds pass).
Result convertTritonToLinalg(const std::string &ttir, bool checkBounds = false);
/// The linalg form to optimized LLVM IR for the host CPU. `numpyExp`: f32 exp computed as
/// numpy does (bit-identical to Triton's interpreter) instead of the faster polynomial.
Result lowerLinalgToLLVMIR(const std::string &linalg, bool numpyExp = false);
/// A module of the LLVM dialect as LLVM IR text, translated as it is (no optimization).
Result translateToLLVMIR(const std::string &llvmDialect);
/// LLVM IR to a relocatable object for the host CPU (bytes in `output`).
Result compileLLVMIRToObject(const std::string &llvmIR);
/// Host CPU name and features: part of every cache key, since objects are host-specific.
std::string hostTargetKey();

} // namespace tritium::api

#endif // TRITIUM_API_COMPILER_H
