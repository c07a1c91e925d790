//===- MergeAMXMatmulsAcrossKIterations.cpp - longer K runs for AMX tiles -===//
//
// tritium-cpu-matmuls-to-amx-tiles loads each C tile, sums K into it and stores it again for
// every tile generic: a kernel's `acc = tl.dot(a, b, acc)` over BLOCK_K = 64 bf16 gives it
// two tile steps per C round trip, and the C block (64 KB at 128x128 f32) streams through L2
// at every iteration of the kernel's K loop. Unrolling that loop by u and summing the u
// products in one generic gives the tile pass u times the K run for each C tile load and
// store. int8 at BLOCK_K = 64 (one step a dot) gains most: 1024^3 at 128x128x64 on two
// Emerald Rapids cores, ~1340 -> ~1800 GOP/s; bf16 at BLOCK_K = 64 (two steps) stayed within
// the noise. The operands of every iteration are still loaded and packed by that
// iteration's code, now all before the merged generic.
//
//===----------------------------------------------------------------------===//

#include "AMXTileGeneric.h"
#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MERGEAMXMATMULSACROSSKITERATIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Tile steps a C tile should sum between its load and its store: the tile pass's run length.
constexpr int64_t kTargetSteps = kAMXStepsPerCRoundTrip;

/// The iter_arg position whose value `op` updates (init is the iter_arg, result is yielded
/// there and nothing else reads either), or nothing.
std::optional<unsigned> accumulatedPosition(linalg::GenericOp op, scf::ForOp loop) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  auto acc = dyn_cast<BlockArgument>(op.getDpsInits()[0]);
  if (!acc || acc.getOwner() != loop.getBody() || acc.getArgNumber() == 0 || !acc.hasOneUse() ||
      !op.getResult(0).hasOneUse())
    return std::nullopt;
  unsigned position = acc.getArgNumber() - 1;
  if (loop.getBody()->getTerminator()->getOperand(position) != op.getResult(0))
    return std::nullopt;
  return position;
}

/// Tile steps of one product of `op`: its K groups over a tile's rows.
int64_t tileSteps(linalg::GenericOp op) {
  auto grouped = cast<ShapedType>(op.getDpsInputs()[0].getType());
  return grouped.getDimSize(1) / kAMXTileRows;
}

/// In `loop` (unrolled), replaces the chain of marked generics yielded at `position` (each
/// accumulating into the previous one's result, the first into the iter_arg) by one generic
/// summing all their products.
void mergeChain(scf::ForOp loop, unsigned position) {
  SmallVector<linalg::GenericOp> chain;
  Value value = loop.getBody()->getTerminator()->getOperand(position);
  while (auto op = value.getDefiningOp<linalg::GenericOp>()) {
    if (!op->hasAttr(kAMXTilesAttrName) || op->getBlock() != loop.getBody() ||
        op.getNumDpsInits() != 1 || !op.getResult(0).hasOneUse())
      break;
    chain.push_back(op);
    value = op.getDpsInits()[0];
  }
  if (chain.size() < 2 || value != loop.getRegionIterArg(position))
    return;
  // The merged generic reads every iteration's operands where the last one was: an operand
  // tile read where it lies (A of an AMX product) must not be read after a store that may
  // change it.
  for (auto [later, earlier] : llvm::zip(chain, ArrayRef(chain).drop_front()))
    if (tile_reads::writesGlobalMemoryBetween(earlier, later))
      return;
  std::reverse(chain.begin(), chain.end());
  SmallVector<AMXTileProduct> products;
  for (linalg::GenericOp op : chain)
    products.append(amxTileProducts(op));
  linalg::GenericOp last = chain.back();
  OpBuilder b(last);
  Value merged = buildAMXTileGeneric(b, last.getLoc(), products, value);
  last.getResult(0).replaceAllUsesWith(merged);
  for (linalg::GenericOp op : llvm::reverse(chain))
    op->erase();
}

struct MergeAMXMatmulsAcrossKIterationsPass
    : impl::MergeAMXMatmulsAcrossKIterationsBase<MergeAMXMatmulsAcrossKIterationsPass> {
  void runOnOperation() override {
    // Loops, each with the unroll factor its shortest tile generic asks for and the
    // positions of the accumulators tile generics update.
    llvm::MapVector<scf::ForOp, std::pair<int64_t, SmallVector<unsigned>>> loops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->hasAttr(kAMXTilesAttrName) || op.getNumDpsInputs() != 2) // one product
        return;
      auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
      if (!loop)
        return;
      std::optional<unsigned> position = accumulatedPosition(op, loop);
      int64_t steps = tileSteps(op);
      if (!position || steps >= kTargetSteps)
        return;
      auto it = loops.try_emplace(loop, kTargetSteps / steps, SmallVector<unsigned>{}).first;
      it->second.first = std::min(it->second.first, kTargetSteps / steps);
      it->second.second.push_back(*position);
    });
    bool unrolledAny = false;
    for (auto &[loop, plan] : loops) {
      auto &[factor, positions] = plan;
      if (std::optional<APInt> trips = loop.getStaticTripCount())
        factor = std::min<int64_t>(factor, trips->getSExtValue());
      if (factor < 2)
        continue;
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, factor);
      if (failed(unrolled) || !unrolled->mainLoopOp)
        continue;
      unrolledAny = true;
      for (unsigned position : positions)
        mergeChain(*unrolled->mainLoopOp, position);
    }
    // The merged generic reads the tiles of all unrolled iterations after all their lookups.
    if (unrolledAny)
      tile_reads::boundLookupWindows(getOperation());
  }
};

} // namespace
} // namespace tritium::cpu
