//===- AMXMatmuls.h - which matmuls AMX tiles compute -----------*- C++ -*-===//
//
// One predicate for the passes that must agree on it: the dot-product and widening passes
// leave these matmuls alone (before elementwise fusion), and tritium-cpu-pack-matmuls-for-amx
// takes them after it, so that no operand conversion is fused into the tile generic.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_AMXMATMULS_H
#define TRITIUM_TARGET_CPU_LIB_AMXMATMULS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tritium::cpu {

/// Marks the linalg.generic through which a matmul reads, as [K, N], a B tile that
/// tritium-cpu-read-tiles-in-place read packed ([K/g, N, g]): tritium-cpu-pack-matmuls-for-amx
/// takes the packed tile instead of packing the matmul's B. (A generic rather than a reshape
/// of a transpose: elementwise fusion would fold a reshape into the matmul.)
constexpr llvm::StringLiteral kUnpackedAMXTileAttrName = "tritium.unpacked_amx_tile";

/// The packed [K/g, N, g] tile `rhs` unpacks (the marked generic through which
/// tritium-cpu-read-tiles-in-place hands a B tile it read packed to the matmul), or null.
inline mlir::Value packedTileOf(mlir::Value rhs, int64_t group) {
  auto unpack = rhs.getDefiningOp<mlir::linalg::GenericOp>();
  if (!unpack || !unpack->hasAttr(kUnpackedAMXTileAttrName) || unpack.getNumDpsInputs() != 1)
    return nullptr;
  mlir::Value packed = unpack.getDpsInputs()[0];
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(packed.getType());
  if (!type || type.getRank() != 3 || type.getDimSize(2) != group)
    return nullptr;
  return packed;
}

/// The K neighbours one 32-bit lane of an AMX tile sums (its "group"): 2 bf16 or 4 int8. A
/// packed B tile is [K/g, N, g]: a group of a column of B is one 32-bit word of a tile row.
inline int64_t amxKGroupOf(mlir::Type element) { return 32 / element.getIntOrFloatBitWidth(); }

/// Whether `op` is a static bf16 x bf16 -> f32 (with `bf16`) or int8 x int8 -> int32 signed
/// (with `int8`) matmul on tensors whose shape divides into AMX tiles: M and N multiples of
/// 16, K of one tile row (64 bytes: 32 bf16, 64 int8).
inline bool isAMXMatmul(mlir::Operation *operation, bool bf16, bool int8) {
  auto op = llvm::dyn_cast<mlir::linalg::MatmulOp>(operation);
  if (!op || (!bf16 && !int8) || op.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return false;
  auto a = llvm::cast<mlir::RankedTensorType>(op.getDpsInputs()[0].getType());
  auto b = llvm::cast<mlir::RankedTensorType>(op.getDpsInputs()[1].getType());
  auto c = llvm::cast<mlir::RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return false;
  mlir::Type ea = a.getElementType(), eb = b.getElementType(), ec = c.getElementType();
  bool isBF16 = bf16 && ea.isBF16() && eb.isBF16() && ec.isF32();
  bool isInt8 = int8 && ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32) &&
                op.getCast() == mlir::linalg::TypeFn::cast_signed;
  if (!isBF16 && !isInt8)
    return false;
  int64_t tileK = 64 / (ea.getIntOrFloatBitWidth() / 8);
  return c.getDimSize(0) % 16 == 0 && c.getDimSize(1) % 16 == 0 && a.getDimSize(1) % tileK == 0;
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_AMXMATMULS_H
