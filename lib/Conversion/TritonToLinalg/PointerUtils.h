//===- PointerUtils.h - helpers shared by pointer and memory patterns -----===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_POINTERUTILS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_POINTERUTILS_H

#include "mlir/IR/Builders.h"

namespace tritium {

/// Bytes one element of `pointee` occupies in memory (pointers: 8, i1: 1).
int64_t pointeeByteSize(mlir::Type pointee);
/// The LLVM-dialect type a load or store of `pointee` uses.
mlir::Type llvmPointeeType(mlir::Type pointee);
/// `ptr + offset` elements of `pointee`, as a getelementptr.
mlir::Value advancePointer(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                           mlir::Value offset, mlir::Type pointee);

/// One element loaded through `ptr`, or `other` (zero when absent) where the i1 `mask` is
/// clear; masked-off lanes do not touch memory. `mask` and `other` may be null.
mlir::Value loadElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Value mask,
                        mlir::Value other, mlir::Type pointee, bool isVolatile);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_POINTERUTILS_H
