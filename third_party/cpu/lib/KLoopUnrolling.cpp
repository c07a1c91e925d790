//===- KLoopUnrolling.cpp - K loops unrolled into longer C runs -----------===//

#include "KLoopUnrolling.h"
#include "ReadTilesInPlace.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;

namespace tritium::cpu {

std::optional<unsigned> accumulatedIterArg(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  auto destination = dyn_cast<DestinationStyleOpInterface>(op);
  if (!loop || !destination || destination.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  auto acc = dyn_cast<BlockArgument>(destination.getDpsInits()[0]);
  if (!acc || acc.getOwner() != loop.getBody() || acc.getArgNumber() == 0 || !acc.hasOneUse() ||
      !op->getResult(0).hasOneUse())
    return std::nullopt;
  unsigned position = acc.getArgNumber() - 1;
  if (loop.getBody()->getTerminator()->getOperand(position) != op->getResult(0))
    return std::nullopt;
  return position;
}

void unrollKLoops(FunctionOpInterface function, const llvm::MapVector<scf::ForOp, int64_t> &factors,
                  llvm::function_ref<void(scf::ForOp, scf::ForOp)> unrolled) {
  bool unrolledAny = false;
  for (auto [loop, factor] : factors) {
    if (std::optional<APInt> trips = loop.getStaticTripCount())
      factor = std::min<int64_t>(factor, trips->getSExtValue());
    if (factor < 2)
      continue;
    FailureOr<UnrolledLoopInfo> info = loopUnrollByFactor(loop, factor);
    if (failed(info))
      continue;
    unrolledAny = true;
    // No main loop: it ran once and its body took its place.
    if (info->mainLoopOp)
      unrolled(loop, *info->mainLoopOp);
  }
  if (unrolledAny)
    tile_reads::boundLookupWindows(function);
}

} // namespace tritium::cpu
