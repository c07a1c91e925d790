//===- InterchangeMatmulLoops.cpp - (m, k, n) loop order for matmuls ------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_INTERCHANGEMATMULLOOPS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

struct InterchangeMatmulLoopsPass
    : impl::InterchangeMatmulLoopsBase<InterchangeMatmulLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : matmuls) {
      bool batched = isa<linalg::BatchMatmulOp>(op.getOperation());
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        continue;
      // Named matmul loops are (m, n, k); swapping the last two gives (m, k, n).
      SmallVector<unsigned> order =
          batched ? SmallVector<unsigned>{0, 1, 3, 2} : SmallVector<unsigned>{0, 2, 1};
      (void)linalg::interchangeGenericOp(rewriter, *generic, order);
    }
  }
};

} // namespace
} // namespace tritium::cpu
