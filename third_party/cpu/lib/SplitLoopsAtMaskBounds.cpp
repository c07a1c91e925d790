//===- SplitLoopsAtMaskBounds.cpp - unmasked loops for the in-bounds part ===//
//
// A masked load or store of a tile, `tl.load(p + offs, mask=offs < n)`, is a loop over the
// tile whose every iteration tests `offset + i < n` and branches; LLVM vectorizes that into
// masked vector accesses and recomputes a vector of indices and a compare per vector. The
// test is true for a prefix of the iterations and false after it: for the whole tile in
// most programs, for part of the last one. Running the prefix as a loop of its own, in which
// the test is the constant true, gives LLVM plain loads and stores there; the rest of the
// iterations keep the original body, tests and all, so nothing changes where they run.
//
// The prefix ends at clamp(n - offset, lb, ub), and never past the iteration at which
// `offset + i` would wrap around in its integer type, so the test is true in all of it.
//
//===----------------------------------------------------------------------===//

#include "InductionVariableOffsets.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_SPLITLOOPSATMASKBOUNDS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Loops with fewer iterations are not worth a second copy of their body.
constexpr int64_t kMinTripCount = 8;

/// `offset + i < bound` (or `<=`) in the iterations of `loop`, with offset and bound defined
/// outside it: the loop's induction variable i cast to an integer, plus an optional offset.
struct MaskBound {
  Type type; // of offset + i
  Value offset; // null: none
  Value bound;
  bool inclusive;
};

std::optional<MaskBound> matchMaskBound(scf::ForOp loop, arith::CmpIOp compare) {
  if (!compare.getType().isSignlessInteger(1))
    return std::nullopt;
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  arith::CmpIPredicate predicate = compare.getPredicate();
  // `bound > e` is `e < bound`, `bound >= e` is `e <= bound`.
  if (predicate == arith::CmpIPredicate::sgt || predicate == arith::CmpIPredicate::sge) {
    std::swap(lhs, rhs);
    predicate = predicate == arith::CmpIPredicate::sgt ? arith::CmpIPredicate::slt
                                                       : arith::CmpIPredicate::sle;
  }
  if (predicate != arith::CmpIPredicate::slt && predicate != arith::CmpIPredicate::sle)
    return std::nullopt;
  if (!loop.isDefinedOutsideOfLoop(rhs))
    return std::nullopt;
  std::optional<InductionVariableOffset> index = matchInductionVariableOffset(loop, lhs);
  if (!index)
    return std::nullopt;
  return MaskBound{lhs.getType(), index->offset, rhs, predicate == arith::CmpIPredicate::sle};
}

std::optional<MaskBound> findMaskBound(scf::ForOp loop) {
  std::optional<MaskBound> found;
  loop.getBody()->walk([&](arith::CmpIOp compare) {
    if (!found)
      found = matchMaskBound(loop, compare);
  });
  return found;
}

/// The first iteration at which the mask may be false, clamped to the loop's range:
/// min(ub, max(lb, bound - offset (+ 1 if inclusive), 2^(w-1) - offset)), all in i64.
Value prefixEnd(OpBuilder &b, scf::ForOp loop, const MaskBound &mask) {
  Location loc = loop.getLoc();
  Type i64 = b.getI64Type();
  auto widen = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, i64, v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, loc, i64, v);
    return v;
  };
  auto constant = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, i64, v); };
  Value end = widen(mask.bound);
  if (mask.inclusive)
    end = arith::AddIOp::create(b, loc, end, constant(1));
  unsigned width = mask.type.getIntOrFloatBitWidth();
  if (mask.offset) {
    Value offset = widen(mask.offset);
    end = arith::SubIOp::create(b, loc, end, offset);
    if (width < 64) {
      // offset + i stays below 2^(w-1): no wrap-around inside the prefix.
      Value noWrap = arith::SubIOp::create(b, loc, constant(int64_t(1) << (width - 1)), offset);
      end = arith::MinSIOp::create(b, loc, end, noWrap);
    }
  }
  end = arith::MaxSIOp::create(b, loc, end, widen(loop.getLowerBound()));
  end = arith::MinSIOp::create(b, loc, end, widen(loop.getUpperBound()));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), end);
}

bool worthSplitting(scf::ForOp loop) {
  return isStaticUnitStepLoop(loop, kMinTripCount) && !loop->hasAttr("tritium.masked_remainder");
}

void splitAtMaskBound(scf::ForOp loop, const MaskBound &mask) {
  OpBuilder b(loop);
  Value end = prefixEnd(b, loop, mask);
  // The prefix: a copy of the loop up to `end`, in which the mask is true.
  IRMapping mapping;
  auto prefix = cast<scf::ForOp>(b.clone(*loop, mapping));
  prefix.getUpperBoundMutable().assign(end);
  // Every test of the same bound (a load's and a store's, say) is true there.
  SmallVector<arith::CmpIOp> sameTests;
  prefix.getBody()->walk([&](arith::CmpIOp compare) {
    std::optional<MaskBound> other = matchMaskBound(prefix, compare);
    if (other && other->bound == mask.bound && other->offset == mask.offset &&
        other->inclusive == mask.inclusive && other->type == mask.type)
      sameTests.push_back(compare);
  });
  b.setInsertionPointToStart(prefix.getBody());
  Value alwaysTrue = arith::ConstantIntOp::create(b, loop.getLoc(), b.getI1Type(), 1);
  for (arith::CmpIOp compare : sameTests) {
    compare.replaceAllUsesWith(alwaysTrue);
    compare.erase();
  }
  // The rest: the original loop from `end`, carrying on from the prefix's results.
  loop.getLowerBoundMutable().assign(end);
  loop.getInitArgsMutable().assign(prefix.getResults());
  loop->setAttr("tritium.masked_remainder", b.getUnitAttr());
}

struct SplitLoopsAtMaskBoundsPass
    : impl::SplitLoopsAtMaskBoundsBase<SplitLoopsAtMaskBoundsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner first
    for (scf::ForOp loop : loops)
      if (worthSplitting(loop))
        if (std::optional<MaskBound> mask = findMaskBound(loop))
          splitAtMaskBound(loop, *mask);
    getOperation()->walk([](scf::ForOp loop) { loop->removeAttr("tritium.masked_remainder"); });
  }
};

} // namespace
} // namespace tritium::cpu
