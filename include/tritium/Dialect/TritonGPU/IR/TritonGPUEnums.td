//===- TritonGPUEnums.td - enums of the `ttg` dialect ---------------------===//
//
// In a file of their own so that -gen-enum-decls does not also emit the `tt`
// enums that the op definitions include.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TTG_ENUMS
#define TRITIUM_TTG_ENUMS

include "mlir/IR/EnumAttr.td"

// The address spaces a `ttg.barrier` makes visible. Spellings are triton's:
// `local`, `global_read|global_write`, `all`, ...
def TTG_AddrSpaceNone : I32BitEnumAttrCaseNone<"None", "none">;
def TTG_AddrSpaceLocal : I32BitEnumAttrCaseBit<"Local", 0, "local">;
def TTG_AddrSpaceGlobalRead : I32BitEnumAttrCaseBit<"GlobalRead", 1, "global_read">;
def TTG_AddrSpaceGlobalWrite : I32BitEnumAttrCaseBit<"GlobalWrite", 2, "global_write">;
def TTG_AddrSpaceTensorRead : I32BitEnumAttrCaseBit<"TensorRead", 3, "tensor_read">;
def TTG_AddrSpaceTensorWrite : I32BitEnumAttrCaseBit<"TensorWrite", 4, "tensor_write">;
def TTG_AddrSpaceAll : I32BitEnumAttrCaseGroup<"All", [
    TTG_AddrSpaceLocal, TTG_AddrSpaceGlobalRead, TTG_AddrSpaceGlobalWrite,
    TTG_AddrSpaceTensorRead, TTG_AddrSpaceTensorWrite], "all">;

def TTG_AddrSpaceAttr : I32BitEnumAttr<"AddrSpace", "address spaces ordered by a barrier", [
    TTG_AddrSpaceNone, TTG_AddrSpaceLocal, TTG_AddrSpaceGlobalRead,
    TTG_AddrSpaceGlobalWrite, TTG_AddrSpaceTensorRead, TTG_AddrSpaceTensorWrite,
    TTG_AddrSpaceAll]> {
  let cppNamespace = "::tritium::ttg";
  let separator = "|";
}

#endif // TRITIUM_TTG_ENUMS
