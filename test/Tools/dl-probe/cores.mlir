// Where dl-probe may run on two CPUs, the machine file it writes has what
// writing next to another core's writes costs (near_write_line_ns), and
// dl-set-target puts it on the module's target; on one CPU it is not
// measured, and the target has none.
// REQUIRES: two-cpus
// RUN: dl-probe --min-time=0.001 -o %t.json 2>&1 | FileCheck %s --check-prefix=PROBE
// RUN: FileCheck %s --check-prefix=FILE < %t.json
// RUN: dl-opt %s --dl-set-target="machine-file=%t.json" | FileCheck %s --check-prefix=TARGET
// RUN: taskset -c 0 dl-probe --min-time=0.001 -o %t.one.json 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ONE-FILE < %t.one.json
// RUN: dl-opt %s --dl-set-target="machine-file=%t.one.json" | FileCheck %s --check-prefix=ONE-TARGET

// PROBE: cores: {{[0-9]+\.[0-9]+}} ns more a line written next to another core's writes (CPUs {{[0-9]+}} and {{[0-9]+}})
// FILE: "cores": {
// FILE-NEXT: "near_write_line_ns": {{[0-9]}}
// TARGET: #dl.target<{{.*}}, near_write_line_ns = {{.*}} : f64>
// ONE: cores: writes next to another core's not measured (one CPU to run on)
// ONE-FILE-NOT: cores
// ONE-TARGET-NOT: near_write_line_ns
func.func @empty() {
  return
}
