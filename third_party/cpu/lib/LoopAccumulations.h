//===- LoopAccumulations.h - loops that fold values into one element -*- C++ -*-===//
//
// A reduction lowered to loops folds each value into one element of a local accumulator
// buffer: `%a = memref.load %acc[%i]`, `%r = op(%a, %x)`, `memref.store %r, %acc[%i]`, %i
// invariant in the loop. Passes that rewrite such loops (row maxima without NaN checks,
// reductions kept rolled) recognise them here.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LOOPACCUMULATIONS_H
#define TRITIUM_TARGET_CPU_LOOPACCUMULATIONS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace tritium::cpu {

/// One accumulator folded in a loop.
struct LoopAccumulation {
  mlir::memref::LoadOp load;   // %a = memref.load %acc[%i]
  mlir::Operation *combiner;   // %r = op(%a, %x), used only by the store
  mlir::memref::StoreOp store; // memref.store %r, %acc[%i]
  mlir::Value value;           // %x, the value folded in at each iteration
};

/// The accumulation that is all `loop` does to memory, if it is one: besides it the loop only
/// reads, and never the accumulator's buffer, which is a local allocation (a kernel argument
/// might alias what the loop reads).
std::optional<LoopAccumulation> loopAccumulationOf(mlir::scf::ForOp loop);

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_LOOPACCUMULATIONS_H
