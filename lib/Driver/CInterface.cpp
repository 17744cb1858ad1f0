//===- CInterface.cpp - a C header for generated libraries ------*- C++ -*-===//
//
// The C interface of a shared library built by dl: a header with one plain
// prototype per public function (data pointers and sizes; an int status)
// and the C source of those functions, compiled into the library. Each
// checks the sizes against the compiled shapes, builds the memref
// descriptors the generated function takes and calls it through
// libDLRuntime's dl_checked_call, so that a failed run-time size check or
// allocation returns 1 with a message (<prefix>_last_error) instead of
// aborting the caller's process: the library's calls of abort and puts
// (what cf.assert lowers to) are redirected to the runtime's
// dl_check_failed and dl_check_message.
//
//===----------------------------------------------------------------------===//

#include "dl/Driver/CInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;
using namespace mlir::dl;

FailureOr<SmallVector<CFunction>> dl::getCFunctions(ModuleOp module) {
  SmallVector<CFunction> functions;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (fn.getNumResults() != 0)
      return fn.emitError("a function with results has no C interface; dl "
                          "functions write their results into arguments");
    CFunction function{fn.getName().str(), {}};
    for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || !memref.getElementType().isF32() ||
          !memref.getLayout().isIdentity())
        return fn.emitError() << "argument #" << i << " has type " << type
                              << "; the C interface takes f32 memrefs of "
                                 "the identity layout";
      function.argumentShapes.push_back(llvm::to_vector(memref.getShape()));
    }
    functions.push_back(std::move(function));
  }
  return functions;
}

/// A C identifier from the stem of `headerPath`.
static std::string getCInterfacePrefix(StringRef headerPath) {
  std::string prefix = llvm::sys::path::stem(headerPath).str();
  for (char &c : prefix)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  if (prefix.empty() || std::isdigit(static_cast<unsigned char>(prefix[0])))
    prefix = "dl_" + prefix;
  return prefix;
}

FailureOr<CInterface> dl::getCInterface(ModuleOp module, StringRef headerPath) {
  FailureOr<SmallVector<CFunction>> functions = getCFunctions(module);
  if (failed(functions))
    return failure();
  return CInterface{headerPath.str(), getCInterfacePrefix(headerPath),
                    std::move(*functions)};
}

/// `float *arg0, int64_t arg0_size0, ...`: the interface's parameters.
static std::string getParameters(const CFunction &function) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, shape] : llvm::enumerate(function.argumentShapes)) {
    os << (i ? ", " : "") << "float *arg" << i;
    for (size_t dim = 0; dim < shape.size(); ++dim)
      os << ", int64_t arg" << i << "_size" << dim;
  }
  if (function.argumentShapes.empty())
    os << "void";
  return text;
}

/// `64x?x3`.
static std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      "x");
  return text;
}

std::string dl::writeCHeader(const CInterface &interface) {
  std::string guard = StringRef(interface.prefix).upper() + "_H";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* " << interface.prefix
     << ": the C interface of a library compiled by dl (dl-compile "
        "--emit-header).\n"
        " *\n"
        " * Each function takes, per argument, a pointer to a row-major,\n"
        " * contiguous array of float and its sizes, one int64_t per\n"
        " * dimension (the shape each comment gives; ? is any size). It\n"
        " * returns 0 when it ran, or 1 when a size does not fit the compiled\n"
        " * shapes or the code stopped at a failed run-time size check or\n"
        " * allocation; "
     << interface.prefix
     << "_last_error() then says why (per thread). A\n"
        " * tensor function's results are its last arguments. */\n\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const CFunction &function : interface.functions) {
    os << "/* " << function.name << "(";
    llvm::interleaveComma(
        function.argumentShapes, os,
        [&](ArrayRef<int64_t> shape) { os << formatShape(shape); });
    os << ") */\nint " << interface.prefix << "_" << function.name << "("
       << getParameters(function) << ");\n\n";
  }
  os << "/* Why the last call on this thread failed (\"\" when it ran). */\n"
     << "const char *" << interface.prefix << "_last_error(void);\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

