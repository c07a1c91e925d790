//===- DotProductMatmuls.h - which matmuls dot-product instructions take -*- C++ -*-===//
//
// One predicate for the passes that must agree on it: tritium-cpu-read-tiles-in-place caches
// the B tiles of these matmuls packed into 32-bit words of K neighbours (the layout
// tritium-cpu-matmuls-to-dot-product-instructions reads), and that pass takes them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_DOTPRODUCTMATMULS_H
#define TRITIUM_TARGET_CPU_LIB_DOTPRODUCTMATMULS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tritium::cpu {

/// The K neighbours one 32-bit lane of `vdpbf16ps` (2 bf16) or `vpdpbusd` (4 int8) sums
/// when `operation` is a static matmul on tensors that tritium-cpu-matmuls-to-dot-product-
/// instructions computes with them: bf16 x bf16 -> f32 (with `bf16`) or int8 x int8 -> int32
/// signed (with `int8`), M a multiple of 2 (the smallest register block's rows), N of 16 (a
/// vector's lanes), K of the group. Else 0.
inline int64_t dotProductKGroup(mlir::Operation *operation, bool bf16, bool int8) {
  auto op = llvm::dyn_cast<mlir::linalg::MatmulOp>(operation);
  if (!op || (!bf16 && !int8) || op.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return 0;
  auto a = llvm::cast<mlir::RankedTensorType>(op.getDpsInputs()[0].getType());
  auto b = llvm::cast<mlir::RankedTensorType>(op.getDpsInputs()[1].getType());
  auto c = llvm::cast<mlir::RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return 0;
  mlir::Type ea = a.getElementType(), eb = b.getElementType(), ec = c.getElementType();
  int64_t group = 0;
  if (bf16 && ea.isBF16() && eb.isBF16() && ec.isF32())
    group = 2;
  else if (int8 && ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32) &&
           op.getCast() == mlir::linalg::TypeFn::cast_signed)
    group = 4;
  if (!group || c.getDimSize(0) % 2 != 0 || c.getDimSize(1) % 16 != 0 ||
      a.getDimSize(1) % group != 0)
    return 0;
  return group;
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_DOTPRODUCTMATMULS_H
