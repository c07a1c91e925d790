//===- ObjectEmission.cpp - LLVM IR to a host object ----------------------===//

#include "HostTarget.h"
#include "tritium/Target/CPU/Codegen.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tritium::cpu {

mlir::LogicalResult compileToObject(const std::string &llvmIR, std::string &object,
                                    std::string &error) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(llvmIR, diagnostic, context);
  if (!module) {
    llvm::raw_string_ostream os(error);
    diagnostic.print("llir", os);
    return mlir::failure();
  }
  std::unique_ptr<llvm::TargetMachine> machine = createHostTargetMachine(error);
  if (!machine)
    return mlir::failure();
  module->setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    error = "the host target cannot emit object files";
    return mlir::failure();
  }
  passes.run(*module);
  object.assign(buffer.begin(), buffer.end());
  return mlir::success();
}

} // namespace tritium::cpu
