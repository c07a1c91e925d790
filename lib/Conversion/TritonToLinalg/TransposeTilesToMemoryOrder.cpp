//===- TransposeTilesToMemoryOrder.cpp - the contiguous dimension last -----===//
//
// A tile's elements are visited in row-major order: its last dimension is the innermost loop,
// which LLVM vectorizes. Inductor's reductions over the outer dimension of a tensor (the sums
// of a norm's weight gradient, a bias gradient, the per-channel sums of a batch norm) index
// [XBLOCK, R0_BLOCK] tiles as `x + stride * r`: the tiles are contiguous along their first
// dimension, and the innermost loop strides through memory (the autotuner then settles on
// R0_BLOCK = 4, which hides the stride and leaves loops of four).
//
// When every 2-D load and store that is contiguous along one dimension is contiguous along
// the first, and the kernel's 2-D tiles only flow through ops whose meaning does not depend
// on the order of dimensions beyond an axis (elementwise ops, splats, broadcasts,
// expand_dims, reductions, loads and stores, loops), every 2-D tile of the kernel is
// transposed in place: its type becomes [N, M] for [M, N], and the axes of expand_dims and
// reductions swap. Each element keeps its pointer, mask and value; only the order of the
// loops over it changes, so that the innermost loop runs along memory.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"

namespace tritium {
#define GEN_PASS_DEF_TRANSPOSETILESTOMEMORYORDER
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// Tiles narrower than this along their contiguous dimension fill no vector either way.
constexpr int64_t kMinContiguousExtent = 8;

/// The constant every element of `v` has, if it is a splat constant integer tile.
std::optional<int64_t> splatConstant(Value v) {
  SplatElementsAttr splat;
  if (!matchPattern(v, m_Constant(&splat)) || !isa<IntegerType>(splat.getElementType()))
    return std::nullopt;
  return splat.getSplatValue<APInt>().getSExtValue();
}

/// How an integer index (or pointer) tile advances along each of its dimensions, in elements:
/// exact where it is affine in the indices with constant coefficients (or piecewise so, through
/// remainders and quotients by constant periods), unknown (nullopt) otherwise.
using Strides = SmallVector<std::optional<int64_t>, 2>;

Strides combine(const Strides &a, const Strides &b, function_ref<int64_t(int64_t, int64_t)> f) {
  Strides result;
  for (auto [x, y] : llvm::zip(a, b))
    result.push_back(x && y ? std::optional<int64_t>(f(*x, *y)) : std::nullopt);
  return result;
}

Strides stridesOf(Value v, unsigned rank) {
  Strides unknown(rank, std::nullopt), uniform(rank, int64_t(0));
  if (splatConstant(v))
    return uniform;
  Operation *def = v.getDefiningOp();
  if (!def)
    return unknown;
  if (isa<tt::SplatOp>(def))
    return uniform;
  if (auto range = dyn_cast<tt::MakeRangeOp>(def))
    return Strides{int64_t(1)};
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(def)) {
    Strides inner = stridesOf(expand.getSrc(), rank - 1);
    inner.insert(inner.begin() + expand.getAxis(), int64_t(0));
    return inner;
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(def)) {
    Strides inner = stridesOf(broadcast.getSrc(), rank);
    auto srcShape = cast<RankedTensorType>(broadcast.getSrc().getType()).getShape();
    for (auto [i, extent] : llvm::enumerate(srcShape))
      if (extent == 1)
        inner[i] = 0;
    return inner;
  }
  if (auto addptr = dyn_cast<tt::AddPtrOp>(def))
    return combine(stridesOf(addptr.getPtr(), rank), stridesOf(addptr.getOffset(), rank),
                   [](int64_t a, int64_t b) { return a + b; });
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def))
    return stridesOf(def->getOperand(0), rank);
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    bool add = isa<arith::AddIOp>(def);
    return combine(stridesOf(def->getOperand(0), rank), stridesOf(def->getOperand(1), rank),
                   [&](int64_t a, int64_t b) { return add ? a + b : a - b; });
  }
  // Inductor's `x % C` and `x // C` by a constant period: piecewise, the remainder advances
  // with x and the quotient stays (the division strips of the CPU target make that so).
  if (isa<arith::RemSIOp, arith::RemUIOp, arith::DivSIOp, arith::DivUIOp>(def)) {
    std::optional<int64_t> period = splatConstant(def->getOperand(1));
    if (!period || *period < kMinContiguousExtent)
      return unknown;
    Strides s = stridesOf(def->getOperand(0), rank);
    if (isa<arith::DivSIOp, arith::DivUIOp>(def))
      for (std::optional<int64_t> &stride : s)
        stride = stride && (*stride == 0 || *stride == 1) ? std::optional<int64_t>(0) : std::nullopt;
    return s;
  }
  if (isa<arith::MulIOp>(def)) {
    for (auto [scaled, factor] : {std::pair(def->getOperand(0), def->getOperand(1)),
                                  {def->getOperand(1), def->getOperand(0)}})
      if (std::optional<int64_t> c = splatConstant(factor)) {
        Strides s = stridesOf(scaled, rank);
        for (std::optional<int64_t> &stride : s)
          if (stride)
            *stride *= *c;
        return s;
      }
    // A product of a uniform value is uniform; anything else is not known.
    Strides a = stridesOf(def->getOperand(0), rank), b = stridesOf(def->getOperand(1), rank);
    if (a == uniform && b == uniform)
      return uniform;
    return unknown;
  }
  return unknown;
}

