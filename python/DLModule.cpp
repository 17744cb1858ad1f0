//===- DLModule.cpp - the _dl extension of the dl Python package ----------===//
//
// pybind11 bindings over dl's C API (dl-c/DL.h): parse MLIR text in a
// context of its own, JIT-compile it with compile options, and call its
// public functions on numpy float32 arrays. The diagnostics of parsing,
// compiling and calling are collected with their locations and raised as
// dl.Error; the package's Python side (dl/__init__.py) builds the
// user-facing API on this. Written with pybind11 rather than MLIR's Python
// bindings, which Debian does not package.
//
//===----------------------------------------------------------------------===//

#include "dl-c/DL.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// The Python exception dl.Error.
py::object &errorType() {
  static py::object type;
  return type;
}

void appendString(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

MlirStringRef toStringRef(const std::string &text) {
  return mlirStringRefCreate(text.data(), text.size());
}

/// An MLIR context with dl registered whose diagnostics are collected as
/// `location: severity: message` lines.
class Context {
public:
  Context() {
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    dlRegisterAllDialects(registry);
    context =
        mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
    mlirDialectRegistryDestroy(registry);
    mlirContextAttachDiagnosticHandler(context, &Context::collect, this,
                                       nullptr);
  }
  ~Context() { mlirContextDestroy(context); }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MlirContext get() const { return context; }

  /// Raises dl.Error with `what` and the diagnostics collected since the
  /// last call.
  [[noreturn]] void raise(const std::string &what) {
    std::string message = what;
    if (!diagnostics.empty())
      message += ":\n" + diagnostics;
    diagnostics.clear();
    PyErr_SetString(errorType().ptr(), message.c_str());
    throw py::error_already_set();
  }

  /// The diagnostics collected since the last call (remarks, warnings).
  std::string takeDiagnostics() {
    std::string taken;
    taken.swap(diagnostics);
    return taken;
  }

private:
  static MlirLogicalResult collect(MlirDiagnostic diagnostic, void *self) {
    std::string message;
    mlirDiagnosticPrint(diagnostic, appendString, &message);
    // The operation a verifier rejected, printed generically: the location
    // says where it is.
    if (message.rfind("see current operation", 0) == 0)
      return mlirLogicalResultSuccess();
    std::string &out = static_cast<Context *>(self)->diagnostics;
    out += printLocation(mlirDiagnosticGetLocation(diagnostic));
    switch (mlirDiagnosticGetSeverity(diagnostic)) {
    case MlirDiagnosticError:
      out += ": error: ";
      break;
    case MlirDiagnosticWarning:
      out += ": warning: ";
      break;
    case MlirDiagnosticNote:
      out += ": note: ";
      break;
    case MlirDiagnosticRemark:
      out += ": remark: ";
      break;
    }
    out += message + "\n";
    for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diagnostic); i < e; ++i)
      collect(mlirDiagnosticGetNote(diagnostic, i), self);
    return mlirLogicalResultSuccess();
  }

  /// `file:line:col` for a file location (printed `loc("file":line:col)`),
  /// else the location as MLIR prints it.
  static std::string printLocation(MlirLocation location) {
    std::string text;
    mlirLocationPrint(location, appendString, &text);
    std::string prefix = "loc(\"";
    size_t quote = text.find("\":");
    if (text.rfind(prefix, 0) == 0 && text.back() == ')' &&
        quote != std::string::npos)
      return text.substr(prefix.size(), quote - prefix.size()) +
             text.substr(quote + 1, text.size() - quote - 2);
    return text;
  }

  MlirContext context;
  std::string diagnostics;
};

/// The options of dl-compile that the package exposes.
struct Options {
  unsigned threads = 0;
  bool reference = false;
  bool microkernels = true;
  bool rank = true;
  bool solveTiles = false;
  bool remarks = false;
  std::string cacheSizes;
  std::string cacheDirectory;
  bool progress = false;
};

