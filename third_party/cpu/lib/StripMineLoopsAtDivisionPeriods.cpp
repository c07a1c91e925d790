//===- StripMineLoopsAtDivisionPeriods.cpp - `i // C` constant in a strip ===//
//
// Per-group scales (`scale[offs // GROUP]`) and Inductor's broadcast indexing
// (`x0 = xindex % 768; x1 = xindex // 768`) divide each element's index by a period C. In the
// loop over a tile that is a division per element, and an access through the quotient or the
// remainder is a gather per vector. Over a strip of iterations between two multiples of C the
// quotient is one value and the remainder is the index minus a constant: running the loop as
// strips, the quotient is a loop invariant (its load one scalar per strip) and the remainder
// advances with the index (its accesses consecutive vectors).
//
// Inductor decomposes one index by several periods at once (RoPE's `x % 32`, `(x // 32) % 8`,
// `x // 256`, `(x // 256) % 256`, `x // 65536`). When the periods are constants that are all
// multiples of the smallest, C, a strip between two multiples of C lies between two multiples
// of each of them: there `x // (mC)` is the strip's start divided once, and `x % (mC)` is the
// index less a multiple of mC fixed for the strip. Divisions of the quotients (`(x // 32) % 8`)
// become loop invariants with them.
//
// The whole strips, between the first and the last multiple of C the loop reaches, run as loops
// of C iterations (constant when C is), between the parts of the strips the loop starts and
// ends in. The strips need a non-negative index that does not wrap and C >= 16 (shorter
// strips would not vectorize); the loop checks this once and otherwise runs as it was.
//
// Inductor selects parts of a row by its remainder (RoPE's rotate-half: `x0 < 32` and
// `x0 >= 32` for x0 = x % 64, each guarding a masked load): in a strip those tests change value
// once, so the strip's loop splits there into loops in which they are constants.
//
//===----------------------------------------------------------------------===//

#include "InductionVariableOffsets.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_STRIPMINELOOPSATDIVISIONPERIODS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Strips shorter than this do not fill vectors.
constexpr int64_t kMinPeriod = 16;

/// A division (quotient or remainder) of the index by `multiple` times the strips' period.
struct DivisionOp {
  Operation *op;
  int64_t multiple;
};

/// `offset + i` divided by loop-invariant periods: the quotients and remainders taken of it.
/// Either one period (any loop-invariant value), or constant periods that are multiples of
/// the smallest of them, `period`.
struct Division {
  Value index;  // offset + i, as the loop computes it
  Value offset; // null: none
  Value period;
  SmallVector<DivisionOp> quotients, remainders;
};

std::optional<Division> findDivision(scf::ForOp loop) {
  std::optional<Division> found;
  SmallVector<Operation *> candidates;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<arith::DivSIOp, arith::RemSIOp, arith::DivUIOp, arith::RemUIOp>(op))
      return;
    Value index = op->getOperand(0), period = op->getOperand(1);
    if (!loop.isDefinedOutsideOfLoop(period))
      return;
    if (std::optional<int64_t> constant = getConstantIntValue(period))
      if (*constant < kMinPeriod)
        return;
    if (!found) {
      std::optional<InductionVariableOffset> match = matchInductionVariableOffset(loop, index);
      if (!match)
        return;
      found = Division{index, match->offset, Value(), {}, {}};
    }
    if (index == found->index)
      candidates.push_back(op);
  });
  if (!found)
    return std::nullopt;
  // The strips' period: the first division's, or the smallest constant if it is a constant.
  Value period = candidates.front()->getOperand(1);
  std::optional<int64_t> smallest = getConstantIntValue(period);
  for (Operation *op : candidates)
    if (std::optional<int64_t> constant = getConstantIntValue(op->getOperand(1));
        smallest && constant && *constant < *smallest) {
      smallest = constant;
      period = op->getOperand(1);
    }
  found->period = period;
  for (Operation *op : candidates) {
    int64_t multiple = 1;
    if (op->getOperand(1) != period) {
      std::optional<int64_t> constant = getConstantIntValue(op->getOperand(1));
      if (!smallest || !constant || *constant % *smallest != 0)
        continue; // another period: stays a division
      multiple = *constant / *smallest;
    }
    if (isa<arith::DivSIOp, arith::DivUIOp>(op))
      found->quotients.push_back({op, multiple});
    else
      found->remainders.push_back({op, multiple});
  }
  return found;
}

/// A strip's remainder `index % mC`: `j + shift` at the strip loop's iteration j, exact (no
/// wrap) and in [0, mC).
struct StripRemainder {
  Value value;
  Value shift; // i64, defined outside the strip's loop
};

