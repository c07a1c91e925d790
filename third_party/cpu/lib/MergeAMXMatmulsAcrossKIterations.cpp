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
#include "KLoopUnrolling.h"
#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MERGEAMXMATMULSACROSSKITERATIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Tile steps a C tile should sum between its load and its store: the tile pass's run length.
constexpr int64_t kTargetSteps = kAMXStepsPerCRoundTrip;

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
    llvm::MapVector<scf::ForOp, int64_t> factors;
    llvm::DenseMap<scf::ForOp, SmallVector<unsigned>> positions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->hasAttr(kAMXTilesAttrName) || op.getNumDpsInputs() != 2) // one product
        return;
      std::optional<unsigned> position = accumulatedIterArg(op);
      int64_t steps = tileSteps(op);
      if (!position || steps >= kTargetSteps)
        return;
      auto loop = cast<scf::ForOp>(op->getParentOp());
      auto it = factors.try_emplace(loop, kTargetSteps / steps).first;
      it->second = std::min(it->second, kTargetSteps / steps);
      positions[loop].push_back(*position);
    });
    // The unrolled loop yields its accumulators at the same positions.
    unrollKLoops(getOperation(), factors, [&](scf::ForOp original, scf::ForOp unrolled) {
      for (unsigned position : positions.lookup(original))
        mergeChain(unrolled, position);
    });
  }
};

} // namespace
} // namespace tritium::cpu
