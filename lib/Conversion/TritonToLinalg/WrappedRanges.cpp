//===- WrappedRanges.cpp - ranges wrapped with `%` that rarely wrap -------===//

#include "WrappedRanges.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tritium {

/// The scalar a tile splats, or null.
static Value splatSource(Value tile) {
  if (auto splat = tile.getDefiningOp<tt::SplatOp>())
    return splat.getSrc();
  return Value();
}

static std::optional<WrappedRange> matchWrappedRange(Operation *op) {
  if (!isa<arith::RemSIOp, arith::RemUIOp>(op) || !isa<RankedTensorType>(op->getResult(0).getType()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger(32))
    return std::nullopt;
  OpFoldResult bound = splatSource(op->getOperand(1));
  DenseIntElementsAttr constant;
  if (!bound && matchPattern(op->getOperand(1), m_Constant(&constant)) && constant.isSplat() &&
      constant.getSplatValue<APInt>().isStrictlyPositive())
    bound = constant.getSplatValue<IntegerAttr>();
  auto sum = op->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!bound || !sum)
    return std::nullopt;
  for (auto [rangeSide, startSide] :
       {std::pair{sum.getLhs(), sum.getRhs()}, std::pair{sum.getRhs(), sum.getLhs()}}) {
    auto range = rangeSide.getDefiningOp<tt::MakeRangeOp>();
    Value start = splatSource(startSide);
    if (range && start && range.getStart() == 0)
      return WrappedRange{op, start, bound, int64_t(range.getEnd()), isa<arith::RemUIOp>(op)};
  }
  return std::nullopt;
}

SmallVector<WrappedRange> findWrappedRanges(ValueRange tiles) {
  SmallVector<WrappedRange> found;
  SmallVector<Value> pending(tiles.begin(), tiles.end());
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!pending.empty()) {
    Value tile = pending.pop_back_val();
    Operation *def = tile ? tile.getDefiningOp() : nullptr;
    if (!def || !isa<RankedTensorType>(tile.getType()) || !seen.insert(def).second)
      continue;
    if (std::optional<WrappedRange> range = matchWrappedRange(def)) {
      found.push_back(*range);
      continue;
    }
    bool walksThrough = isa<tt::BroadcastOp, tt::ExpandDimsOp, tt::AddPtrOp>(def) ||
                        (isa<arith::ArithDialect>(def->getDialect()) &&
                         def->hasTrait<OpTrait::Elementwise>());
    if (walksThrough)
      llvm::append_range(pending, def->getOperands());
  }
  return found;
}

Value noRangeWraps(ConversionPatternRewriter &b, Location loc, ArrayRef<WrappedRange> ranges) {
  Value all;
  for (const WrappedRange &range : ranges) {
    Value start = b.getRemappedValue(range.start);
    Value bound;
    if (auto scalar = dyn_cast<Value>(range.bound))
      bound = b.getRemappedValue(scalar);
    else
      bound = arith::ConstantOp::create(b, loc, cast<IntegerAttr>(cast<Attribute>(range.bound)));
    Value size = arith::ConstantIntOp::create(b, loc, range.size, 32);
    // bound >= size first, so that bound - size cannot overflow.
    auto ge = range.isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    auto le = range.isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    Value fits = arith::CmpIOp::create(b, loc, ge, bound, size);
    Value last = arith::SubIOp::create(b, loc, bound, size);
    Value inside = arith::CmpIOp::create(b, loc, le, start, last);
    Value holds = arith::AndIOp::create(b, loc, fits, inside);
    if (!range.isUnsigned) {
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
      holds = arith::AndIOp::create(
          b, loc, holds, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, start, zero));
    }
    all = all ? arith::AndIOp::create(b, loc, all, holds).getResult() : holds;
  }
  return all;
}

} // namespace tritium