/// A test of a strip's remainder against a bound defined outside the strip's loop (`r < c`,
/// `c <= r`, on r or its extension): since r advances by one with each iteration, the test
/// holds for the iterations before one point and fails after it, or the reverse.
struct RemainderTest {
  arith::CmpIOp compare;
  unsigned remainder; // index into the strip's remainders
  Value bound;
  bool inclusive;  // the point is c + 1 (r <= c, r > c), else c
  bool trueBefore; // r < c, r <= c; otherwise the test holds from the point on
};

/// `a p b` as `b p' a`.
arith::CmpIPredicate swapOperands(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt: return P::sgt;
  case P::sgt: return P::slt;
  case P::sle: return P::sge;
  case P::sge: return P::sle;
  case P::ult: return P::ugt;
  case P::ugt: return P::ult;
  case P::ule: return P::uge;
  case P::uge: return P::ule;
  default: return predicate; // eq, ne
  }
}

std::optional<RemainderTest> matchRemainderTest(scf::ForOp loop, arith::CmpIOp compare,
                                                ArrayRef<StripRemainder> remainders) {
  auto remainderOf = [&](Value v) -> std::optional<unsigned> {
    if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
      v = ext.getIn();
    else if (auto ext = v.getDefiningOp<arith::ExtUIOp>())
      v = ext.getIn();
    for (auto [i, r] : llvm::enumerate(remainders))
      if (r.value == v)
        return i;
    return std::nullopt;
  };
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  arith::CmpIPredicate predicate = compare.getPredicate();
  std::optional<unsigned> remainder = remainderOf(lhs);
  if (!remainder) {
    remainder = remainderOf(rhs);
    std::swap(lhs, rhs);
    predicate = swapOperands(predicate);
  }
  if (!remainder || !loop.isDefinedOutsideOfLoop(rhs))
    return std::nullopt;
  // r is non-negative: an unsigned test against a non-negative constant is the signed one.
  bool isUnsigned = predicate == arith::CmpIPredicate::ult || predicate == arith::CmpIPredicate::ule ||
                    predicate == arith::CmpIPredicate::ugt || predicate == arith::CmpIPredicate::uge;
  if (isUnsigned) {
    std::optional<int64_t> constant = getConstantIntValue(rhs);
    if (!constant || *constant < 0)
      return std::nullopt;
  }
  switch (predicate) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return RemainderTest{compare, *remainder, rhs, false, true};
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return RemainderTest{compare, *remainder, rhs, true, true};
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    return RemainderTest{compare, *remainder, rhs, true, false};
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    return RemainderTest{compare, *remainder, rhs, false, false};
  default:
    return std::nullopt;
  }
}

/// More points would multiply the strip's body past what its tests cost.
constexpr int kMaxRemainderSplits = 3;

/// Inductor selects halves of a row by its remainder (RoPE's `x0 < 32`, `x0 >= 32`): the strip
/// loop runs as consecutive loops between the points at which such tests change, in each of
/// which every test is a constant and the masked loads it guards are plain or gone.
void splitAtRemainderTests(scf::ForOp loop, ArrayRef<StripRemainder> remainders, int splitsLeft) {
  if (splitsLeft == 0)
    return;
  SmallVector<RemainderTest> tests;
  loop.getBody()->walk([&](arith::CmpIOp compare) {
    if (std::optional<RemainderTest> test = matchRemainderTest(loop, compare, remainders))
      tests.push_back(*test);
  });
  if (tests.empty())
    return;
  // The point of the first test, and every test that changes there.
  RemainderTest first = tests.front();
  auto samePoint = [&](const RemainderTest &t) {
    return t.remainder == first.remainder && t.bound == first.bound && t.inclusive == first.inclusive;
  };
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  };
  // r = point at iteration point - shift; clamped to the loop's range.
  Value point = widenToI64(b, loc, first.bound);
  if (first.inclusive)
    point = arith::AddIOp::create(b, loc, point, constant(1));
  Value at = arith::SubIOp::create(b, loc, point, remainders[first.remainder].shift);
  at = arith::MaxSIOp::create(b, loc, at, widenToI64(b, loc, loop.getLowerBound()));
  at = arith::MinSIOp::create(b, loc, at, widenToI64(b, loc, loop.getUpperBound()));
  Value split = arith::IndexCastOp::create(b, loc, b.getIndexType(), at);

  IRMapping mapping;
  auto before = cast<scf::ForOp>(b.clone(*loop, mapping));
  before.getUpperBoundMutable().assign(split);
  loop.getLowerBoundMutable().assign(split);
  loop.getInitArgsMutable().assign(before.getResults());
  auto fold = [](scf::ForOp in, arith::CmpIOp compare, bool value) {
    OpBuilder cb = OpBuilder::atBlockBegin(in.getBody());
    compare.replaceAllUsesWith(
        arith::ConstantIntOp::create(cb, compare.getLoc(), cb.getI1Type(), value).getResult());
    compare.erase();
  };
  for (RemainderTest &t : tests)
    if (samePoint(t)) {
      fold(before, cast<arith::CmpIOp>(mapping.lookup(t.compare.getOperation())), t.trueBefore);
      fold(loop, t.compare, !t.trueBefore);
    }
  SmallVector<StripRemainder> remaindersBefore;
  for (const StripRemainder &r : remainders)
    remaindersBefore.push_back({mapping.lookup(r.value), r.shift});
  splitAtRemainderTests(before, remaindersBefore, splitsLeft - 1);
  splitAtRemainderTests(loop, remainders, splitsLeft - 1);
}

