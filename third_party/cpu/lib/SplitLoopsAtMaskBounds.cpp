//===- SplitLoopsAtMaskBounds.cpp - unmasked loops for the in-bounds part ===//
//
// A masked load or store of a tile, `tl.load(p + offs, mask=offs < n)`, is a loop over the
// tile whose every iteration tests `offset + i < n` and branches; LLVM vectorizes that into
// masked vector accesses and recomputes a vector of indices and a compare per vector. The
// test is true for a prefix of the iterations and false after it: for the whole tile in
// most programs, for part of the last one. Running the prefix as a loop of its own, in which
// the test is the constant true, gives LLVM plain loads and stores there; the rest of the
// iterations keep the original body, tests and all, so nothing changes where they run.
// Short loops (a 64-wide tile) would lose more to a dynamic trip count than they gain, so
// they are versioned instead: the copy without the test runs when the whole loop is inside.
//
// The prefix ends at clamp(n - offset, lb, ub), and never past the iteration at which
// `offset + i` would wrap around in its integer type, so the test is true in all of it.
//
//===----------------------------------------------------------------------===//

#include "InductionVariableOffsets.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_SPLITLOOPSATMASKBOUNDS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Loops with fewer iterations are not worth a second copy of their body.
constexpr int64_t kMinTripCount = 8;
/// Loops with fewer iterations keep constant bounds (versioned on "all in bounds"): a
/// dynamic trip count would cost them a vector remainder and their full unrolling.
constexpr int64_t kMinPrefixTripCount = 256;

int64_t tripCount(scf::ForOp loop) {
  return *getConstantIntValue(loop.getUpperBound()) - *getConstantIntValue(loop.getLowerBound());
}

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
  auto widen = [&](Value v) { return widenToI64(b, loc, v); };
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  };
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

/// In `copy` (a clone of the loop the mask was found in), every test of the same bound (a
/// load's and a store's, say) becomes the constant true.
void assumeMaskTrue(scf::ForOp copy, const MaskBound &mask) {
  SmallVector<arith::CmpIOp> sameTests;
  copy.getBody()->walk([&](arith::CmpIOp compare) {
    std::optional<MaskBound> other = matchMaskBound(copy, compare);
    if (other && other->bound == mask.bound && other->offset == mask.offset &&
        other->inclusive == mask.inclusive && other->type == mask.type)
      sameTests.push_back(compare);
  });
  OpBuilder b = OpBuilder::atBlockBegin(copy.getBody());
  Value alwaysTrue = arith::ConstantIntOp::create(b, copy.getLoc(), b.getI1Type(), 1);
  for (arith::CmpIOp compare : sameTests) {
    compare.replaceAllUsesWith(alwaysTrue);
    compare.erase();
  }
}

/// Long loops: the prefix up to `end` without the test, then the original loop from `end`,
/// carrying on from the prefix's results (programs that are partly in bounds gain too).
void splitAtMaskBound(scf::ForOp loop, const MaskBound &mask, Value end) {
  OpBuilder b(loop);
  auto prefix = cast<scf::ForOp>(b.clone(*loop));
  prefix.getUpperBoundMutable().assign(end);
  assumeMaskTrue(prefix, mask);
  loop.getLowerBoundMutable().assign(end);
  loop.getInitArgsMutable().assign(prefix.getResults());
}

/// Short loops: when every iteration is in bounds (end = ub), a copy without the test and
/// with the loop's constant bounds, which LLVM unrolls and vectorizes without a remainder;
/// otherwise the original loop.
void versionOnMaskBound(scf::ForOp loop, const MaskBound &mask, Value end) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, end, loop.getUpperBound());
  auto version = scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &tb, Location loc) {
        auto copy = cast<scf::ForOp>(tb.clone(*loop));
        assumeMaskTrue(copy, mask);
        scf::YieldOp::create(tb, loc, copy.getResults());
      },
      [&](OpBuilder &eb, Location loc) {
        scf::YieldOp::create(eb, loc, eb.clone(*loop)->getResults());
      });
  loop.getResults().replaceAllUsesWith(version.getResults());
  loop.erase();
}

struct SplitLoopsAtMaskBoundsPass
    : impl::SplitLoopsAtMaskBoundsBase<SplitLoopsAtMaskBoundsPass> {
  void runOnOperation() override {
    // Inner loops first; the copies a split makes are not visited again.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (isStaticUnitStepLoop(loop, kMinTripCount))
        if (std::optional<MaskBound> mask = findMaskBound(loop)) {
          OpBuilder b(loop);
          Value end = prefixEnd(b, loop, *mask);
          if (tripCount(loop) >= kMinPrefixTripCount)
            splitAtMaskBound(loop, *mask, end);
          else
            versionOnMaskBound(loop, *mask, end);
        }
  }
};

} // namespace
} // namespace tritium::cpu
