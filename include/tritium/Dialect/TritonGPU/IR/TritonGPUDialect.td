//===- TritonGPUDialect.td - tritium's definition of the `ttg` dialect ----===//
//
// The TritonGPU dialect as tritium reads it: Triton IR with layout encodings
// on tensors, shared-memory descriptors and the ops that move data between
// registers and shared memory. The text stock triton 3.9 prints is the
// interface, so every attribute, type and op here must parse exactly that text
// (and print it back the same way).
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TTG_DIALECT
#define TRITIUM_TTG_DIALECT

include "mlir/IR/OpBase.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::tritium::ttg";
  let summary = "TritonGPU IR (TTGIR), as read and written by tritium";
  let description = [{
    TTGIR is TTIR after layout assignment: every tensor carries an encoding
    that says how its elements are spread over registers, lanes, warps and
    CTAs, and tiles may be staged in shared memory through `!ttg.memdesc`
    values. Module-level settings (`ttg.num-warps`, `ttg.threads-per-warp`,
    `ttg.num-ctas`, `ttg.target`, ...) are discardable attributes; as in
    triton, `ttg.num-warps` may only be set on a module or a `tt.func` and the
    others only on a module.
  }];
  let dependentDialects = ["::tritium::tt::TTDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Module settings may only be set where triton reads them.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

#endif // TRITIUM_TTG_DIALECT