std::string dl::writeCSource(const CInterface &interface) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* The C interface of " << interface.prefix
     << " (generated by dl). */\n"
     << "#include <stdint.h>\n#include <stdio.h>\n\n"
     << "int dl_checked_call(void (*body)(void *), void *context);\n"
     << "const char *dl_last_error(void);\n"
     << "void dl_set_error(const char *message);\n\n";
  for (const CFunction &function : interface.functions) {
    std::string wrapper = interface.prefix + "_" + function.name;
    // The generated function: an expanded memref descriptor per argument
    // (allocated and aligned pointers, offset, sizes, strides).
    os << "void " << function.name << "(";
    bool first = true;
    for (ArrayRef<int64_t> shape : function.argumentShapes) {
      os << (first ? "" : ", ") << "float *, float *, int64_t";
      first = false;
      for (size_t i = 0; i < 2 * shape.size(); ++i)
        os << ", int64_t";
    }
    os << (first ? "void" : "") << ");\n";
    os << "struct " << wrapper << "_args {\n";
    for (auto [i, shape] : llvm::enumerate(function.argumentShapes))
      os << "  float *arg" << i << ";\n  int64_t sizes" << i << "["
         << std::max<size_t>(shape.size(), 1) << "];\n";
    os << "  int unused;\n};\n";
    os << "static void " << wrapper << "_body(void *context) {\n"
       << "  struct " << wrapper << "_args *a = context;\n  (void)a;\n  "
       << function.name << "(";
    first = true;
    for (auto [i, shape] : llvm::enumerate(function.argumentShapes)) {
      os << (first ? "" : ", ") << "a->arg" << i << ", a->arg" << i << ", 0";
      first = false;
      for (size_t dim = 0; dim < shape.size(); ++dim)
        os << ", a->sizes" << i << "[" << dim << "]";
      for (size_t dim = 0; dim < shape.size(); ++dim) {
        os << ", (int64_t)1";
        for (size_t next = dim + 1; next < shape.size(); ++next)
          os << " * a->sizes" << i << "[" << next << "]";
      }
    }
    os << ");\n}\n";
    os << "int " << wrapper << "(" << getParameters(function) << ") {\n"
       << "  char message[256];\n  (void)message;\n";
    for (auto [i, shape] : llvm::enumerate(function.argumentShapes))
      for (auto [dim, size] : llvm::enumerate(shape)) {
        if (ShapedType::isDynamic(size))
          continue;
        os << llvm::formatv(
            "  if (arg{0}_size{1} != {2}) {{\n"
            "    snprintf(message, sizeof(message), \"{3}: argument {0} has "
            "size %lld in dimension {1}, expected {2}\", "
            "(long long)arg{0}_size{1});\n"
            "    dl_set_error(message);\n    return 1;\n  }\n",
            i, dim, size, wrapper);
      }
    os << "  struct " << wrapper << "_args a = {";
    for (auto [i, shape] : llvm::enumerate(function.argumentShapes)) {
      os << "arg" << i << ", {";
      for (size_t dim = 0; dim < shape.size(); ++dim)
        os << (dim ? ", " : "") << "arg" << i << "_size" << dim;
      os << (shape.empty() ? "0" : "") << "}, ";
    }
    os << "0};\n  return dl_checked_call(" << wrapper << "_body, &a);\n}\n\n";
  }
  os << "const char *" << interface.prefix
     << "_last_error(void) { return dl_last_error(); }\n";
  return text;
}

void dl::redirectRunTimeChecks(llvm::Module &module) {
  for (auto [from, to] : {std::pair("abort", "dl_check_failed"),
                          std::pair("puts", "dl_check_message")}) {
    llvm::Function *function = module.getFunction(from);
    if (!function)
      continue;
    llvm::FunctionCallee replacement =
        module.getOrInsertFunction(to, function->getFunctionType());
    function->replaceAllUsesWith(replacement.getCallee());
    function->eraseFromParent();
  }
}
