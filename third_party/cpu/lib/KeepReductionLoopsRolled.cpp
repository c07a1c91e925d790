//===- KeepReductionLoopsRolled.cpp - row reductions vectorized along rows ===//
//
// A reduction of a 2-D tile along its rows (`tl.sum(p, 1)`, a layer norm's sums over a block
// of rows) lowers to `for i { for j { acc[i] = acc[i] + x[i, j] } }`. With a constant row
// length LLVM fully unrolls the inner loop before its loop vectorizer runs; the outer loop is
// then the innermost one and gets vectorized across rows: every vector gathers one element of
// eight rows, a scalar load and an insert per element. In a flash-attention step (64x64
// tile) that sum took more instructions than the softmax's exponentials.
//
// So a loop that folds a value into one loop-invariant element of a local buffer, with an
// operation LLVM can reassociate, carries the running value in a register instead
// (`scf.for iter_args`, loaded before and stored after: the same operations in the same order)
// and is marked `llvm.loop.unroll.disable` when its trip count is a constant of at least 16,
// so that LLVM vectorizes it along its own dimension, which must be the tile's contiguous one.
// Loops over fewer elements are left to be vectorized across rows, which suits them.
//
//===----------------------------------------------------------------------===//

#include "LoopAccumulations.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_KEEPREDUCTIONLOOPSROLLED
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Loops of fewer iterations are better vectorized across rows (after LLVM unrolls them).
constexpr int64_t kMinimumRolledTripCount = 16;

/// Whether LLVM may reorder a chain of `op` to vectorize it.
bool isReassociable(Operation *op) {
  if (isa<arith::AddIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
          arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(op))
    return true;
  if (isa<arith::AddFOp, arith::MulFOp>(op)) {
    auto flags = cast<arith::ArithFastMathInterface>(op).getFastMathFlagsAttr();
    return flags && bitEnumContainsAll(flags.getValue(), arith::FastMathFlags::reassoc);
  }
  return false;
}

/// Whether `index` is the induction variable `iv` plus something invariant in `loop`.
bool isUnitStepOf(Value index, scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  while (index != iv) {
    Operation *op = index.getDefiningOp();
    if (!op || !isa<arith::IndexCastOp, arith::ExtSIOp, arith::AddIOp>(op))
      return false;
    if (auto sum = dyn_cast<arith::AddIOp>(op)) {
      if (loop.isDefinedOutsideOfLoop(sum.getLhs()))
        index = sum.getRhs();
      else if (loop.isDefinedOutsideOfLoop(sum.getRhs()))
        index = sum.getLhs();
      else
        return false;
      continue;
    }
    index = op->getOperand(0);
  }
  return true;
}

/// Whether consecutive iterations of `loop` load consecutive elements through `load`.
bool readsConsecutiveElements(LLVM::LoadOp load, scf::ForOp loop) {
  Value address = load.getAddr();
  bool advances = false;
  while (!loop.isDefinedOutsideOfLoop(address)) {
    auto gep = address.getDefiningOp<LLVM::GEPOp>();
    if (!gep || gep.getElemType() != load.getType() || gep.getDynamicIndices().size() != 1 ||
        gep.getRawConstantIndices().size() != 1)
      return false;
    Value index = gep.getDynamicIndices()[0];
    if (!loop.isDefinedOutsideOfLoop(index)) {
      if (advances || !isUnitStepOf(index, loop))
        return false;
      advances = true;
    }
    address = gep.getBase();
  }
  return true;
}

/// Whether every read in `loop`'s body walks memory along its contiguous dimension: LLVM
/// loads of consecutive elements, memref loads whose last index is the induction variable (or
/// invariant, as are the others) in buffers whose last stride is 1. Then vectorizing along the
/// loop reads whole vectors.
bool readsAlongContiguousDimension(scf::ForOp loop, const LoopAccumulation &accumulation) {
  Value iv = loop.getInductionVar();
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op))
      return WalkResult::interrupt(); // only innermost loops are unrolled away
    if (op == accumulation.load || op == accumulation.store || isMemoryEffectFree(op) ||
        isa<scf::YieldOp>(op) || op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      return readsConsecutiveElements(load, loop) ? WalkResult::advance()
                                                  : WalkResult::interrupt();
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load)
      return WalkResult::interrupt();
    auto type = load.getMemRefType();
    int64_t offset;
    SmallVector<int64_t> strides;
    if (type.getRank() == 0 || failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return WalkResult::interrupt();
    ValueRange indices = load.getIndices();
    for (Value index : indices.drop_back())
      if (!loop.isDefinedOutsideOfLoop(index))
        return WalkResult::interrupt();
    Value last = indices.back();
    if (last != iv && !loop.isDefinedOutsideOfLoop(last))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// `loop` carries the accumulator in a register and is kept rolled.
void keepRolled(scf::ForOp loop, LoopAccumulation accumulation) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value initial = memref::LoadOp::create(b, loc, accumulation.store.getMemRef(),
                                         accumulation.store.getIndices());
  auto carried = scf::ForOp::create(
      b, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), ValueRange{initial},
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange running) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), iv);
        mapping.map(accumulation.load.getResult(), running[0]);
        for (Operation &op : loop.getBody()->without_terminator())
          if (&op != accumulation.load && &op != accumulation.store)
            nb.clone(op, mapping);
        scf::YieldOp::create(nb, nloc, mapping.lookup(accumulation.combiner->getResult(0)));
      });
  MLIRContext *context = b.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(context, /*disable=*/b.getBoolAttr(true), {}, {}, {},
                                          {}, {}, {});
  carried->setAttr("llvm.loop_annotation",
                   LLVM::LoopAnnotationAttr::get(context, {}, {}, {}, unroll, {}, {}, {}, {},
                                                 {}, {}, {}, {}, {}, {}, {}));
  memref::StoreOp::create(b, loc, carried.getResult(0), accumulation.store.getMemRef(),
                          accumulation.store.getIndices());
  loop->erase();
}

struct KeepReductionLoopsRolledPass
    : impl::KeepReductionLoopsRolledBase<KeepReductionLoopsRolledPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, LoopAccumulation>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->ult(kMinimumRolledTripCount))
        return;
      std::optional<LoopAccumulation> accumulation = loopAccumulationOf(loop);
      if (accumulation && isReassociable(accumulation->combiner) &&
          readsAlongContiguousDimension(loop, *accumulation))
        loops.emplace_back(loop, *accumulation);
    });
    for (auto &[loop, accumulation] : loops)
      keepRolled(loop, accumulation);
  }
};

} // namespace
} // namespace tritium::cpu
