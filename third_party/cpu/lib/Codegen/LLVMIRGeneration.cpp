//===- LLVMIRGeneration.cpp - LLVM dialect to optimized LLVM IR -----------===//

#include "HostTarget.h"
#include "tritium/Target/CPU/Codegen.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

namespace tritium::cpu {

mlir::LogicalResult translateToOptimizedLLVMIR(mlir::ModuleOp module, std::string &llvmIR,
                                               std::string &error) {
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
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine->getTargetCPU());
    function.addFnAttr("target-features", machine->getTargetFeatureString());
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

  llvm::raw_string_ostream os(llvmIR);
  llvmModule->print(os, nullptr);
  return mlir::success();
}

} // namespace tritium::cpu
