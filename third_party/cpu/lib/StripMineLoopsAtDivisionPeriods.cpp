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
// The strips need a non-negative index that does not wrap and C >= 16 (shorter strips would
// not vectorize); the loop checks this once and otherwise runs as it was.
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
  // Strips: for q in [first / C, (end - 1) / C], the iterations whose index lies in
  // [max(first, qC), min(end, (q + 1)C)).
  auto runStrips = [&](OpBuilder &tb, Location loc) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tb.getInsertionBlock(), tb.getInsertionPoint());
    Value firstStrip = toIndex(arith::DivSIOp::create(b, loc, first, period));
    Value lastIndex = arith::SubIOp::create(b, loc, end, constant(1));
    Value endStrip = toIndex(arith::AddIOp::create(
        b, loc, arith::DivSIOp::create(b, loc, lastIndex, period), constant(1)));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto strips = scf::ForOp::create(
        b, loc, firstStrip, endStrip, one, loop.getInitArgs(),
        [&](OpBuilder &sb, Location loc, Value strip, ValueRange carried) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(sb.getInsertionBlock(), sb.getInsertionPoint());
          Value q = widen(strip);
          Value stripStart = arith::MulIOp::create(b, loc, q, period);
          Value lo = arith::MaxSIOp::create(b, loc, first, stripStart);
          Value hi = arith::MinSIOp::create(b, loc, end,
                                            arith::AddIOp::create(b, loc, stripStart, period));
          // Inside the strip: index // mC is q / m and index % mC is index - (q / m) mC.
          auto narrow = [&](Value v) -> Value {
            return width < 64 ? arith::TruncIOp::create(b, loc, intType, v).getResult() : v;
          };
          DenseMap<int64_t, std::pair<Value, Value>> quotientAndBase; // by multiple m
          auto forMultiple = [&](int64_t multiple) {
            auto [it, inserted] = quotientAndBase.try_emplace(multiple);
            if (inserted) {
              Value quotient = multiple == 1 ? q : arith::DivSIOp::create(b, loc, q, constant(multiple));
              Value base = multiple == 1 ? stripStart
                                         : arith::MulIOp::create(
                                               b, loc, quotient,
                                               arith::MulIOp::create(b, loc, period, constant(multiple)));
              it->second = {narrow(quotient), narrow(base)};
            }
            return it->second;
          };
          // Made before the strip's loop, which uses them.
          for (DivisionOp d : llvm::concat<const DivisionOp>(division.quotients, division.remainders))
            forMultiple(d.multiple);
          Value innerLb = toIndex(arith::SubIOp::create(b, loc, lo, offset));
          Value innerUb = toIndex(arith::SubIOp::create(b, loc, hi, offset));
          IRMapping mapping;
          auto inner = cast<scf::ForOp>(b.clone(*loop, mapping));
          inner.getLowerBoundMutable().assign(innerLb);
          inner.getUpperBoundMutable().assign(innerUb);
          inner.getInitArgsMutable().assign(carried);
          for (DivisionOp d : division.quotients)
            mapping.lookup(d.op)->getResult(0).replaceAllUsesWith(forMultiple(d.multiple).first);
          for (DivisionOp d : division.remainders) {
            Operation *copy = mapping.lookup(d.op);
            OpBuilder rb(copy);
            copy->getResult(0).replaceAllUsesWith(
                arith::SubIOp::create(rb, loc, copy->getOperand(0), forMultiple(d.multiple).second)
                    .getResult());
          }
          for (DivisionOp d : llvm::concat<const DivisionOp>(division.quotients, division.remainders))
            mapping.lookup(d.op)->erase();
          scf::YieldOp::create(b, loc, inner.getResults());
        });
    scf::YieldOp::create(b, loc, strips.getResults());
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
