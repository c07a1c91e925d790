//===- InductionVariableOffsets.h - `offset + i` in a loop's body -*- C++ -*-===//
//
// The materialized loops of tile accesses compute each element's index as `offset + i`, the
// loop's induction variable cast to an integer plus a loop-invariant offset (the program's
// start). Passes that reason about those indices (mask bounds, divisions) recognise them here.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_INDUCTIONVARIABLEOFFSETS_H
#define TRITIUM_TARGET_CPU_INDUCTIONVARIABLEOFFSETS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tritium::cpu {

/// An integer `value` that is `offset + index_cast(iv)` (or the cast alone, `offset` null)
/// with `offset` defined outside `loop`.
struct InductionVariableOffset {
  mlir::Value offset;
};

inline std::optional<InductionVariableOffset> matchInductionVariableOffset(mlir::scf::ForOp loop,
                                                                           mlir::Value value) {
  auto isCastOfIV = [&](mlir::Value v) {
    auto cast = v.getDefiningOp<mlir::arith::IndexCastOp>();
    return cast && cast.getIn() == loop.getInductionVar();
  };
  if (isCastOfIV(value))
    return InductionVariableOffset{mlir::Value()};
  auto add = value.getDefiningOp<mlir::arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [iv, offset] : {std::pair(add.getLhs(), add.getRhs()), {add.getRhs(), add.getLhs()}})
    if (isCastOfIV(iv) && loop.isDefinedOutsideOfLoop(offset))
      return InductionVariableOffset{offset};
  return std::nullopt;
}

/// `v` (an integer of at most 64 bits, or an index) as an i64, sign-extended: the width in
/// which these passes compute iteration bounds without overflow.
inline mlir::Value widenToI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v) {
  mlir::Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return mlir::arith::IndexCastOp::create(b, loc, i64, v);
  if (v.getType().getIntOrFloatBitWidth() < 64)
    return mlir::arith::ExtSIOp::create(b, loc, i64, v);
  return v;
}

/// The loops these passes rewrite: constant bounds within int32, step 1, at least
/// `minTripCount` iterations (so that the cast of the induction variable is exact).
inline bool isStaticUnitStepLoop(mlir::scf::ForOp loop, int64_t minTripCount) {
  std::optional<int64_t> lb = mlir::getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = mlir::getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = mlir::getConstantIntValue(loop.getStep());
  return lb && ub && step && *step == 1 && *lb >= 0 && *ub - *lb >= minTripCount &&
         *ub <= std::numeric_limits<int32_t>::max();
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_INDUCTIONVARIABLEOFFSETS_H
