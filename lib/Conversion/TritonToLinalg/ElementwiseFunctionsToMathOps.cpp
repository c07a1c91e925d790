//===- ElementwiseFunctionsToMathOps.cpp - libdevice calls as math ops -----===//
//
// Inductor spells `exp` as `libdevice.exp` (a `tt.extern_elementwise` of `expf`) next to
// `tl.sigmoid`, whose `math.exp` of the same value it also emits. As an extern call the tile
// is computed on its own, before anything else; as the math op it is an elementwise op like
// any other: the loads feeding it can be read where they are stored, and a value computed twice
// (exp(-x) of silu's backward) is computed once. Only functions the CPU target computes with
// vector instructions become math ops here; the rest stay calls, which
// convert-triton-to-linalg lowers as before.
//
//===----------------------------------------------------------------------===//

#include "ExternMathFunctions.h"
#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tritium {
#define GEN_PASS_DEF_ELEMENTWISEFUNCTIONSTOMATHOPS
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// Whether the math op `name` on `elementType` is computed with vector instructions
/// (polynomials, or one instruction) rather than a C library call per element.
bool isVectorized(StringRef name, Type elementType) {
  name.consume_front("math.");
  if (llvm::is_contained({"sqrt", "absf", "floor", "ceil", "trunc", "roundeven", "copysign", "fma"},
                         name))
    return elementType.isF32() || elementType.isF64();
  return elementType.isF32() &&
         llvm::is_contained({"exp", "exp2", "expm1", "log", "log1p", "log2", "tanh", "erf"}, name);
}

struct ElementwiseFunctionsToMathOpsPass
    : impl::ElementwiseFunctionsToMathOpsBase<ElementwiseFunctionsToMathOpsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      OpBuilder b(op);
      Value ieee;
      if (auto sqrt = dyn_cast<tt::PreciseSqrtOp>(op))
        ieee = math::SqrtOp::create(b, op->getLoc(), sqrt.getX());
      else if (auto div = dyn_cast<tt::PreciseDivFOp>(op))
        ieee = arith::DivFOp::create(b, op->getLoc(), div.getX(), div.getY());
      else if (auto div = dyn_cast<tt::ApproxDivFOp>(op))
        ieee = arith::DivFOp::create(b, op->getLoc(), div.getX(), div.getY());
      if (!ieee)
        return WalkResult::advance();
      op->replaceAllUsesWith(ValueRange{ieee});
      op->erase();
      return WalkResult::skip();
    });
    SmallVector<tt::ExternElementwiseOp> calls;
    getOperation()->walk([&](tt::ExternElementwiseOp op) { calls.push_back(op); });
    for (tt::ExternElementwiseOp op : calls) {
      if (!op.getPure())
        continue;
      std::string symbol = canonicalSymbol(op.getSymbol());
      StringRef name = mathOpNameOf(symbol);
      Type type = op.getType();
      if (name.empty() || !isVectorized(name, getElementTypeOrSelf(type)) ||
          llvm::any_of(op.getSrcs(), [&](Value src) { return src.getType() != type; }))
        continue;
      OpBuilder b(op);
      OperationState state(op.getLoc(), name, op.getSrcs(), TypeRange{type});
      Operation *math = b.create(state);
      op->replaceAllUsesWith(math->getResults());
      op.erase();
    }
  }
};

} // namespace
} // namespace tritium