RankedTensorType tileOfRank(Type t, int64_t rank) {
  auto tile = dyn_cast<RankedTensorType>(t);
  return tile && tile.getRank() == rank ? tile : nullptr;
}

/// Whether the meaning of `op` for 2-D tiles depends on the order of their dimensions only
/// through an axis this pass swaps.
bool transposesWithItsTiles(Operation *op) {
  if (isa<arith::ConstantOp>(op)) {
    auto value = dyn_cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue());
    return value && value.isSplat();
  }
  if (isa<tt::LoadOp, tt::StoreOp>(op)) {
    // Through tiles of pointers (block pointers carry a shape of their own).
    Value ptr = isa<tt::LoadOp>(op) ? cast<tt::LoadOp>(op).getPtr() : cast<tt::StoreOp>(op).getPtr();
    return isa<RankedTensorType>(ptr.getType());
  }
  if (isa<arith::ArithDialect, math::MathDialect, ub::UBDialect>(op->getDialect()))
    return op->hasTrait<OpTrait::Elementwise>() || isa<ub::PoisonOp>(op) || op->getNumRegions() == 0;
  return isa<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::AddPtrOp, tt::ReduceOp,
             tt::ReduceReturnOp, tt::FpToFpOp, tt::BitcastOp, tt::IntToPtrOp, tt::PtrToIntOp,
             tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp, tt::ApproxDivFOp, tt::MulhiUIOp,
             tt::ExternElementwiseOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op);
}

/// Whether every 2-D tile of `func` may be transposed: no tile of higher rank, no layout
/// encoding, none in the signature or through a call, and 2-D tiles only through ops that
/// transpose with them.
bool tilesMayTranspose(tt::FuncOp func) {
  auto fits = [](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    return !tile || (tile.getRank() <= 2 && !tile.getEncoding());
  };
  for (Type t : func.getFunctionType().getInputs())
    if (isa<RankedTensorType>(t))
      return false;
  WalkResult result = func.walk([&](Operation *op) {
    if (isa<tt::CallOp>(op))
      return WalkResult::interrupt();
    bool touchesTiles = false;
    for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      if (!fits(t))
        return WalkResult::interrupt();
      touchesTiles |= bool(tileOfRank(t, 2));
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments()) {
          if (!fits(arg.getType()))
            return WalkResult::interrupt();
          touchesTiles |= bool(tileOfRank(arg.getType(), 2));
        }
    if (touchesTiles && !transposesWithItsTiles(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether the kernel's 2-D accesses that run along memory in one dimension all run along the
/// first (and some do).
bool accessesRunAlongFirstDimension(tt::FuncOp func) {
  int along0 = 0, along1 = 0;
  func.walk([&](Operation *op) {
    Value ptr;
    if (auto load = dyn_cast<tt::LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<tt::StoreOp>(op))
      ptr = store.getPtr();
    else
      return;
    RankedTensorType tile = tileOfRank(ptr.getType(), 2);
    if (!tile || tile.getDimSize(0) == 1 || tile.getDimSize(1) == 1)
      return;
    Strides s = stridesOf(ptr, 2);
    auto unit = [](std::optional<int64_t> x) { return x && *x == 1; };
    auto moves = [](std::optional<int64_t> x) { return !x || *x != 0; };
    if (unit(s[1]) && moves(s[0]))
      ++along1;
    else if (unit(s[0]) && moves(s[1]) && tile.getDimSize(0) >= kMinContiguousExtent)
      ++along0;
  });
  return along0 > 0 && along1 == 0;
}

Type transposed(Type t) {
  RankedTensorType tile = tileOfRank(t, 2);
  if (!tile)
    return t;
  return RankedTensorType::get({tile.getDimSize(1), tile.getDimSize(0)}, tile.getElementType());
}

void transposeTiles(tt::FuncOp func) {
  func.walk([&](Operation *op) {
    if (auto expand = dyn_cast<tt::ExpandDimsOp>(op); expand && tileOfRank(expand.getType(), 2))
      expand.setAxis(1 - expand.getAxis());
    if (auto reduce = dyn_cast<tt::ReduceOp>(op); reduce && tileOfRank(reduce.getSrcs()[0].getType(), 2))
      reduce.setAxis(1 - reduce.getAxis());
    if (auto constant = dyn_cast<arith::ConstantOp>(op); constant && tileOfRank(constant.getType(), 2)) {
      auto value = cast<DenseElementsAttr>(constant.getValue());
      constant.setValueAttr(value.resizeSplat(cast<ShapedType>(transposed(value.getType()))));
    }
    for (OpResult result : op->getResults())
      result.setType(transposed(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(transposed(arg.getType()));
  });
}

struct TransposeTilesToMemoryOrderPass
    : impl::TransposeTilesToMemoryOrderBase<TransposeTilesToMemoryOrderPass> {
  void runOnOperation() override {
    getOperation().walk([&](tt::FuncOp func) {
      if (tilesMayTranspose(func) && accessesRunAlongFirstDimension(func))
        transposeTiles(func);
    });
  }
};

} // namespace
} // namespace tritium
