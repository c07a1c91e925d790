//===- ExternMathFunctions.h - libdevice symbols that are math ops --------===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNMATHFUNCTIONS_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNMATHFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

/// CUDA libdevice spellings (`__nv_expf`, `__nv_popcll`, ...) as C library or tritium names
/// (`expf`, `ctpop`); other symbols as they are.
std::string canonicalSymbol(llvm::StringRef symbol);

/// The math-dialect op (`math.exp`) of a canonical C math library symbol (`exp`, `expf`), or
/// an empty string.
llvm::StringRef mathOpNameOf(llvm::StringRef symbol);

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_EXTERNMATHFUNCTIONS_H
