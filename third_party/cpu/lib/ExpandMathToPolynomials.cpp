//===- ExpandMathToPolynomials.cpp - vectorizable transcendental math -----===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_EXPANDMATHTOPOLYNOMIALS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Functions whose upstream approximations are accurate to a few ULP over the whole f32
/// range. The others (sin, cos, atan, ...) stay as libm calls, which are exact but scalar.
bool hasAccurateApproximation(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"exp", "expm1", "log", "log1p", "log2", "tanh", "erf"}, name);
}

struct ExpandMathToPolynomialsPass
    : impl::ExpandMathToPolynomialsBase<ExpandMathToPolynomialsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, hasAccurateApproximation);
    populateMathPolynomialApproximationPatterns(patterns, hasAccurateApproximation);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
