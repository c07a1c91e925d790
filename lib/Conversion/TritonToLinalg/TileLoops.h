//===- TileLoops.h - loop nests over a tile, shared by access patterns ----===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILELOOPS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILELOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tritium {

/// Runs `body` for every index of `shape`, innermost dimension last; returns the loops,
/// outermost first.
llvm::SmallVector<mlir::scf::ForOp>
forEachIndex(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> shape,
             llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> body);

/// `tile` (a tensor) with each element replaced by `element(indices, current)`, where `current`
/// is the tile as updated so far: a loop nest whose iterations update it in place, each index
/// once, so an element read at its own index before it is written is still the old one.
mlir::Value updateEachElement(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value tile,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange, mlir::Value)>
        element);

/// Tells LLVM that no iteration of `loops` (a nest) depends on another through the LLVM
/// loads and stores in them (`!llvm.access.group` and the loops' `parallel_accesses`), so it
/// vectorizes them without checking at run time that the pointers do not overlap, a check
/// that fails where a store writes what a load of the same index reads through another
/// argument (Inductor's in-place optimizer updates). Accesses lowered later (tile buffers)
/// are outside the group, and LLVM then analyses the loop as before.
void markIterationsIndependent(llvm::ArrayRef<mlir::scf::ForOp> loops);

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
