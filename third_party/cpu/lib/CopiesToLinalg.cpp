//===- CopiesToLinalg.cpp - memref.copy as linalg.copy --------------------===//

#include "tritium/Target/CPU/Passes.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_COPIESTOLINALG
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

struct CopiesToLinalgPass : impl::CopiesToLinalgBase<CopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(), copy.getTarget());
    }
  }
};

} // namespace
} // namespace tritium::cpu
