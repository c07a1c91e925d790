//===- Passes.h - passes and pipelines of the CPU target --------*- C++ -*-===//

#ifndef TRITIUM_TARGET_CPU_PASSES_H
#define TRITIUM_TARGET_CPU_PASSES_H

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tritium::cpu {
#define GEN_PASS_DECL
#include "tritium/Target/CPU/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tritium/Target/CPU/Passes.h.inc"

/// Marks the generic tritium-cpu-pack-matmuls-for-amx builds for tritium-cpu-matmuls-to-amx-tiles.
constexpr llvm::StringLiteral kAMXTilesAttrName = "tritium.amx_tiles";

struct LinalgToLLVMOptions : public mlir::PassPipelineOptions<LinalgToLLVMOptions> {
  Option<bool> numpyExp{*this, "numpy-exp",
                        llvm::cl::desc("f32 exp as numpy computes it (the bits of Triton's "
                                       "interpreter; one division per element) instead of "
                                       "the division-free polynomial"),
                        llvm::cl::init(false)};
};

/// The linalg form (output of convert-triton-to-linalg) to the LLVM dialect, with kernel
/// entry points: fusion, bufferization, loops, LLVM. Registered as
/// `tritium-cpu-linalg-to-llvm`.
void buildLinalgToLLVMPipeline(mlir::OpPassManager &pm, const LinalgToLLVMOptions &options);
void registerCPUPipelines();
/// Memory effects of LLVM ops (atomics, assume, intrinsic calls), which buffer deallocation
/// requires.
void registerMemoryEffectsOfLLVMOps(mlir::DialectRegistry &registry);
} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_PASSES_H
