//===- PairAxisMatchers.h - shapes of IR the pair-axis folds match ---*- C++ -*-===//
//
// What fold-pair-xor-sums-into-reversals and fold-one-hot-pair-sums-into-slices both recognize:
// a reduction's zero init, and a generic that only copies its one input (a broadcast or a read
// through a map).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_PAIRAXISMATCHERS_H
#define TRITIUM_TARGET_CPU_PAIRAXISMATCHERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

namespace tritium::cpu {

/// Whether `init` is a tensor of zeros (a fill with zero or a zero splat).
inline bool isZeroTensor(mlir::Value init) {
  if (auto fill = init.getDefiningOp<mlir::linalg::FillOp>())
    return mlir::matchPattern(fill.getInputs()[0], mlir::m_Zero());
  return mlir::matchPattern(init, mlir::m_Zero());
}

/// Whether `op` has one input and one init and its body only yields the input's element.
inline bool isPlainCopy(mlir::linalg::GenericOp op) {
  mlir::Block *body = op.getBody();
  return op.getNumDpsInputs() == 1 && op.getNumDpsInits() == 1 &&
         body->getOperations().size() == 1 &&
         body->getTerminator()->getOperand(0) == body->getArgument(0);
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_PAIRAXISMATCHERS_H
