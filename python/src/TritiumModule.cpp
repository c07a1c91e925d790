//===- TritiumModule.cpp - the tritium._C Python extension ----------------===//
//
// A thin layer over tritium's std::string C++ API and the CPU runtime: compile stages take
// and return text (or bytes), errors become tritium._C.CompilationFailure.
//
//===----------------------------------------------------------------------===//

#include "NativeLauncher.h"
#include "tritium/API/Compiler.h"
#include "tritium/Target/CPU/Runtime.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <vector>

namespace py = pybind11;
using tritium::api::Result;

namespace {

py::object compilationFailure;

std::string unwrap(const Result &result) {
  if (!result.ok) {
    PyErr_SetString(compilationFailure.ptr(), result.error.c_str());
    throw py::error_already_set();
  }
  return result.output;
}

uint64_t pointerValue(py::handle arg) {
  if (arg.is_none())
    return 0;
  if (py::isinstance<py::int_>(arg))
    return arg.cast<uint64_t>();
  if (py::hasattr(arg, "is_cpu") && !arg.attr("is_cpu").cast<bool>())
    throw py::value_error("tritium: a tensor argument is on device '" +
                          py::str(arg.attr("device")).cast<std::string>() +
                          "'; tritium runs kernels on the CPU: pass CPU tensors");
  return arg.attr("data_ptr")().cast<uint64_t>();
}

/// One 8-byte slot per kernel argument, laid out as the kernel entry reads it.
std::vector<uint64_t> packArguments(const std::string &kinds, const py::tuple &args) {
  if (kinds.size() != args.size())
    throw py::value_error("tritium: " + std::to_string(args.size()) + " arguments for " +
                          std::to_string(kinds.size()) + " kernel parameters");
  std::vector<uint64_t> slots(kinds.size() + 1, 0);
  for (size_t i = 0; i < kinds.size(); ++i) {
    py::handle arg = args[i];
    uint64_t &slot = slots[i];
    switch (kinds[i]) {
    case 'p': slot = pointerValue(arg); break;
    case 'b': slot = arg.cast<bool>() ? 1 : 0; break;
    case 'i': case 'l': slot = uint64_t(py::int_(py::reinterpret_borrow<py::object>(arg)).cast<int64_t>()); break;
    case 'u': case 'U': slot = py::int_(py::reinterpret_borrow<py::object>(arg)).cast<uint64_t>(); break;
    case 'f': {
      float value = arg.cast<float>();
      std::memcpy(&slot, &value, sizeof(value));
      break;
    }
    case 'd': {
      double value = arg.cast<double>();
      std::memcpy(&slot, &value, sizeof(value));
      break;
    }
    case 'h': slot = arg.cast<uint64_t>() & 0xffff; break; // fp16/bf16 bits
    default:
      throw py::value_error(std::string("tritium: unknown argument kind '") + kinds[i] + "'");
    }
  }
  return slots;
}

} // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "tritium's compiler stages and CPU runtime";
  compilationFailure = py::reinterpret_borrow<py::object>(
      PyErr_NewException("tritium._C.CompilationFailure", PyExc_RuntimeError, nullptr));
  m.attr("CompilationFailure") = compilationFailure;

  m.def(
      "parse_and_print",
      [](const std::string &ir, bool withLocations) {
        return unwrap(tritium::api::parseAndPrint(ir, withLocations));
      },
      py::arg("ir"), py::arg("with_locations") = false,
      "Parse and verify IR text (TTIR, linalg, ...) and print it back.");
  m.def(
      "run_pass_pipeline",
      [](const std::string &ir, const std::string &pipeline) {
        return unwrap(tritium::api::runPassPipeline(ir, pipeline));
      },
      py::arg("ir"), py::arg("pipeline"));
  m.def(
      "ttir_to_linalg",
      [](const std::string &ttir, bool checkBounds) {
        return unwrap(tritium::api::convertTritonToLinalg(ttir, checkBounds));
      },
      py::arg("ttir"), py::arg("check_bounds") = false);
  m.def(
      "linalg_to_llir",
      [](const std::string &linalg, bool numpyExp) {
        py::gil_scoped_release release;
        Result result = tritium::api::lowerLinalgToLLVMIR(linalg, numpyExp);
        py::gil_scoped_acquire acquire;
        return unwrap(result);
      },
      py::arg("linalg"), py::arg("numpy_exp") = false);
  m.def(
      "translate_to_llir",
      [](const std::string &llvmDialect) {
        return unwrap(tritium::api::translateToLLVMIR(llvmDialect));
      },
      py::arg("llvm_dialect"), "A module of the LLVM dialect as LLVM IR text, unoptimized.");
  m.def(
      "llir_to_object",
      [](const std::string &llir) {
        Result result;
        {
          py::gil_scoped_release release;
          result = tritium::api::compileLLVMIRToObject(llir);
        }
        return py::bytes(unwrap(result));
      },
      py::arg("llir"));
  m.def("host_target_key", &tritium::api::hostTargetKey);

  m.def(
      "load_kernel",
      [](py::bytes object, const std::string &entry) {
        uint64_t handle = 0;
        std::string error;
        tritium::cpu::KernelEntry fn =
            tritium::cpu::loadKernel(std::string(object), entry, handle, error);
        if (!fn)
          throw std::runtime_error("tritium: cannot load kernel '" + entry + "': " + error);
        return py::make_tuple(handle, reinterpret_cast<uint64_t>(fn));
      },
      py::arg("object"), py::arg("entry"),
      "JIT-link an object in this process; returns (handle, entry address).");
  m.def("unload_kernel", &tritium::cpu::unloadKernel, py::arg("handle"));
  m.def(
      "launch",
      [](uint64_t entry, int32_t gridX, int32_t gridY, int32_t gridZ, const std::string &kinds,
         const py::tuple &args) {
        std::vector<uint64_t> slots = packArguments(kinds, args);
        {
          py::gil_scoped_release release;
          tritium::cpu::launchGrid(reinterpret_cast<tritium::cpu::KernelEntry>(entry),
                                   slots.data(), gridX, gridY, gridZ);
        }
        std::string failure;
        if (tritium::cpu::takeAssertFailure(failure)) {
          PyErr_SetString(PyExc_AssertionError, failure.c_str());
          throw py::error_already_set();
        }
      },
      py::arg("entry"), py::arg("grid_x"), py::arg("grid_y"), py::arg("grid_z"),
      py::arg("kinds"), py::arg("args"),
      "Run the grid with the GIL released. kinds has one letter per argument: p pointer, "
      "b bool, i/l signed, u/U unsigned, f f32, d f64, h 16-bit float bits.");
  m.def(
      "take_assert_failure",
      []() -> py::object {
        std::string failure;
        if (!tritium::cpu::takeAssertFailure(failure))
          return py::none();
        return py::str(failure);
      },
      "The first tl.device_assert failure since the last call (and forgets it), or None.");
  if (!tritium::python::addNativeLauncherType(m.ptr()))
    throw py::error_already_set();
  m.def("set_num_threads", &tritium::cpu::setNumThreads, py::arg("threads"));
  m.def("get_num_threads", &tritium::cpu::getNumThreads);
  m.def("set_thread_pool", &tritium::cpu::setThreadPool, py::arg("openmp_where_loaded"));
  m.def("thread_pool_is_openmp", &tritium::cpu::threadPoolIsOpenMP);
}
