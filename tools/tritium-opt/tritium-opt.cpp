//===- tritium-opt.cpp - the tritium optimizer driver ---------------------===//
//
// Parses, verifies and transforms IR with every tritium dialect and pass, plus the upstream
// dialects and passes tritium's pipelines use.
//
// Passes run on one kernel module at a time. A file holding several modules (test cases
// without `// -----` separators, or without --split-input-file) would be parsed into one
// module wrapping them, and later passes would fail on it with errors that do not say why:
// such input is rejected up front instead.
//
//===----------------------------------------------------------------------===//

#include "tritium/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {

/// How many top-level modules `input` holds, or 0 when it does not parse (the real run
/// reports why).
unsigned countTopLevelModules(const llvm::MemoryBuffer &input, mlir::DialectRegistry &registry,
                              bool allowUnregistered) {
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(allowUnregistered);
  mlir::ScopedDiagnosticHandler silence(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getBuffer(), input.getBufferIdentifier(), false),
      llvm::SMLoc());
  mlir::Block block;
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (failed(mlir::parseSourceFile(sources, &block, config)))
    return 0;
  return llvm::range_size(block.getOps<mlir::ModuleOp>());
}

} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tritium::registerDialects(registry);
  tritium::registerPasses();
  auto [inputFilename, outputFilename] =
      mlir::registerAndParseCLIOptions(argc, argv, "tritium optimizer\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // Each piece the input is split into (the whole input without --split-input-file) is one
  // input; the splitting follows MLIR's (at every occurrence of the marker).
  llvm::StringRef text = input->getBuffer(), marker = config.inputSplitMarker();
  for (size_t begin = 0; begin <= text.size();) {
    size_t end = marker.empty() ? llvm::StringRef::npos : text.find(marker, begin);
    llvm::StringRef piece = text.slice(begin, end);
    auto pieceBuffer = llvm::MemoryBuffer::getMemBuffer(piece, input->getBufferIdentifier(), false);
    if (unsigned modules = countTopLevelModules(*pieceBuffer, registry,
                                                config.shouldAllowUnregisteredDialects());
        modules > 1) {
      // The line where the piece's content starts.
      size_t first = std::min(piece.find_first_not_of(" \t\r\n"), piece.size());
      unsigned line = 1 + text.take_front(begin + first).count('\n');
      llvm::errs() << input->getBufferIdentifier() << ":" << line
                   << ": error: one module per input: found " << modules
                   << " top-level modules; separate them with `// -----` lines and pass "
                      "--split-input-file, or give each its own file\n";
      return 1;
    }
    if (end == llvm::StringRef::npos)
      break;
    begin = end + marker.size();
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
