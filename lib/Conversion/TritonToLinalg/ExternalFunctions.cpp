//===- ExternalFunctions.cpp - declarations of functions kernels call -----===//

#include "ExternalFunctions.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tritium {

func::FuncOp declareExternalFunction(OpBuilder &b, Operation *anchor, StringRef name,
                                     FunctionType type) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto func = func::FuncOp::create(b, module.getLoc(), name, type);
  func.setPrivate();
  return func;
}

} // namespace tritium