/// A module JIT-compiled in its own context.
class Executable {
public:
  Executable(const std::string &text, const Options &options) {
    MlirModule module = mlirModuleCreateParse(context.get(), toStringRef(text));
    if (mlirModuleIsNull(module))
      context.raise("cannot parse the module");
    DlCompileOptions compileOptions = dlCompileOptionsCreate();
    dlCompileOptionsSetThreads(compileOptions, options.threads);
    dlCompileOptionsSetReference(compileOptions, options.reference);
    dlCompileOptionsSetMicrokernels(compileOptions, options.microkernels);
    dlCompileOptionsSetRank(compileOptions, options.rank);
    dlCompileOptionsSetSolveTiles(compileOptions, options.solveTiles);
    dlCompileOptionsSetRemarks(compileOptions, options.remarks);
    if (!options.cacheSizes.empty())
      dlCompileOptionsSetCacheSizes(compileOptions,
                                    toStringRef(options.cacheSizes));
    dlCompileOptionsSetCacheDirectory(compileOptions,
                                      toStringRef(options.cacheDirectory));
    dlCompileOptionsSetProgress(compileOptions, options.progress);
    {
      py::gil_scoped_release release;
      executable = dlExecutableCreate(module, compileOptions);
    }
    dlCompileOptionsDestroy(compileOptions);
    mlirModuleDestroy(module);
    if (dlExecutableIsNull(executable))
      context.raise("cannot compile the module");
    remarks = context.takeDiagnostics();
    fromCache = dlExecutableIsFromCache(executable);
  }
  ~Executable() {
    if (!dlExecutableIsNull(executable))
      dlExecutableDestroy(executable);
  }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (intptr_t i = 0, e = dlExecutableGetNumFunctions(executable); i < e;
         ++i) {
      MlirStringRef name = dlExecutableGetFunctionName(executable, i);
      names.emplace_back(name.data, name.length);
    }
    return names;
  }

  /// Per argument of `name`'s buffer form, its shape (None for a dynamic
  /// size), and the number of trailing arguments that hold results.
  py::tuple signature(const std::string &name) {
    MlirStringRef ref = toStringRef(name);
    intptr_t count = dlExecutableGetNumArguments(executable, ref);
    if (count < 0)
      context.raise("no public function @" + name);
    py::list shapes;
    for (intptr_t i = 0; i < count; ++i) {
      py::list shape;
      for (intptr_t d = 0, e = dlExecutableGetArgumentRank(executable, ref, i);
           d < e; ++d) {
        int64_t size = dlExecutableGetArgumentSize(executable, ref, i, d);
        shape.append(size == DL_DYNAMIC_SIZE ? py::none()
                                             : py::object(py::int_(size)));
      }
      shapes.append(py::tuple(shape));
    }
    return py::make_tuple(shapes, dlExecutableGetNumResults(executable, ref));
  }

  /// Calls `name` on C-contiguous float32 arrays, one per argument of its
  /// buffer form (the package checks which are written and allocates the
  /// results).
  void call(const std::string &name, const std::vector<py::array> &arrays) {
    Buffers buffers(*this, arrays);
    MlirLogicalResult result;
    {
      py::gil_scoped_release release;
      result = buffers.call(executable, name);
    }
    if (mlirLogicalResultIsFailure(result))
      context.raise("@" + name + " failed");
  }

  /// Calls `name` as `call` does, `warmup` times untimed, then until both
  /// `minReps` calls and `minTime` seconds are reached; returns each timed
  /// call's seconds. The loop runs without the GIL and without Python
  /// between the calls, so short functions are timed as a C caller sees
  /// them.
  std::vector<double> time(const std::string &name,
                           const std::vector<py::array> &arrays, double minTime,
                           long minReps, long warmup) {
    Buffers buffers(*this, arrays);
    std::vector<double> seconds;
    bool failed = false;
    {
      py::gil_scoped_release release;
      for (long i = 0; i < warmup && !failed; ++i)
        failed = mlirLogicalResultIsFailure(buffers.call(executable, name));
      double total = 0;
      while (!failed &&
             (static_cast<long>(seconds.size()) < minReps || total < minTime)) {
        auto start = std::chrono::steady_clock::now();
        failed = mlirLogicalResultIsFailure(buffers.call(executable, name));
        std::chrono::duration<double> elapsed =
            std::chrono::steady_clock::now() - start;
        seconds.push_back(elapsed.count());
        total += elapsed.count();
      }
    }
    if (failed)
      context.raise("@" + name + " failed");
    return seconds;
  }

  /// The remarks and warnings of the compilation.
  std::string remarks;
  /// Whether the code came from the cache directory.
  bool fromCache = false;

