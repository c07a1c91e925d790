//===- ExternalFunctions.h - declarations of functions kernels call -------===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNALFUNCTIONS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNALFUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tritium {

/// The private declaration of `name` (device runtime or C library function) in the module
/// around `anchor`, created at the top of the module if missing.
mlir::func::FuncOp declareExternalFunction(mlir::OpBuilder &b, mlir::Operation *anchor,
                                           llvm::StringRef name, mlir::FunctionType type);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNALFUNCTIONS_H
