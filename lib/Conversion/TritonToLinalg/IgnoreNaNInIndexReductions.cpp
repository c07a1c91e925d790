//===- IgnoreNaNInIndexReductions.cpp - argmin/argmax skip NaN ------------===//
//
// Triton's argmin/argmax combiner keeps the left value only when `left > right` (or `<`);
// with a NaN on either side the comparison is false, so which lane wins depends on where the
// NaN falls in the reduction tree: a row [1, NaN, 3] padded with -inf answers 2 or the padding.
// Triton's interpreter answers with numpy's nanargmax/nanargmin: the best non-NaN value. Here
// the comparison of Triton's own combiner becomes "left is better, or right is NaN, and left is
// not NaN", which gives that answer in any tree order (all-NaN rows give a NaN's index).
// Combiners that test for NaN themselves (Inductor's, where NaN wins as in torch.argmax) are
// left alone.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tritium {
#define GEN_PASS_DEF_IGNORENANININDEXREDUCTIONS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// The strict comparison of the two values in Triton's (value, index) combiner, or null when
/// the combiner is not built only of comparisons, boolean logic and selects as Triton's is.
arith::CmpFOp valueComparison(tt::ReduceOp op) {
  if (op.getSrcs().size() != 2 ||
      !isa<FloatType>(getElementTypeOrSelf(op.getSrcs()[0].getType())) ||
      !isa<IntegerType>(getElementTypeOrSelf(op.getSrcs()[1].getType())))
    return nullptr;
  Block &body = op.getCombineOp().front();
  Value left = body.getArgument(0), right = body.getArgument(2);
  arith::CmpFOp comparison;
  for (Operation &inner : body.without_terminator()) {
    if (auto cmp = dyn_cast<arith::CmpFOp>(inner)) {
      arith::CmpFPredicate p = cmp.getPredicate();
      bool strict = p == arith::CmpFPredicate::OGT || p == arith::CmpFPredicate::OLT;
      if (strict && cmp.getLhs() == left && cmp.getRhs() == right && !comparison) {
        comparison = cmp;
        continue;
      }
      if (p == arith::CmpFPredicate::OEQ && cmp.getLhs() != cmp.getRhs())
        continue; // the tie test
      return nullptr; // a NaN test or anything else: not Triton's combiner
    }
    if (!isa<arith::CmpIOp, arith::AndIOp, arith::OrIOp, arith::SelectOp>(inner))
      return nullptr;
  }
  return comparison;
}

struct IgnoreNaNInIndexReductionsPass
    : impl::IgnoreNaNInIndexReductionsBase<IgnoreNaNInIndexReductionsPass> {
  void runOnOperation() override {
    SmallVector<arith::CmpFOp> comparisons;
    getOperation().walk([&](tt::ReduceOp op) {
      if (arith::CmpFOp cmp = valueComparison(op))
        comparisons.push_back(cmp);
    });
    for (arith::CmpFOp cmp : comparisons) {
      OpBuilder b(cmp);
      Location loc = cmp.getLoc();
      // Unordered greater (less): left beats right, or either is NaN; then left must not be.
      auto unordered = cmp.getPredicate() == arith::CmpFPredicate::OGT
                           ? arith::CmpFPredicate::UGT
                           : arith::CmpFPredicate::ULT;
      Value beatsOrNaN = arith::CmpFOp::create(b, loc, unordered, cmp.getLhs(), cmp.getRhs());
      Value leftIsNumber =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, cmp.getLhs(), cmp.getLhs());
      Value better = arith::AndIOp::create(b, loc, beatsOrNaN, leftIsNumber);
      cmp.getResult().replaceAllUsesWith(better);
      cmp.erase();
    }
  }
};

} // namespace
} // namespace tritium
