//===- UpdateLoopCarriedTilesInPlace.cpp - accumulators without a new buffer ===//
//
// `acc += tl.load(...)` in a loop (Inductor's reductions over long rows, the running sums of
// layer norm) is an elementwise linalg.generic whose output is a fresh tensor.empty and whose
// result is yielded as the loop's next accumulator. Bufferized as it is, that is a new buffer
// every iteration, which cannot be hoisted because it escapes the iteration through the yield:
// a malloc and a free per iteration of every program. Writing the result over the loop-carried
// operand instead (same shape, element i read before element i is written) lets bufferization
// update the accumulator's buffer in place; if the old value is still needed elsewhere, its
// analysis inserts a copy as it does for any conflict.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_UPDATELOOPCARRIEDTILESINPLACE
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The input of an elementwise `generic` that is an iter_arg of the enclosing scf.for and that
/// its result replaces in the yield, or null. The generic may sit in branches of the loop body
/// (`if row < n_rows: acc += ...`): its result then reaches the loop's yield through the
/// yields of the enclosing scf.if ops; or it may be the destination of an op (a matmul's C)
/// whose result is what the loop yields.
OpOperand *loopCarriedInput(linalg::GenericOp generic) {
  // Other inputs may be broadcasts (`acc + exp(x - max)` reads the row's max through a
  // broadcasting map): only the accumulator and the result must be read and written element
  // by element.
  if (generic.getNumDpsInits() != 1 || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)).isIdentity() ||
      !generic.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() ||
      generic.getMatchingBlockArgument(generic.getDpsInitOperand(0)).getNumUses() != 0)
    return nullptr;
  // Follow the result out through the yields of enclosing branches to the loop's yield.
  Operation *op = generic;
  Value result = generic.getResult(0);
  unsigned position = 0;
  scf::ForOp loop;
  while (!loop) {
    if (!result.hasOneUse())
      return nullptr;
    OpOperand &use = *result.getUses().begin();
    // The destination of an op that writes over it (attention's `tl.dot(p, v, acc * scale)`:
    // the scaled accumulator is the product's init): follow the op's result.
    if (auto destination = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        destination && destination.isDpsInit(&use) &&
        destination->getBlock() == op->getBlock()) {
      op = destination;
      result = destination.getTiedOpResult(&use);
      continue;
    }
    if (use.getOwner() != op->getBlock()->getTerminator())
      return nullptr;
    position = use.getOperandNumber();
    Operation *parent = op->getParentOp();
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      op = branch;
      result = branch.getResult(position);
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      loop = forOp;
    } else {
      return nullptr;
    }
  }
  Value iterArg = loop.getRegionIterArgs()[position];
  if (iterArg.getType() != generic.getResult(0).getType())
    return nullptr;
  OpOperand *accumulator = nullptr;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() != iterArg)
      continue;
    if (!generic.getMatchingIndexingMap(input).isIdentity())
      return nullptr; // read elsewhere than where it is written
    accumulator = input;
  }
  return accumulator;
}

struct UpdateLoopCarriedTilesInPlacePass
    : impl::UpdateLoopCarriedTilesInPlaceBase<UpdateLoopCarriedTilesInPlacePass> {
  void runOnOperation() override {
    getOperation().walk([](linalg::GenericOp generic) {
      if (OpOperand *input = loopCarriedInput(generic))
        generic.getDpsInitOperand(0)->set(input->get());
    });
  }
};

} // namespace
} // namespace tritium::cpu
