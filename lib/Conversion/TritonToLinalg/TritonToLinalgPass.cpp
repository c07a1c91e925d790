//===- TritonToLinalgPass.cpp - the convert-triton-to-linalg pass ---------===//

#include "TileElementMaterializer.h"
#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/StringSet.h"

namespace tritium {
#define GEN_PASS_DEF_CONVERTTRITONTOLINALG
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

struct ConvertTritonToLinalgPass
    : impl::ConvertTritonToLinalgBase<ConvertTritonToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    TritonToLinalgTypeConverter converter(context);
    RewritePatternSet patterns(context);
    populateFunctionPatterns(converter, patterns);
    populateShapePatterns(converter, patterns);
    populatePointerPatterns(converter, patterns);
    populateMemoryPatterns(converter, patterns);
    populateDotPatterns(converter, patterns);
    populateReductionPatterns(converter, patterns);
    populateElementwisePatterns(converter, patterns);
    populateAtomicPatterns(converter, patterns);
    populateDataMovementPatterns(converter, patterns);
    populateDebugPatterns(converter, patterns);
    populateExternElementwisePatterns(converter, patterns);
    populateTritonGPUPatterns(converter, patterns);
    populateRetypeStructuralOpsPatterns(converter, patterns);

    if (failed(reportOpsWithoutLowering(module, patterns)))
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addIllegalDialect<tt::TTDialect, ttg::TTGDialect>();
    target.addLegalDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                           func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                           math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                           tensor::TensorDialect, ub::UBDialect, cf::ControlFlowDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect, ub::UBDialect>(
        [&](Operation *op) {
          return converter.isLegal(op) && !op->hasAttr(kComputedPerElementAttr);
        });
    target.addLegalOp<ModuleOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  /// Names every tt op that no pattern lowers, at its location, before converting anything.
  LogicalResult reportOpsWithoutLowering(ModuleOp module, RewritePatternSet &patterns) {
    llvm::StringSet<> lowered;
    for (const auto &pattern : patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        lowered.insert(root->getStringRef());
    bool ok = true;
    // Pre-order, so that the ops inside a rejected op (the regions of warp_specialize) are
    // not reported again.
    module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (!isa<tt::TTDialect, ttg::TTGDialect>(op->getDialect()) ||
          lowered.contains(op->getName().getStringRef()))
        return WalkResult::advance();
      if (isa<ttg::AsyncCommitGroupOp, ttg::AsyncWaitOp>(op))
        return WalkResult::advance();
      std::string reason = reasonWithoutCPUMeaning(op);
      if (!reason.empty()) {
        op->emitError() << "tritium cannot lower '" << op->getName() << "': " << reason;
        ok = false;
        return WalkResult::skip();
      }
      // Terminators of regions that their parent's lowering consumes.
      if (isa<tt::ReduceReturnOp, tt::ScanReturnOp, tt::MapElementwiseReturnOp, ttg::MaskReturnOp>(
              op))
        return WalkResult::advance();
      if (isa<tt::ElementwiseInlineAsmOp>(op))
        op->emitError() << "tritium cannot lower '" << op->getName()
                        << "': inline assembly is written for a GPU instruction set and has no "
                           "meaning on this device";
      else
        op->emitError() << "tritium cannot lower '" << op->getName()
                        << "' yet: no conversion to linalg exists for this operation";
      ok = false;
      return WalkResult::skip();
    });
    return success(ok);
  }
};

} // namespace
} // namespace tritium
