//===- HoistAccumulatorTransfers.cpp - keep loop-carried vectors in registers ===//
//
// After bufferization, a register-blocked matmul reads and writes its C block through
// vector transfers inside the K loop, at loop-invariant addresses. When the block's buffer
// is a local allocation that nothing else in the loop touches, and the loop certainly runs,
// the read moves before the loop, the block becomes a loop-carried vector, and the write
// moves after it.
//
//===----------------------------------------------------------------------===//

#include "RootBuffer.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_HOISTACCUMULATORTRANSFERS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

bool runsAtLeastOnce(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  return lower && upper && *lower < *upper;
}

/// A read/write pair of the same block that can leave `loop`, if the body has one.
std::optional<std::pair<vector::TransferReadOp, vector::TransferWriteOp>>
hoistablePair(scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto candidate = dyn_cast<vector::TransferWriteOp>(op)) {
      if (write)
        return std::nullopt; // one write per loop keeps the reasoning simple
      write = candidate;
    }
  }
  if (!write || write.getMask() || !isa<MemRefType>(write.getShapedType()) ||
      !loop.isDefinedOutsideOfLoop(write.getBase()) ||
      !llvm::all_of(write.getIndices(), [&](Value i) { return loop.isDefinedOutsideOfLoop(i); }))
    return std::nullopt;
  Value root = rootBuffer(write.getBase());
  if (!root.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  vector::TransferReadOp read;
  bool safe = true;
  loop.getBody()->walk([&](Operation *op) {
    if (op == write.getOperation() || isMemoryEffectFree(op) || isa<scf::YieldOp>(op))
      return;
    auto other = dyn_cast<vector::TransferReadOp>(op);
    if (!other) {
      safe = false; // a store, a call, ...: it might touch the block
      return;
    }
    if (rootBuffer(other.getBase()) != root)
      return; // another buffer: a distinct allocation cannot alias the block
    if (read || other->getBlock() != loop.getBody() || other.getBase() != write.getBase() ||
        other.getIndices() != write.getIndices() || other.getVectorType() != write.getVectorType() ||
        other.getPermutationMap() != write.getPermutationMap() || other.getMask() ||
        !other->isBeforeInBlock(write)) {
      safe = false;
      return;
    }
    read = other;
  });
  if (!safe || !read)
    return std::nullopt;
  return std::make_pair(read, write);
}

struct HoistAccumulatorTransfersPass
    : impl::HoistAccumulatorTransfersBase<HoistAccumulatorTransfersPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        if (!runsAtLeastOnce(loop))
          continue;
        auto pair = hoistablePair(loop);
        if (!pair)
          continue;
        auto [read, write] = *pair;
        read->moveBefore(loop);
        Value written = write.getVector();
        FailureOr<LoopLikeOpInterface> widened = loop.replaceWithAdditionalYields(
            rewriter, ValueRange{read.getResult()}, /*replaceInitOperandUsesInLoop=*/true,
            [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
              return SmallVector<Value>{written};
            });
        if (failed(widened))
          continue;
        auto newLoop = cast<scf::ForOp>(widened->getOperation());
        Value block = newLoop.getResults().back();
        rewriter.setInsertionPointAfter(newLoop);
        vector::TransferWriteOp::create(rewriter, write.getLoc(), block, write.getBase(),
                                        write.getIndices(), write.getPermutationMapAttr(),
                                        write.getInBoundsAttr());
        rewriter.eraseOp(write);
        changed = true;
        break; // the walk's loops changed; start again
      }
    }
  }
};

} // namespace
} // namespace tritium::cpu
