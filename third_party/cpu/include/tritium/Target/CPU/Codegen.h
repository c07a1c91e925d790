//===- Codegen.h - LLVM IR and objects for the host CPU ---------*- C++ -*-===//

#ifndef TRITIUM_TARGET_CPU_CODEGEN_H
#define TRITIUM_TARGET_CPU_CODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace tritium::cpu {

/// Translates an LLVM-dialect module to LLVM IR for the host and optimizes it at O3 with the
/// host's CPU features (this is where loops are vectorized).
mlir::LogicalResult translateToOptimizedLLVMIR(mlir::ModuleOp module, std::string &llvmIR,
                                               std::string &error);
/// Compiles LLVM IR text to an ELF relocatable object for the host.
mlir::LogicalResult compileToObject(const std::string &llvmIR, std::string &object,
                                    std::string &error);
/// `<triple>-<cpu>-<features>`: objects are only valid on hosts with the same key.
std::string hostTargetKey();
/// The host CPU's features as code is generated for them: LLVM's view of the host, less those
/// TRITIUM_CPU_FEATURES turns off.
llvm::StringMap<bool> hostCPUFeatures();
/// The width of the vector registers code is generated for: 512 with AVX-512, else 256.
int64_t hostVectorBits();

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_CODEGEN_H