private:
  /// The C API's view of numpy arrays (which must outlive it).
  class Buffers {
  public:
    Buffers(Executable &owner, const std::vector<py::array> &arrays)
        : sizes(arrays.size()) {
      for (size_t i = 0; i < arrays.size(); ++i) {
        const py::array &array = arrays[i];
        if (!py::isinstance<py::array_t<float>>(array) ||
            !(array.flags() & py::array::c_style))
          owner.context.raise("argument #" + std::to_string(i) +
                              " is not a C-contiguous float32 array");
        sizes[i].assign(array.shape(), array.shape() + array.ndim());
        // Inputs may be read-only arrays: the package passes writeable ones
        // where the function writes.
        buffers.push_back(
            {static_cast<float *>(const_cast<void *>(array.data())),
             static_cast<int64_t>(array.ndim()), sizes[i].data()});
      }
    }

    MlirLogicalResult call(DlExecutable executable, const std::string &name) {
      return dlExecutableCall(executable, toStringRef(name), buffers.data(),
                              buffers.size());
    }

  private:
    std::vector<std::vector<int64_t>> sizes;
    std::vector<DlBuffer> buffers;
  };

  // Destroyed after the executable, which uses it.
  Context context;
  DlExecutable executable{nullptr};
};

} // namespace

PYBIND11_MODULE(_dl, m) {
  m.doc() = "dl's C API: JIT-compile MLIR text and call it on numpy arrays";
  dlRegisterAllPasses();
  errorType() = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("dl.Error",
                                "A diagnostic of dl: a parse, verification "
                                "or compilation error, or a failed call",
                                PyExc_RuntimeError, nullptr));
  m.attr("Error") = errorType();

  py::class_<Options>(m, "Options")
      .def(py::init<>())
      .def_readwrite("threads", &Options::threads)
      .def_readwrite("reference", &Options::reference)
      .def_readwrite("microkernels", &Options::microkernels)
      .def_readwrite("rank", &Options::rank)
      .def_readwrite("solve_tiles", &Options::solveTiles)
      .def_readwrite("remarks", &Options::remarks)
      .def_readwrite("cache_sizes", &Options::cacheSizes)
      .def_readwrite("cache_dir", &Options::cacheDirectory)
      .def_readwrite("progress", &Options::progress);
  m.def(
      "default_cache_dir",
      [] {
        MlirStringRef directory = dlGetDefaultCacheDirectory();
        return std::string(directory.data, directory.length);
      },
      "$DL_CACHE_DIR, else dl/ in the user's cache directory "
      "($XDG_CACHE_HOME or ~/.cache)");

  py::class_<Executable>(m, "Executable")
      .def(py::init<const std::string &, const Options &>(), py::arg("text"),
           py::arg("options"))
      .def_property_readonly("functions", &Executable::functions)
      .def("signature", &Executable::signature, py::arg("name"))
      .def("call", &Executable::call, py::arg("name"), py::arg("arrays"))
      .def("time", &Executable::time, py::arg("name"), py::arg("arrays"),
           py::arg("min_time"), py::arg("min_reps"), py::arg("warmup"))
      .def_readonly("remarks", &Executable::remarks)
      .def_readonly("from_cache", &Executable::fromCache);
}
