//===- LLVMIRGeneration.cpp - LLVM dialect to optimized LLVM IR -----------===//

#include "HostTarget.h"
#include "MinMaxReductionTrees.h"
#include "tritium/Target/CPU/Codegen.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

namespace tritium::cpu {

/// The host target leaves AVX512-BF16 off: LLVM would convert f32 to bf16 with its instruction
/// that flushes subnormals. A function that calls `vdpbf16ps` (bf16 matmuls on hosts that have
/// it) needs the feature; tritium converts to bf16 on the bits, so nothing else changes there.
static bool callsBFloat16DotProducts(const llvm::Function &function) {
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &instruction : block)
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (const llvm::Function *callee = call->getCalledFunction())
          if (callee->getName().starts_with("llvm.x86.avx512bf16."))
            return true;
  return false;
}

/// Triton puts `tl.range`'s hints (disable_licm, loop_unroll_factor, ...) on its `scf.for` as the
/// discardable attribute `llvm.loop_annotation`; scf-to-cf moves it to the loop's latch branch and
/// the conversion to the LLVM dialect keeps it there under that name, but the translation reads
/// only the branch's own `loop_annotation`. Moved there, it becomes the loop's `!llvm.loop`
/// metadata.
static void moveLoopAnnotationsOntoBranches(mlir::ModuleOp module) {
  constexpr llvm::StringLiteral kDiscardable = "llvm.loop_annotation";
  module.walk([&](mlir::Operation *op) {
    auto annotation = op->getAttrOfType<mlir::LLVM::LoopAnnotationAttr>(kDiscardable);
    if (!annotation)
      return;
    if (auto branch = llvm::dyn_cast<mlir::LLVM::BrOp>(op))
      branch.setLoopAnnotationAttr(annotation);
    else if (auto branch = llvm::dyn_cast<mlir::LLVM::CondBrOp>(op))
      branch.setLoopAnnotationAttr(annotation);
    op->removeDiscardableAttr(kDiscardable);
  });
}

mlir::LogicalResult translateToOptimizedLLVMIR(mlir::ModuleOp module, std::string &llvmIR,
                                               std::string &error) {
  moveLoopAnnotationsOntoBranches(module);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    error = "translation of the LLVM dialect to LLVM IR failed";
    return mlir::failure();
  }
  std::unique_ptr<llvm::TargetMachine> machine = createHostTargetMachine(error);
  if (!machine)
    return mlir::failure();
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  // Function attributes carry the CPU to the vectorizer's cost model.
  bool wideVectors = hostVectorBits() == 512;
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine->getTargetCPU());
    std::string features = machine->getTargetFeatureString().str();
    if (callsBFloat16DotProducts(function))
      features += ",+avx512bf16";
    function.addFnAttr("target-features", features);
    // LLVM's tuning for Intel's AVX-512 server cores (skylake-avx512 to emeraldrapids) keeps the
    // vectorizers at 256 bits, for the clock drop of 512-bit instructions on the first of them.
    // A kernel streams whole tiles through L1 and L2, where a 512-bit load moves twice the
    // bytes per instruction, and torch's own AVX-512 kernels run at that width on these hosts.
    if (wideVectors)
      function.addFnAttr("prefer-vector-width", "512");
    // A tile load is a copy loop from the tensor into the tile's buffer; LLVM's loop idioms
    // would turn it into a call of memcpy, which copies rows of a few KB with `rep movsb`:
    // ~20 GB/s from DRAM on AMD Zen 5 where the vectorized loop reaches ~33.
    function.addFnAttr("no-builtin-memcpy");
    function.addFnAttr("no-builtin-memmove");
  }

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(machine.get(), tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(*llvmModule, modules);
  // After the vectorizers, which create these reductions; nothing after O3 would undo the tree.
  expandMinMaxReductionsAsTrees(*llvmModule);

  llvm::raw_string_ostream os(llvmIR);
  llvmModule->print(os, nullptr);
  return mlir::success();
}

} // namespace tritium::cpu
