//===- RecognizeNaNPropagatingMinMaxCombiners.cpp - Inductor's max as one op ===//
//
// Inductor reduces with `triton_helpers.maximum`: `where((a > b) | (a != a), a, b)`, a NaN
// wins as in torch.amax. As a combiner of three ops it has no known identity, so the reduction
// would be a tree of neighbouring pairs: thirteen passes of shuffles over a row of 8192, three
// to four times the time of `tl.max` over the same row. It is arith.maximumf but for the sign
// of a zero when +0 meets -0 (maximumf answers +0, the select its right operand) and for which
// NaN's payload survives, both of which the order of a reduction decides anyway; rewritten to
// that one op, the reduction folds from -inf in a single vectorized pass. `<` gives minimumf.
// Scans are left alone: their order is fixed.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tritium {
#define GEN_PASS_DEF_RECOGNIZENANPROPAGATINGMINMAXCOMBINERS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

enum class Extremum { None, Max, Min };

/// Which extremum `cmp` tests "a beats b" for (`a > b` or `b < a`: Max), or None.
Extremum beats(arith::CmpFOp cmp, Value a, Value b) {
  if (!cmp)
    return Extremum::None;
  arith::CmpFPredicate predicate = cmp.getPredicate();
  if (cmp.getLhs() == b && cmp.getRhs() == a) // b < a is a > b
    predicate = predicate == arith::CmpFPredicate::OLT   ? arith::CmpFPredicate::OGT
                : predicate == arith::CmpFPredicate::OGT ? arith::CmpFPredicate::OLT
                                                         : arith::CmpFPredicate::AlwaysFalse;
  else if (cmp.getLhs() != a || cmp.getRhs() != b)
    return Extremum::None;
  if (predicate == arith::CmpFPredicate::OGT)
    return Extremum::Max;
  if (predicate == arith::CmpFPredicate::OLT)
    return Extremum::Min;
  return Extremum::None;
}

/// Whether `cmp` is `a != a` (or "a is unordered with itself"): a is NaN.
bool isNaNTest(arith::CmpFOp cmp, Value a) {
  return cmp && cmp.getLhs() == a && cmp.getRhs() == a &&
         (cmp.getPredicate() == arith::CmpFPredicate::UNE ||
          cmp.getPredicate() == arith::CmpFPredicate::UNO);
}

/// Max or Min when the combiner of `op` is `select((a beats b) | isnan(a), a, b)` and nothing
/// else, over one float operand.
Extremum nanPropagatingExtremum(tt::ReduceOp op) {
  if (op.getSrcs().size() != 1 || !isa<FloatType>(getElementTypeOrSelf(op.getSrcs()[0].getType())))
    return Extremum::None;
  Block &body = op.getCombineOp().front();
  if (body.getNumArguments() != 2 || std::distance(body.begin(), body.end()) != 5)
    return Extremum::None;
  Value a = body.getArgument(0), b = body.getArgument(1);
  Operation *terminator = body.getTerminator();
  if (terminator->getNumOperands() != 1)
    return Extremum::None;
  auto select = terminator->getOperand(0).getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != &body || select.getTrueValue() != a ||
      select.getFalseValue() != b)
    return Extremum::None;
  auto either = select.getCondition().getDefiningOp<arith::OrIOp>();
  if (!either || either->getBlock() != &body)
    return Extremum::None;
  auto lhs = either.getLhs().getDefiningOp<arith::CmpFOp>();
  auto rhs = either.getRhs().getDefiningOp<arith::CmpFOp>();
  if (isNaNTest(lhs, a))
    std::swap(lhs, rhs);
  if (!isNaNTest(rhs, a) || lhs->getBlock() != &body || rhs->getBlock() != &body)
    return Extremum::None;
  return beats(lhs, a, b);
}

struct RecognizeNaNPropagatingMinMaxCombinersPass
    : impl::RecognizeNaNPropagatingMinMaxCombinersBase<RecognizeNaNPropagatingMinMaxCombinersPass> {
  void runOnOperation() override {
    getOperation().walk([](tt::ReduceOp op) {
      Extremum extremum = nanPropagatingExtremum(op);
      if (extremum == Extremum::None)
        return;
      Block &body = op.getCombineOp().front();
      Operation *terminator = body.getTerminator();
      Operation *select = terminator->getOperand(0).getDefiningOp();
      OpBuilder b(terminator);
      Value a = body.getArgument(0), other = body.getArgument(1);
      Value combined =
          extremum == Extremum::Max
              ? arith::MaximumFOp::create(b, select->getLoc(), a, other).getResult()
              : arith::MinimumFOp::create(b, select->getLoc(), a, other).getResult();
      terminator->setOperand(0, combined);
      // The select, the or and the two comparisons, users first.
      SmallVector<Operation *> dead;
      for (Operation &inner : body.without_terminator())
        if (&inner != combined.getDefiningOp())
          dead.push_back(&inner);
      for (Operation *inner : llvm::reverse(dead))
        inner->erase();
    });
  }
};

} // namespace
} // namespace tritium
