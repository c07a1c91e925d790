//===- tritium-opt.cpp - the tritium optimizer driver ---------------------===//
//
// Parses, verifies and transforms IR with every tritium dialect and pass, plus the upstream
// dialects and passes tritium's pipelines use.
//
//===----------------------------------------------------------------------===//

#include "tritium/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tritium::registerDialects(registry);
  tritium::registerPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tritium optimizer\n", registry));
}
