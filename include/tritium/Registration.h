//===- Registration.h - every dialect and pass tritium uses -----*- C++ -*-===//

#ifndef TRITIUM_REGISTRATION_H
#define TRITIUM_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace tritium {
/// tt plus the upstream dialects (and their interface models) tritium's pipelines produce.
void registerDialects(mlir::DialectRegistry &registry);
/// tritium's passes and pipelines plus the upstream passes they are built from.
void registerPasses();
} // namespace tritium

#endif // TRITIUM_REGISTRATION_H
