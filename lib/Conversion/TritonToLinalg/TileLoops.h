//===- TileLoops.h - loop nests over a tile, shared by access patterns ----===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILELOOPS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILELOOPS_H

#include "mlir/IR/Builders.h"

namespace tritium {

/// Runs `body` for every index of `shape`, innermost dimension last.
void forEachIndex(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> shape,
                  llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> body);

/// The zero of `type` (null for pointers).
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

using ValueBuilder = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>;

/// `compute()` where the i1 `mask` holds and `otherwise()` where it does not (masked-off lanes
/// run nothing of `compute`); just `compute()` without a mask.
mlir::Value valueUnderMask(mlir::OpBuilder &b, mlir::Location loc, mlir::Value mask,
                           ValueBuilder compute, ValueBuilder otherwise);

/// Pointers are kept in tensors as i64 addresses.
mlir::Value asTensorElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// A fresh buffer for a tile result whose elements a loop nest will write; `asTensor` turns it
/// into the result tensor once written.
mlir::Value allocateTile(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type);
mlir::Value tileBufferAsTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer,
                               mlir::RankedTensorType type);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILELOOPS_H
