//===- AMXTileGeneric.h - the generic AMX tiles compute ---------*- C++ -*-===//
//
// tritium-cpu-pack-matmuls-for-amx builds it, tritium-cpu-merge-amx-matmuls-across-k-iterations
// merges several into one and tritium-cpu-matmuls-to-amx-tiles turns it into tile
// instructions. It is a linalg.generic over (m, n, kk, j) marked `tritium.amx_tiles`:
//
//   C[m, n] += sum over products p of A_p[m, kk, j] * B_p[kk, n, j]
//
// with each A_p a [M, K/g, g] view of a [M, K] operand and each B_p packed as values
// [K/g, N, g] or as 32-bit words of g K neighbours [K/g, N] (its j-th value in bits j*8*s).
// Run as loops it computes the matmuls as written.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_AMXTILEGENERIC_H
#define TRITIUM_TARGET_CPU_LIB_AMXTILEGENERIC_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tritium::cpu {

/// Rows of an AMX tile, and the columns of a C tile (16 x 32-bit lanes of 64 bytes).
constexpr int64_t kAMXTileRows = 16;
/// Tile steps (16 K groups each) a C tile sums between its load and its store: the tile pass's
/// run length, and the run the merge pass unrolls a kernel's K loop to give it.
constexpr int64_t kAMXStepsPerCRoundTrip = 8;

/// One product of a tile generic: A grouped [M, K/g, g] and B packed.
struct AMXTileProduct {
  mlir::Value groupedA, packedB;
};

/// The marked generic summing `products` (all of the same shapes) into `init`.
mlir::Value buildAMXTileGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                llvm::ArrayRef<AMXTileProduct> products, mlir::Value init);

/// The products of a marked generic (its inputs taken in pairs).
llvm::SmallVector<AMXTileProduct> amxTileProducts(mlir::linalg::GenericOp op);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_AMXTILEGENERIC_H
