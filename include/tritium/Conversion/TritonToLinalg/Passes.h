//===- Passes.h - TTIR to linalg conversion passes --------------*- C++ -*-===//

#ifndef TRITIUM_CONVERSION_TRITONTOLINALG_PASSES_H
#define TRITIUM_CONVERSION_TRITONTOLINALG_PASSES_H

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tritium {
#define GEN_PASS_DECL
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

#endif // TRITIUM_CONVERSION_TRITONTOLINALG_PASSES_H
