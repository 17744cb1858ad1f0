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
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Unit"]

config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%dl_libs", config.dl_lib_dir))
config.substitutions.append(("%dl_obj_root", config.dl_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.dl_tools_dir, config.llvm_tools_dir]
tools = [
    "dl-opt",
    "dl-compile",
    "dl-probe",
    ToolSubst("mlir-opt", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
