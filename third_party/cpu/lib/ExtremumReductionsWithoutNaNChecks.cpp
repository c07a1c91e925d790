//===- ExtremumReductionsWithoutNaNChecks.cpp - row max at vmaxps speed ---===//
//
// A float max or min reduction (`tl.max`, softmax's first pass, Inductor's `amax`) ends up as
// a loop folding each value into an accumulator with maxnumf/minnumf (a NaN gives way) or
// maximumf/minimumf (a NaN wins). LLVM vectorizes that loop, but every step must honour the
// NaN rule: x86's vmaxps returns its second operand when either is NaN, so each vector of
// eight floats costs a max, two unordered compares and a blend, and the blend sits on the
// accumulator's dependency chain — a row max ran at 0.7x of a row sum.
//
// With no NaN among the values, every one of these four operations is the plain maximum (or
// minimum). So the loop runs first with `nnan nsz` flags from -inf (+inf for a minimum),
// which LLVM turns into one vmaxps per vector, and notes whether a NaN came by: the largest
// magnitude's bits (an AND and an integer max per vector; a NaN's bits exceed +inf's), where
// a flag ORed from unordered compares would be narrowed by LLVM into packed bytes, two more
// shuffles per vector. f64 keeps the flag (AVX2 has no 64-bit integer max). If no NaN was seen, the fast result is folded
// into the accumulator with the original operation; if one was, the original loop runs again
// as it was, so a NaN's rule is applied exactly as before. Rows with NaNs cost two passes.
//
//===----------------------------------------------------------------------===//

#include "LoopAccumulations.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_EXTREMUMREDUCTIONSWITHOUTNANCHECKS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

bool isMaximum(Operation *op) { return isa<arith::MaxNumFOp, arith::MaximumFOp>(op); }
bool isExtremum(Operation *op) {
  return isa<arith::MaxNumFOp, arith::MaximumFOp, arith::MinNumFOp, arith::MinimumFOp>(op);
}

/// The extremum reduction that is all `loop` does, if it is one.
std::optional<LoopAccumulation> extremumReductionOf(scf::ForOp loop) {
  std::optional<LoopAccumulation> accumulation = loopAccumulationOf(loop);
  if (!accumulation || !isExtremum(accumulation->combiner))
    return std::nullopt;
  return accumulation;
}

/// What the fast loop carries to tell whether a NaN came by: for floats of up to 32 bits the
/// largest magnitude's bits, else a flag.
struct NaNWitness {
  mutable FloatType type; // its accessors are not const

  bool byMagnitude() const { return type.getWidth() <= 32; }
  IntegerType bitsType() const { return IntegerType::get(type.getContext(), type.getWidth()); }

  Value initial(OpBuilder &b, Location loc) const {
    if (byMagnitude())
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(bitsType(), 0));
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  }

  Value update(OpBuilder &b, Location loc, Value witness, Value value) const {
    if (!byMagnitude())
      return arith::OrIOp::create(
          b, loc, witness, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value));
    Value bits = arith::BitcastOp::create(b, loc, bitsType(), value);
    Value magnitudeMask = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(bitsType(), APInt::getSignedMaxValue(type.getWidth())));
    Value magnitude = arith::AndIOp::create(b, loc, bits, magnitudeMask);
    return arith::MaxUIOp::create(b, loc, witness, magnitude);
  }

  Value sawNaN(OpBuilder &b, Location loc, Value witness) const {
    if (!byMagnitude())
      return witness;
    APInt infinity = APFloat::getInf(type.getFloatSemantics()).bitcastToAPInt();
    Value infinityBits = arith::ConstantOp::create(b, loc, b.getIntegerAttr(bitsType(), infinity));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, witness, infinityBits);
  }
};

/// `loop`, which folds values into an accumulator with an extremum, becomes a fast loop over
/// the same values that assumes no NaN and notes whether one came by, then either the fast
/// result folded into the accumulator or, when a NaN came by, the original loop.
void runWithoutNaNChecks(scf::ForOp loop, LoopAccumulation reduction) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto type = cast<FloatType>(reduction.value.getType());
  NaNWitness witness{type};
  bool maximum = isMaximum(reduction.combiner);
  Value identity = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), maximum)));
  auto flags = arith::FastMathFlagsAttr::get(
      b.getContext(), arith::FastMathFlags::nnan | arith::FastMathFlags::nsz);

  auto fast = scf::ForOp::create(
      b, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
      ValueRange{identity, witness.initial(b, loc)},
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange carried) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), iv);
        for (Operation &op : loop.getBody()->without_terminator())
          if (&op != reduction.load && &op != reduction.combiner && &op != reduction.store)
            nb.clone(op, mapping);
        Value value = mapping.lookupOrDefault(reduction.value);
        Value folded =
            maximum ? Value(arith::MaxNumFOp::create(nb, nloc, carried[0], value, flags))
                    : Value(arith::MinNumFOp::create(nb, nloc, carried[0], value, flags));
        scf::YieldOp::create(nb, nloc,
                             ValueRange{folded, witness.update(nb, nloc, carried[1], value)});
      });

  auto exactOrFast =
      scf::IfOp::create(b, loc, witness.sawNaN(b, loc, fast.getResult(1)), /*withElseRegion=*/true);
  loop->moveBefore(exactOrFast.thenBlock()->getTerminator());
  // The loop may not run (bounds split at a mask): then the accumulator keeps its value,
  // which folding -inf into a NaN identity (maxnumf) would not.
  b.setInsertionPoint(exactOrFast.elseBlock()->getTerminator());
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, loop.getLowerBound(),
                                     loop.getUpperBound());
  auto ifRuns = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
  b.setInsertionPoint(ifRuns.thenBlock()->getTerminator());
  IRMapping mapping;
  Value accumulated =
      memref::LoadOp::create(b, loc, reduction.store.getMemRef(), reduction.store.getIndices());
  mapping.map(reduction.load.getResult(), accumulated);
  mapping.map(reduction.value, fast.getResult(0));
  Operation *combined = b.clone(*reduction.combiner, mapping);
  memref::StoreOp::create(b, loc, combined->getResult(0), reduction.store.getMemRef(),
                          reduction.store.getIndices());
}

struct ExtremumReductionsWithoutNaNChecksPass
    : impl::ExtremumReductionsWithoutNaNChecksBase<ExtremumReductionsWithoutNaNChecksPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, LoopAccumulation>> reductions;
    getOperation()->walk([&](scf::ForOp loop) {
      if (auto reduction = extremumReductionOf(loop))
        reductions.emplace_back(loop, *reduction);
    });
    for (auto &[loop, reduction] : reductions)
      runWithoutNaNChecks(loop, reduction);
  }
};

} // namespace
} // namespace tritium::cpu
