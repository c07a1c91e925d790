//===- CarryPointerTileOffsetsAsScalars.cpp - loop-carried pointer tiles --===//
//
// `a_ptrs += BLOCK_K * stride` in a K loop carries a whole tile of pointers through scf.for.
// A tile that arrives as a block argument cannot be recomputed element by element, so its
// loads would read every address back from a materialized tensor. When each iteration moves
// the tile by the same amount for all elements (a splat), the tile is its initial value plus
// one scalar: the loop carries that scalar instead and the body rebuilds the tile as
// `addptr(init, splat(offset))`, whose elements the lowering recomputes from the index math.
//
//===----------------------------------------------------------------------===//

#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace tritium {
#define GEN_PASS_DEF_CARRYPOINTERTILEOFFSETSASSCALARS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// Whether every element of `offsets` is one scalar: `tt.splat %s` or an integer splat constant.
bool isUniform(Value offsets) {
  if (offsets.getDefiningOp<tt::SplatOp>())
    return true;
  SplatElementsAttr constant;
  return matchPattern(offsets, m_Constant(&constant)) &&
         isa<IntegerType>(constant.getElementType());
}

/// That scalar, as an i64 created with `b`.
Value uniformOffsetAsI64(OpBuilder &b, Location loc, Value offsets) {
  Value scalar;
  if (auto splat = offsets.getDefiningOp<tt::SplatOp>()) {
    scalar = splat.getSrc();
  } else {
    SplatElementsAttr constant;
    matchPattern(offsets, m_Constant(&constant));
    scalar = arith::ConstantOp::create(b, loc, constant.getSplatValue<TypedAttr>());
  }
  if (scalar.getType().isInteger(64))
    return scalar;
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), scalar);
}

/// The offset tiles by which the yielded value advances `iterArg`: `yielded` must be a chain of
/// `tt.addptr` with uniform offsets starting at `iterArg`. Empty if it is not.
SmallVector<Value> uniformSteps(Value iterArg, Value yielded) {
  SmallVector<Value> steps;
  while (yielded != iterArg) {
    auto addptr = yielded.getDefiningOp<tt::AddPtrOp>();
    if (!addptr || !isUniform(addptr.getOffset()))
      return {};
    steps.push_back(addptr.getOffset());
    yielded = addptr.getPtr();
  }
  return steps;
}

/// `tile` advanced by the scalar element offset `offset` (i64).
Value advance(OpBuilder &b, Location loc, Value tile, Value offset) {
  auto tileType = cast<RankedTensorType>(tile.getType());
  Type offsetsType = tileType.clone(b.getI64Type());
  Value splat = tt::SplatOp::create(b, loc, offsetsType, offset);
  return tt::AddPtrOp::create(b, loc, tileType, tile, splat);
}

/// Rewrites one pointer-tile iter_arg of `loop`, if it advances uniformly; returns the loop
/// (replaced when an iter_arg was added).
scf::ForOp carryAsScalar(IRRewriter &rewriter, scf::ForOp loop, unsigned index) {
  BlockArgument iterArg = loop.getRegionIterArgs()[index];
  auto tileType = dyn_cast<RankedTensorType>(iterArg.getType());
  if (!tileType || !isa<tt::PointerType>(tileType.getElementType()))
    return loop;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value yielded = yield.getOperand(index);
  if (yielded == iterArg)
    return loop;
  SmallVector<Value> steps = uniformSteps(iterArg, yielded);
  if (steps.empty())
    return loop;

  OpBuilder::InsertionGuard guard(rewriter);
  Location loc = loop.getLoc();
  Value init = loop.getInitArgs()[index];
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0));
  auto newYields = [&](OpBuilder &b, Location yieldLoc,
                       ArrayRef<BlockArgument> newArgs) -> SmallVector<Value> {
    Value offset = newArgs.front();
    for (Value step : steps)
      offset = arith::AddIOp::create(b, yieldLoc, offset, uniformOffsetAsI64(b, yieldLoc, step));
    return {offset};
  };
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(*loop).replaceWithAdditionalYields(
          rewriter, ValueRange{zero}, /*replaceInitOperandUsesInLoop=*/false, newYields);
  if (failed(replaced))
    return loop;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  BlockArgument offsetArg = newLoop.getRegionIterArgs().back();
  BlockArgument tileArg = newLoop.getRegionIterArgs()[index];

  // Inside: the tile is the initial tile advanced by the carried offset.
  rewriter.setInsertionPointToStart(newLoop.getBody());
  Value rebuilt = advance(rewriter, iterArg.getLoc(), init, offsetArg);
  rewriter.replaceAllUsesWith(tileArg, rebuilt);
  // The tile iter_arg is now yielded unchanged (canonicalization drops it) ...
  auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  newYield->setOperand(index, tileArg);
  // ... and after the loop it is rebuilt from the final offset.
  Value result = newLoop.getResult(index);
  if (!result.use_empty()) {
    rewriter.setInsertionPointAfter(newLoop);
    Value after = advance(rewriter, loc, init, newLoop.getResults().back());
    rewriter.replaceAllUsesWith(result, after);
  }
  return newLoop;
}

struct CarryPointerTileOffsetsAsScalarsPass
    : impl::CarryPointerTileOffsetsAsScalarsBase<CarryPointerTileOffsetsAsScalarsPass> {
  void runOnOperation() override {
    // Inner loops first: an outer tile advanced past an inner loop is then a chain of splats.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk<WalkOrder::PostOrder>([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index)
        loop = carryAsScalar(rewriter, loop, index);
  }
};

} // namespace
} // namespace tritium
