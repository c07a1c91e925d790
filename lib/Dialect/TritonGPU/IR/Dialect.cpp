//===- Dialect.cpp - registration of tritium's `ttg` dialect --------------===//

#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tritium::ttg;

#include "tritium/Dialect/TritonGPU/IR/AttrInterfaces.cpp.inc"
#include "tritium/Dialect/TritonGPU/IR/Dialect.cpp.inc"
#include "tritium/Dialect/TritonGPU/IR/Enums.cpp.inc"

namespace {
/// The alias names triton gives encodings (`#blocked`, `#mma`, `#shared`,
/// `#linear`, `#generic_linear`, `#smem`), so that printed TTGIR reads the
/// same as triton's.
/// Slices and dot operands stay inline, as in triton.
struct TTGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    StringRef alias = llvm::TypeSwitch<Attribute, StringRef>(attr)
                          .Case<MmaEncodingTrait>([](auto) { return "mma"; })
                          .Case<SharedEncodingTrait>([](auto) { return "shared"; })
                          .Case<BlockedEncodingAttr>([](auto) { return "blocked"; })
                          .Case<LinearEncodingAttr>([](auto) { return "linear"; })
                          .Case<GenericLinearEncodingAttr>([](auto) { return "generic_linear"; })
                          .Case<SharedMemorySpaceAttr>([](auto) { return "smem"; })
                          .Default([](Attribute) { return StringRef(); });
    if (alias.empty())
      return AliasResult::NoAlias;
    os << alias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TTGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tritium/Dialect/TritonGPU/IR/Ops.cpp.inc"
      >();
  addInterfaces<TTGOpAsmInterface>();
  registerLayoutVerifier(*this);
}
