//===- KLoopUnrolling.h - K loops unrolled into longer C runs ---*- C++ -*-===//
//
// A kernel's `acc = tl.dot(a, b, acc)` sums one K step into C per iteration of its K loop. Two
// passes unroll such a loop so that the unrolled iterations' products are summed by one C
// round trip: tritium-cpu-matmuls-to-dot-product-instructions (linalg.matmul chains) and
// tritium-cpu-merge-amx-matmuls-across-k-iterations (AMX tile generics). They share what
// the unrolling itself takes.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_KLOOPUNROLLING_H
#define TRITIUM_TARGET_CPU_LIB_KLOOPUNROLLING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace tritium::cpu {

/// The position of the iter_arg of the scf.for directly around `op` that `op` updates: its
/// one init is that iter_arg, its one result is yielded there, and nothing else reads either
/// (a kernel's `acc = tl.dot(a, b, acc)`). Else nothing.
std::optional<unsigned> accumulatedIterArg(mlir::Operation *op);

/// Unrolls each loop of `factors` by its factor (at most its static trip count; loops left
/// with a factor below 2 stay as they are) and calls `unrolled` with each loop as it was (a key
/// only: unrolling may have replaced it) and its unrolled main loop, if one is left (a loop
/// that now runs once is replaced by its body).
/// Where anything was unrolled, the lookup windows of `function`'s operand tile cache are
/// bounded again: the unrolled iterations' tiles are read after all their lookups.
void unrollKLoops(mlir::FunctionOpInterface function,
                  const llvm::MapVector<mlir::scf::ForOp, int64_t> &factors,
                  llvm::function_ref<void(mlir::scf::ForOp, mlir::scf::ForOp)> unrolled);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LIB_KLOOPUNROLLING_H
