// Where dl-probe may run on two CPUs, the machine file it writes has what
// writing next to another core's writes costs (near_write_line_ns) and an
// empty parallel region of libomp (fork_join_ns), and dl-set-target puts
// them on the module's target; on one CPU they are not measured, and the
// target has none. Without libomp, the region is not measured.
// REQUIRES: two-cpus
// RUN: dl-probe --min-time=0.001 -o %t.json 2>&1 | FileCheck %s --check-prefix=PROBE
// RUN: FileCheck %s --check-prefix=FILE < %t.json
// RUN: dl-opt %s --dl-set-target="machine-file=%t.json" | FileCheck %s --check-prefix=TARGET
// RUN: taskset -c 0 dl-probe --min-time=0.001 -o %t.one.json 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ONE-FILE < %t.one.json
// RUN: dl-opt %s --dl-set-target="machine-file=%t.one.json" | FileCheck %s --check-prefix=ONE-TARGET
// RUN: env DL_OPENMP_LIBRARY=%t.missing.so dl-probe --min-time=0.001 -o %t.no-omp.json 2>&1 | FileCheck %s --check-prefix=NO-OMP
// RUN: FileCheck %s --check-prefix=NO-OMP-FILE < %t.no-omp.json
// RUN: echo '{"levels": [{"name": "L1", "bytes": 32768, "latency": 4, "bandwidth": 64}], "memory": {"latency": 300, "bandwidth": 8}, "cores": {"fork_join_ns": "fast"}}' > %t.bad.json
// RUN: not dl-opt %s --dl-set-target="machine-file=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=BAD

// PROBE: cores: {{[0-9]+\.[0-9]+}} ns more a line written next to another core's writes, {{[0-9]+}} ns an empty parallel region (CPUs {{[0-9]+}} and {{[0-9]+}})
// FILE: "cores": {
// FILE-NEXT: "fork_join_ns": {{[0-9]}}
// FILE-NEXT: "near_write_line_ns": {{[0-9]}}
// TARGET: #dl.target<{{.*}}, near_write_line_ns = {{.*}} : f64, fork_join_ns = {{.*}} : f64>
// ONE: cores: not measured (one CPU to run on)
// NO-OMP: cores: {{.*}} parallel regions not measured (libomp not found)
// NO-OMP-FILE-NOT: fork_join_ns
// BAD: error: dl-set-target: machine file '{{.*}}': "cores": fork_join_ns must be a number >= 0
// ONE-FILE-NOT: cores
// ONE-TARGET-NOT: near_write_line_ns
func.func @empty() {
  return
}
