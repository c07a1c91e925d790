//===- Compiler.cpp - tritium's compiler as plain C++ ---------------------===//

#include "tritium/API/Compiler.h"
#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Registration.h"
#include "tritium/Target/CPU/Codegen.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace tritium::api {
namespace {

const DialectRegistry &registry() {
  static DialectRegistry *instance = [] {
    auto *r = new DialectRegistry();
    registerDialects(*r);
    registerPasses();
    return r;
  }();
  return *instance;
}

/// The innermost file location inside `loc` (name, call-site and fused locations wrap it).
std::optional<FileLineColLoc> fileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Collects every diagnostic as `<file>:<line>:<col>: <severity>: <message>` lines.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          append(diag);
          for (Diagnostic &note : diag.getNotes())
            append(note);
          return success();
        }) {}
  std::string text() const { return collected; }

private:
  void append(Diagnostic &diag) {
    llvm::raw_string_ostream os(collected);
    if (auto file = fileLocation(diag.getLocation()))
      os << file->getFilename().getValue() << ":" << file->getLine() << ":" << file->getColumn()
         << ": ";
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error: os << "error: "; break;
    case DiagnosticSeverity::Warning: os << "warning: "; break;
    case DiagnosticSeverity::Note: os << "note: "; break;
    case DiagnosticSeverity::Remark: os << "remark: "; break;
    }
    os << diag.str() << "\n";
  }
  std::string collected;
  ScopedDiagnosticHandler handler;
};

Result errorResult(const DiagnosticCollector &diagnostics, const std::string &fallback) {
  Result result;
  result.error = diagnostics.text();
  if (result.error.empty())
    result.error = fallback + "\n";
  return result;
}

std::string print(ModuleOp module, bool withLocations) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (withLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module.print(os, flags);
  return text;
}

/// Parses `ir`, runs `build`'s passes on it, and hands the module to `finish`.
template <typename Finish>
Result withModule(const std::string &ir, function_ref<LogicalResult(OpPassManager &)> build,
                  Finish finish) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, ParserConfig(&context));
  if (!module)
    return errorResult(diagnostics, "error: the input is not a valid MLIR module");
  // Several modules in one text are parsed into one module wrapping them; every stage works
  // on one kernel module.
  if (auto nested = llvm::range_size(module->getBody()->getOps<ModuleOp>()); nested > 0)
    return errorResult(diagnostics, "error: one module per input: found " +
                                        std::to_string(nested) +
                                        " modules inside the input's module; compile each "
                                        "kernel module on its own");
  if (failed(verify(*module)))
    return errorResult(diagnostics, "error: the module does not verify");
  PassManager pm(&context);
  if (failed(build(pm)))
    return errorResult(diagnostics, "error: invalid pass pipeline");
  if (failed(pm.run(*module)))
    return errorResult(diagnostics, "error: a pass failed without a diagnostic");
  return finish(*module, diagnostics);
}

Result printed(ModuleOp module, bool withLocations) {
  Result result;
  result.ok = true;
  result.output = print(module, withLocations);
  return result;
}

} // namespace

Result parseAndPrint(const std::string &ir, bool withLocations) {
  return withModule(
      ir, [](OpPassManager &) { return success(); },
      [&](ModuleOp module, DiagnosticCollector &) { return printed(module, withLocations); });
}

Result runPassPipeline(const std::string &ir, const std::string &pipeline) {
  return withModule(
      ir,
      [&](OpPassManager &pm) -> LogicalResult {
        // Parse into a fresh manager: an anchored `builtin.module(...)` string parsed into an
        // existing manager would nest and silently run nothing.
        FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline);
        if (failed(parsed))
          return failure();
        pm = std::move(*parsed);
        return success();
      },
      [](ModuleOp module, DiagnosticCollector &) { return printed(module, true); });
}

Result convertTritonToLinalg(const std::string &ttir, bool checkBounds) {
  return withModule(
      ttir,
      [&](OpPassManager &pm) {
        // First, on the kernel as written: every access the user wrote gets its check.
        if (checkBounds)
          pm.addPass(createCheckMemoryBounds());
        // Descriptor blocks' offsets (reshapes to [M, 1]) as the address analyses know them.
        pm.addPass(createUnitDimReshapesAsExpandDims());
        pm.addPass(createCarryPointerTileOffsetsAsScalars());
        pm.addPass(createPeelFirstIterationsTestedInLoops());
        pm.addPass(createIgnoreNaNInIndexReductions());
        pm.addPass(createRecognizeNaNPropagatingMinMaxCombiners());
        pm.addPass(createAccumulateHalfFloatsInF32());
        pm.addPass(createElementwiseFunctionsToMathOps());
        pm.addPass(createTransposeTilesToMemoryOrder());
        pm.addPass(createStreamLoadsIntoStores());
        pm.addPass(createConvertTritonToLinalg());
        // Early returns become structured control flow: one return per function.
        pm.addPass(createLiftControlFlowToSCFPass());
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createCSEPass());
        // What a device target receives: nothing outside the contract of docs/new-device.md.
        pm.addPass(createVerifyLinalgContract());
        return success();
      },
      [](ModuleOp module, DiagnosticCollector &) { return printed(module, true); });
}

Result lowerLinalgToLLVMIR(const std::string &linalg, bool numpyExp) {
  return withModule(
      linalg,
      [numpyExp](OpPassManager &pm) {
        cpu::LinalgToLLVMOptions options;
        options.numpyExp = numpyExp;
        cpu::buildLinalgToLLVMPipeline(pm, options);
        return success();
      },
      [](ModuleOp module, DiagnosticCollector &diagnostics) {
        std::string llvmIR, error;
        if (failed(cpu::translateToOptimizedLLVMIR(module, llvmIR, error)))
          return errorResult(diagnostics, "error: " + error);
        Result result;
        result.ok = true;
        result.output = std::move(llvmIR);
        return result;
      });
}

Result translateToLLVMIR(const std::string &llvmDialect) {
  return withModule(
      llvmDialect, [](OpPassManager &) { return success(); },
      [](ModuleOp module, DiagnosticCollector &diagnostics) {
        llvm::LLVMContext context;
        std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, context);
        if (!llvmModule)
          return errorResult(diagnostics, "error: the module is not (only) the LLVM dialect");
        Result result;
        result.ok = true;
        llvm::raw_string_ostream os(result.output);
        llvmModule->print(os, nullptr);
        return result;
      });
}

Result compileLLVMIRToObject(const std::string &llvmIR) {
  Result result;
  if (failed(cpu::compileToObject(llvmIR, result.output, result.error)))
    return result;
  result.ok = true;
  return result;
}

std::string hostTargetKey() { return cpu::hostTargetKey(); }

} // namespace tritium::api
