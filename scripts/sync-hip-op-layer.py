#!/usr/bin/env python3
"""Regenerates backend-hip's copy of the CUDA backend's vendor-neutral op layer (the files listed below)
from backend-cuda, with HIP's names, then re-applies HIP's few edits; --check only reports drift.

The op layer is meant to move into a shared gpu-common module used by both backends; until then this
keeps HIP's copy identical to the CUDA code that passed conformance on NVIDIA hardware. Run it after
merging backend-cuda changes: python3 scripts/sync-hip-op-layer.py [--check]
"""
import re, sys, os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C = ROOT + "/backend-cuda/src/main/java/dev/audioengine/backend/cuda/"
H = ROOT + "/backend-hip/src/main/java/dev/audioengine/backend/hip/"
CHECK = "--check" in sys.argv[1:]
drift = []
files = {"Binding": "Binding", "LaunchArgs": "LaunchArgs", "TensorDesc": "TensorDesc", "KernelLaunch": "KernelLaunch", "Step": "Step",
         "CudaOp": "HipOp", "CudaOps": "HipOps", "ElementwiseOps": "ElementwiseOps", "LayoutOps": "LayoutOps", "RowOps": "RowOps",
         "SequenceOps": "SequenceOps", "SpectralOps": "SpectralOps", "GraphCache": "GraphCache", "CudaExecutable": "HipExecutable",
         "CudaBuffer": "HipBuffer"}
edits = {
 "LaunchArgs": [("cuLaunchKernel", "hipModuleLaunchKernel"), ("CUdeviceptr values", "hipDeviceptr_t values")],
 "HipOps": [("The CUDA backend", "The ROCm backend"), ("the CUDA backend does not support", "the ROCm (HIP) backend does not support")],
 "GraphCache": [("Instantiated CUDA graphs", "Instantiated HIP graphs"), ("(cuGraphExecDestroy)", "(hipGraphExecDestroy)")],
 "HipExecutable": [("into a CUDA graph", "into a HIP graph"), ("compiled CUDA segment", "compiled ROCm segment")],
 "HipBuffer": [("from cuMemAlloc", "from hipMalloc")],
 "Binding": [(" * kernel cache, the GEMM library, scratch memory", " * kernel cache, scratch memory"),
   ("""        if (shared > 48 * 1024) backend.api().setMaxDynamicShared(f, shared);
""", """        // AMD GPUs give any kernel the whole workgroup LDS without an opt-in attribute; beyond it the launch would fail
        if (shared > backend.maxSharedPerBlock()) {
            throw new IllegalArgumentException(kernel + " needs " + shared + " bytes of shared memory; " + backend.device().name()
                    + " allows " + backend.maxSharedPerBlock() + " per block");
        }
""")],
}
regex_edits = {
 "SequenceOps": [(r"    /\*\* Dynamic shared memory an attention block may use[^\n]*\n    static final int ATTENTION_MAX_SHARED = [^\n]*\n",
                  "    /** Dynamic shared memory (LDS) an attention block may use; AMD GPUs give a workgroup 64 KiB. */\n    static final int ATTENTION_MAX_SHARED = 64 * 1024;\n")],
}
for src, dst in files.items():
    s = open(C + src + ".java").read()
    s = s.replace("package dev.audioengine.backend.cuda;", "package dev.audioengine.backend.hip;")
    s = s.replace("CudaBackend.cuda(", "HipBackend.hip(")
    for a, b in [("CudaBackend", "HipBackend"), ("CudaBuffer", "HipBuffer"), ("CudaOps", "HipOps"), ("CudaOp", "HipOp"),
                 ("CudaExecutable", "HipExecutable"), ("DriverApi", "HipApi"), ("cuda.graph_cache", "hip.graph_cache")]:
        s = s.replace(a, b)
    for a, b in edits.get(dst, []):
        if a not in s: sys.exit(f"{dst}: edit anchor not found: {a[:60]!r}")
        s = s.replace(a, b)
    for a, b in regex_edits.get(dst, []):
        s, n = re.subn(a, b, s)
        if n != 1: sys.exit(f"{dst}: regex edit matched {n} times")
    left = [w for w in re.findall(r"\b(?:cu[A-Z]\w+|CUDA|Cuda\w*|cublas\w*|CublasLt)\b", s)]
    if left: print(f"{dst}: still mentions {sorted(set(left))}")
    current = open(H + dst + ".java").read() if os.path.exists(H + dst + ".java") else None
    if current != s:
        drift.append(dst)
        if not CHECK:
            open(H + dst + ".java", "w").write(s)
if CHECK:
    print("out of sync with backend-cuda: " + ", ".join(drift) if drift else "backend-hip's op layer matches backend-cuda's")
    sys.exit(1 if drift else 0)
print("rewrote " + (", ".join(drift) if drift else "nothing") + f" ({len(files)} files checked)")