void stripMine(scf::ForOp loop, const Division &division) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type intType = division.index.getType();
  unsigned width = intType.getIntOrFloatBitWidth();
  auto widen = [&](Value v) { return widenToI64(b, loc, v); };
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  };
  auto toIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  // The indices the loop visits: [first, end), in i64.
  Value lb = widen(loop.getLowerBound()), ub = widen(loop.getUpperBound());
  Value offset = division.offset ? widen(division.offset) : constant(0);
  Value first = arith::AddIOp::create(b, loc, offset, lb);
  Value end = arith::AddIOp::create(b, loc, offset, ub);
  Value period = widen(division.period);
  // Strips apply when every index is non-negative and below 2^(w-1) (no wrap, and signed and
  // unsigned division agree), and the period is at least kMinPeriod.
  Value ok = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first, constant(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end,
                            constant(width >= 64 ? std::numeric_limits<int64_t>::max()
                                                 : int64_t(1) << (width - 1))));
  ok = arith::AndIOp::create(
      b, loc, ok,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, period, constant(kMinPeriod)));
  // The loop's own bounds (dynamic after tritium-cpu-split-loops-at-mask-bounds) keep the cast
  // of the induction variable exact.
  Value lbOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lb, constant(0));
  Value ubOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, ub,
                                     constant(std::numeric_limits<int32_t>::max()));
  ok = arith::AndIOp::create(b, loc, ok, arith::AndIOp::create(b, loc, lbOk, ubOk));
  // The whole strips: indices [stripsBegin, stripsEnd), between the first and the last
  // multiple of C inside [first, end); before and after them, the parts of the strips the loop
  // starts and ends in.
  // A constant period is at least kMinPeriod (findDivision); a runtime one may be zero.
  Value safePeriod = getConstantIntValue(division.period)
                         ? period
                         : arith::SelectOp::create(b, loc, ok, period, constant(1)).getResult();
  Value roundedUp = arith::MulIOp::create(
      b, loc,
      arith::DivSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, arith::AddIOp::create(b, loc, first, safePeriod), constant(1)),
          safePeriod),
      safePeriod);
  Value roundedDown = arith::MulIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, end, safePeriod), safePeriod);
  Value stripsBegin = arith::MinSIOp::create(b, loc, roundedUp, end);
  Value stripsEnd = arith::MaxSIOp::create(b, loc, roundedDown, stripsBegin);

  // The loop's body over the indices [lo, hi) of strip q (all of it when `whole`), carrying
  // `carried`: inside the strip index // mC is q / m and index % mC is index - (q / m) mC.
  auto strip = [&](Value q, Value lo, Value hi, bool whole, ValueRange carried) -> ValueRange {
    Value stripStart = arith::MulIOp::create(b, loc, q, period);
    auto narrow = [&](Value v) -> Value {
      return width < 64 ? arith::TruncIOp::create(b, loc, intType, v).getResult() : v;
    };
    struct QuotientAndBase {
      Value quotient, base; // of the index's type
      Value shift;          // i64: the remainder at the strip loop's iteration 0
    };
    DenseMap<int64_t, QuotientAndBase> quotientAndBase; // by multiple m
    auto forMultiple = [&](int64_t multiple) {
      auto [it, inserted] = quotientAndBase.try_emplace(multiple);
      if (inserted) {
        Value quotient = multiple == 1 ? q : arith::DivSIOp::create(b, loc, q, constant(multiple));
        Value base = multiple == 1 ? stripStart
                                   : arith::MulIOp::create(
                                         b, loc, quotient,
                                         arith::MulIOp::create(b, loc, period, constant(multiple)));
        // A whole strip's iteration j is the index qC + j; a part's iteration i the index
        // offset + i.
        Value shift = arith::SubIOp::create(b, loc, whole ? stripStart : offset, base);
        it->second = {narrow(quotient), narrow(base), shift};
      }
      return it->second;
    };
    // Made before the strip's loop, which uses them.
    for (DivisionOp d : llvm::concat<const DivisionOp>(division.quotients, division.remainders))
      forMultiple(d.multiple);
    Value toInduction = toIndex(arith::SubIOp::create(b, loc, stripStart, offset));
    Value innerLb = whole ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                          : toIndex(arith::SubIOp::create(b, loc, lo, offset));
    Value innerUb = whole ? toIndex(period) : toIndex(arith::SubIOp::create(b, loc, hi, offset));
    IRMapping mapping;
    auto inner = cast<scf::ForOp>(b.clone(*loop, mapping));
    inner.getLowerBoundMutable().assign(innerLb);
    inner.getUpperBoundMutable().assign(innerUb);
    inner.getInitArgsMutable().assign(carried);
    if (whole) {
      OpBuilder ib = OpBuilder::atBlockBegin(inner.getBody());
      Value j = inner.getInductionVar();
      auto induction = arith::AddIOp::create(ib, loc, j, toInduction);
      j.replaceAllUsesExcept(induction, induction);
    }
    for (DivisionOp d : division.quotients)
      mapping.lookup(d.op)->getResult(0).replaceAllUsesWith(forMultiple(d.multiple).quotient);
    SmallVector<StripRemainder> remainders;
    for (DivisionOp d : division.remainders) {
      Operation *copy = mapping.lookup(d.op);
      OpBuilder rb(copy);
      QuotientAndBase qb = forMultiple(d.multiple);
      Value remainder;
      if (whole && d.multiple == 1) // j itself
        remainder = arith::IndexCastOp::create(rb, loc, intType, inner.getInductionVar());
      else
        remainder = arith::SubIOp::create(rb, loc, copy->getOperand(0), qb.base);
      copy->getResult(0).replaceAllUsesWith(remainder);
      remainders.push_back({remainder, qb.shift});
    }
    for (DivisionOp d : llvm::concat<const DivisionOp>(division.quotients, division.remainders))
      mapping.lookup(d.op)->erase();
    splitAtRemainderTests(inner, remainders, kMaxRemainderSplits);
    return inner.getResults();
  };

  auto runStrips = [&](OpBuilder &tb, Location loc) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tb.getInsertionBlock(), tb.getInsertionPoint());
    // The part of the first strip before the whole ones (empty when the loop starts at a
    // multiple of C).
    ValueRange carried = strip(arith::DivSIOp::create(b, loc, first, period), first, stripsBegin,
                               /*whole=*/false, loop.getInitArgs());
    // Strip q covers the indices [qC, (q + 1)C): iterations j in [0, C) with the loop's
    // induction variable qC + j - offset.
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto strips = scf::ForOp::create(
        b, loc, toIndex(arith::DivSIOp::create(b, loc, stripsBegin, period)),
        toIndex(arith::DivSIOp::create(b, loc, stripsEnd, period)), one, carried,
        [&](OpBuilder &sb, Location loc, Value q, ValueRange carried) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(sb.getInsertionBlock(), sb.getInsertionPoint());
          scf::YieldOp::create(b, loc, strip(widen(q), Value(), Value(), /*whole=*/true, carried));
        });
    // The part of the last strip after them.
    carried = strip(arith::DivSIOp::create(b, loc, stripsEnd, period), stripsEnd, end, /*whole=*/false,
                    strips.getResults());
    scf::YieldOp::create(b, loc, carried);
  };
  // Otherwise: the loop as it was.
  auto runAsItWas = [&](OpBuilder &eb, Location loc) {
    Operation *original = eb.clone(*loop);
    scf::YieldOp::create(eb, loc, original->getResults());
  };
  auto version = scf::IfOp::create(b, loc, ok, runStrips, runAsItWas);
  loop.getResults().replaceAllUsesWith(version.getResults());
  loop.erase();
}

/// Unit-step loops, with at least kMinPeriod iterations where that is known.
bool worthStripMining(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  return step == 1 && (!lb || !ub || *ub - *lb >= kMinPeriod);
}

struct StripMineLoopsAtDivisionPeriodsPass
    : impl::StripMineLoopsAtDivisionPeriodsBase<StripMineLoopsAtDivisionPeriodsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    // Inner loops first; the copies a strip-mining makes are not visited again.
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (worthStripMining(loop))
        if (std::optional<Division> division = findDivision(loop))
          stripMine(loop, *division);
  }
};

} // namespace
} // namespace tritium::cpu
