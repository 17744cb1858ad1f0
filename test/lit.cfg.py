# lit configuration of the dl test suite: FileCheck tests of the dialect, the
# passes, the tools and the mlir-opt plugin, and integration tests that
# JIT-run code. The gtest unit tests are a second suite, configured in Unit/.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dl_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Unit", "dl-capi-test.c"]

config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%dl_libs", config.dl_lib_dir))
config.substitutions.append(("%dl_obj_root", config.dl_obj_root))
# Compilations through the Python package (dl.compile caches by default) keep
# their code in the build tree, not in the user's cache directory.
config.environment["DL_CACHE_DIR"] = os.path.join(config.test_exec_root,
                                                  "dl-cache")

# A DL_SANITIZE build: every process gets the ASan runtime, so that the
# instrumented DLPlugin.so and libDLRuntime.so also load into uninstrumented
# hosts (mlir-opt-22, cc-built programs, Python). Leak checking is off: LLVM's
# and Python's process-lifetime singletons are freed by exit, not before it.
# User poisoning is off: LLVM's allocator templates poison memory when
# instantiated in dl's instrumented code, and the uninstrumented libMLIR
# then touches it legitimately.
if config.dl_sanitizer_runtime:
    config.available_features.add("asan")
    config.environment["LD_PRELOAD"] = config.dl_sanitizer_runtime
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

# The benchmark harness's test needs oneDNN's side (built only when
# libdnnl-dev is installed).
if os.access(os.path.join(config.dl_tools_dir, "onednn-bench"), os.X_OK):
    config.available_features.add("onednn-bench")

# dl-probe measures what cores cost each other where it may run on two CPUs.
if hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2:
    config.available_features.add("two-cpus")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.dl_tools_dir, config.llvm_tools_dir]
tools = [
    "dl-opt",
    "dl-compile",
    "dl-probe",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("onednn-bench", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
