//===- TritonGPUAttrInterfaces.td - kinds of `ttg` layout encodings -------===//
//
// Kept in a file of their own so that the interface generators see only these
// interfaces and nothing pulled in from MLIR's own .td files.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TTG_ATTR_INTERFACES
#define TRITIUM_TTG_ATTR_INTERFACES

include "mlir/IR/OpBase.td"

def TTG_LayoutEncodingTrait : AttrInterface<"LayoutEncodingTrait"> {
  let cppNamespace = "::tritium::ttg";
  let description = [{
    Implemented by every layout encoding (distributed or shared). The rank is
    the number of tensor dimensions the encoding describes.
  }];
  let methods = [
    InterfaceMethod<"The number of tensor dimensions this encoding describes.",
                    "unsigned", "getRank", (ins)>
  ];
}

def TTG_DistributedEncodingTrait : AttrInterface<"DistributedEncodingTrait"> {
  let cppNamespace = "::tritium::ttg";
  let description = [{
    Marks encodings of tensors held in registers (blocked, linear, slice,
    dot operand, MMA outputs).
  }];
}

def TTG_SharedEncodingTrait : AttrInterface<"SharedEncodingTrait"> {
  let cppNamespace = "::tritium::ttg";
  let description = [{
    Marks encodings of tiles held in shared memory (swizzled, NVMMA, padded,
    linear, partitioned, AMD rotating).
  }];
}

def TTG_MmaEncodingTrait : AttrInterface<"MmaEncodingTrait"> {
  let cppNamespace = "::tritium::ttg";
  let description = [{
    Marks the encodings of matrix-core results (NVIDIA MMA, AMD MFMA/WMMA).
  }];
}

#endif // TRITIUM_TTG_ATTR_INTERFACES
